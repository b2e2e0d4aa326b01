import Primitives

/// The one error type of the `MetadataHash` module (convention: docs/reference/conventions.md §1): a
/// stable `code` that can grow, a developer-facing `reason`, and where it was thrown.
///
/// Security: `reason` never contains secret material; names from metadata appear only as short,
/// escaped excerpts (metadata is untrusted input).
package typealias MetadataHashError = CodedError<MetadataHashErrorCode>

/// What went wrong, as a stable, comparable value. Two errors are equal when their codes are.
package struct MetadataHashErrorCode: ErrorCode {
    fileprivate enum Value: String, Sendable {
        case unsupportedVersion
        case unknownType
        case unsupportedType
        case specVersionMismatch
        case invalidInput
        case undecodable
        case invalidProof
    }
    fileprivate let value: Value
    /// Metadata other than v15: RFC-0078's reference implementation defines the hash on v15 only.
    package static let unsupportedVersion = Self(value: .unsupportedVersion)
    /// A type id that the metadata's registry does not hold.
    package static let unknownType = Self(value: .unknownType)
    /// A type RFC-0078 cannot express: a `Compact` of anything but one unsigned integer, a bit
    /// sequence whose store is not `u8`…`u64` or whose order is neither `Lsb0` nor `Msb0`.
    package static let unsupportedType = Self(value: .unsupportedType)
    /// Metadata whose `System.Version` names another spec version than the one asked for.
    package static let specVersionMismatch = Self(value: .specVersionMismatch)
    /// Arguments that do not satisfy the API's rules (a genesis hash that is not 32 bytes…).
    package static let invalidInput = Self(value: .invalidInput)
    /// Extrinsic bytes that do not decode with the type information (building a proof).
    package static let undecodable = Self(value: .undecodable)
    /// A proof whose leaves and nodes do not form a tree (verifying a proof).
    package static let invalidProof = Self(value: .invalidProof)
    package var description: String { value.rawValue }
    package static let domain = "MetadataHashError"
}
