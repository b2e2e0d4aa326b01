import Primitives

/// `ScaleCodec`'s error (docs/reference/conventions.md §1; the shape, equality and security rules are
/// `CodedError`'s). Decoding errors name the offset in `reason`; bytes of the input are never echoed.
package typealias ScaleError = CodedError<ScaleErrorCode>

/// Why a `ScaleError` was thrown; the case name is what messages and logs show
/// (`ScaleError.<case>: reason`), so a case is added but never renamed.
package enum ScaleErrorCode: String, ErrorCode {
    package static let domain = "ScaleError"
    /// Input that does not satisfy the module's rules.
    case invalidInput
    /// Fewer bytes left than the value needs.
    case truncated
    /// A compact integer not in its shortest form (parity-scale-codec accepts only that).
    case nonCanonical
    /// A value too large for its type.
    case overflow
    /// Bytes left over after a complete value.
    case trailingBytes
    /// An enum index with no such variant.
    case invalidVariant
    /// A bool byte other than 0 or 1.
    case invalidBool
    /// A string that is not valid UTF-8.
    case invalidUTF8
    /// A length prefix larger than the bytes left (checked before allocating).
    case lengthTooLarge
    /// An extrinsic era that does not decode (sp-runtime `generic::Era`).
    case invalidEra
    /// Runtime metadata without the `meta` magic.
    case invalidMagic
    /// A metadata version we do not decode (only 14, 15, 16).
    case unsupportedVersion
    /// A type id that the registry does not hold.
    case unknownType
    /// Values nested deeper than the decoder allows.
    case recursionLimit
    /// A value that does not fit the type it is encoded as.
    case typeMismatch
    /// A fixed-size value of the wrong size (signature, key, hash).
    case invalidLength
    /// A call whose pallet index the metadata does not know.
    case unknownPallet
    /// A call whose call index the pallet does not have.
    case unknownCall
    /// A decode visited more values than its budget (a registry fanning out over zero-sized types).
    case tooManyValues
}
