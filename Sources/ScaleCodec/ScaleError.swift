import Primitives

/// The one error type of the `ScaleCodec` module (convention: docs/reference/conventions.md §1): a
/// stable `code` that can grow, a developer-facing `reason`, and where it was thrown.
///
/// Security: `reason` must never contain secret material (keys, seeds, passwords, tokens) nor echo
/// untrusted input verbatim beyond a short, escaped excerpt.
package typealias ScaleError = CodedError<ScaleErrorCode>

/// What went wrong, as a stable, comparable value. Two errors are equal when their codes are.
package struct ScaleErrorCode: ErrorCode {
    fileprivate enum Value: String, Sendable {
        case invalidInput
        case truncated
        case nonCanonical
        case overflow
        case trailingBytes
        case invalidVariant
        case invalidBool
        case invalidUTF8
        case lengthTooLarge
        case invalidEra
        case invalidMagic
        case unsupportedVersion
        case unknownType
        case recursionLimit
        case typeMismatch
        case invalidLength
        case unknownPallet
        case unknownCall
        case tooManyValues
    }
    fileprivate let value: Value
    /// Input that does not satisfy the module's rules.
    package static let invalidInput = Self(value: .invalidInput)
    /// Fewer bytes left than the value needs.
    package static let truncated = Self(value: .truncated)
    /// A compact integer not in its shortest form (parity-scale-codec accepts only that).
    package static let nonCanonical = Self(value: .nonCanonical)
    /// A value too large for its type.
    package static let overflow = Self(value: .overflow)
    /// Bytes left over after a complete value.
    package static let trailingBytes = Self(value: .trailingBytes)
    /// An enum index with no such variant.
    package static let invalidVariant = Self(value: .invalidVariant)
    /// A bool byte other than 0 or 1.
    package static let invalidBool = Self(value: .invalidBool)
    /// A string that is not valid UTF-8.
    package static let invalidUTF8 = Self(value: .invalidUTF8)
    /// A length prefix larger than the bytes left (checked before allocating).
    package static let lengthTooLarge = Self(value: .lengthTooLarge)
    /// An extrinsic era that does not decode (sp-runtime `generic::Era`).
    package static let invalidEra = Self(value: .invalidEra)
    /// Runtime metadata without the `meta` magic.
    package static let invalidMagic = Self(value: .invalidMagic)
    /// A metadata version we do not decode (only 14, 15, 16).
    package static let unsupportedVersion = Self(value: .unsupportedVersion)
    /// A type id that the registry does not hold.
    package static let unknownType = Self(value: .unknownType)
    /// Values nested deeper than the decoder allows.
    package static let recursionLimit = Self(value: .recursionLimit)
    /// A value that does not fit the type it is encoded as.
    package static let typeMismatch = Self(value: .typeMismatch)
    /// A fixed-size value of the wrong size (signature, key, hash).
    package static let invalidLength = Self(value: .invalidLength)
    /// A call whose pallet index the metadata does not know.
    package static let unknownPallet = Self(value: .unknownPallet)
    /// A call whose call index the pallet does not have.
    package static let unknownCall = Self(value: .unknownCall)
    /// A decode visited more values than its budget (a registry fanning out over zero-sized types).
    package static let tooManyValues = Self(value: .tooManyValues)
    package var description: String { value.rawValue }
    package static let domain = "ScaleError"
}
