import Primitives

/// The one error type of the `ScaleCodec` module (convention: docs/reference/conventions.md §1): a
/// stable `code` that can grow, a developer-facing `reason`, and where it was thrown.
///
/// Security: `reason` must never contain secret material (keys, seeds, passwords, tokens) nor echo
/// untrusted input verbatim beyond a short, escaped excerpt.
public typealias ScaleError = CodedError<ScaleErrorCode>

/// What went wrong, as a stable, comparable value. Two errors are equal when their codes are.
public struct ScaleErrorCode: ErrorCode {
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
    public static let invalidInput = Self(value: .invalidInput)
    /// Fewer bytes left than the value needs.
    public static let truncated = Self(value: .truncated)
    /// A compact integer not in its shortest form (parity-scale-codec accepts only that).
    public static let nonCanonical = Self(value: .nonCanonical)
    /// A value too large for its type.
    public static let overflow = Self(value: .overflow)
    /// Bytes left over after a complete value.
    public static let trailingBytes = Self(value: .trailingBytes)
    /// An enum index with no such variant.
    public static let invalidVariant = Self(value: .invalidVariant)
    /// A bool byte other than 0 or 1.
    public static let invalidBool = Self(value: .invalidBool)
    /// A string that is not valid UTF-8.
    public static let invalidUTF8 = Self(value: .invalidUTF8)
    /// A length prefix larger than the bytes left (checked before allocating).
    public static let lengthTooLarge = Self(value: .lengthTooLarge)
    /// An extrinsic era that does not decode (sp-runtime `generic::Era`).
    public static let invalidEra = Self(value: .invalidEra)
    /// Runtime metadata without the `meta` magic.
    public static let invalidMagic = Self(value: .invalidMagic)
    /// A metadata version we do not decode (only 14, 15, 16).
    public static let unsupportedVersion = Self(value: .unsupportedVersion)
    /// A type id that the registry does not hold.
    public static let unknownType = Self(value: .unknownType)
    /// Values nested deeper than the decoder allows.
    public static let recursionLimit = Self(value: .recursionLimit)
    /// A value that does not fit the type it is encoded as.
    public static let typeMismatch = Self(value: .typeMismatch)
    /// A fixed-size value of the wrong size (signature, key, hash).
    public static let invalidLength = Self(value: .invalidLength)
    /// A call whose pallet index the metadata does not know.
    public static let unknownPallet = Self(value: .unknownPallet)
    /// A call whose call index the pallet does not have.
    public static let unknownCall = Self(value: .unknownCall)
    /// A decode visited more values than its budget (a registry fanning out over zero-sized types).
    public static let tooManyValues = Self(value: .tooManyValues)
    public var description: String { value.rawValue }
    public static let domain = "ScaleError"
}
