import Primitives

/// `MetadataHash`'s error (docs/reference/conventions.md §1; the shape and equality are
/// `CodedError`'s). Names from metadata appear in `reason` only as short, escaped excerpts
/// (metadata is untrusted input).
package typealias MetadataHashError = CodedError<MetadataHashErrorCode>

/// Why a `MetadataHashError` was thrown; the case name is what messages and logs show
/// (`MetadataHashError.<case>: reason`), so a case is added but never renamed.
package enum MetadataHashErrorCode: String, ErrorCode {
    package static let domain = "MetadataHashError"
    /// Metadata other than v15: RFC-0078's reference implementation defines the hash on v15 only.
    case unsupportedVersion
    /// A type id that the metadata's registry does not hold.
    case unknownType
    /// A type RFC-0078 cannot express: a `Compact` of anything but one unsigned integer, a bit
    /// sequence whose store is not `u8`…`u64` or whose order is neither `Lsb0` nor `Msb0`.
    case unsupportedType
    /// Metadata whose `System.Version` names another spec version than the one asked for.
    case specVersionMismatch
    /// Arguments that do not satisfy the API's rules (a genesis hash that is not 32 bytes…).
    case invalidInput
    /// Extrinsic bytes that do not decode with the type information (building a proof).
    case undecodable
    /// A proof whose leaves and nodes do not form a tree (verifying a proof).
    case invalidProof
}
