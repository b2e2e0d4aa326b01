/// The one error type of the `ScaleCodec` module (convention: docs/reference/conventions.md §1): a
/// stable `code` that can grow, a developer-facing `reason`, and where it was thrown.
///
/// Security: `reason` must never contain secret material (keys, seeds, passwords, tokens) nor echo
/// untrusted input verbatim beyond a short, escaped excerpt.
public struct ScaleError: Error, Equatable, CustomStringConvertible, Sendable {
    /// What went wrong, as a stable, comparable value. Two errors are equal when their codes are.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
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
        public static let invalidInput = Code(value: .invalidInput)
        /// Fewer bytes left than the value needs.
        public static let truncated = Code(value: .truncated)
        /// A compact integer not in its shortest form (parity-scale-codec accepts only that).
        public static let nonCanonical = Code(value: .nonCanonical)
        /// A value too large for its type.
        public static let overflow = Code(value: .overflow)
        /// Bytes left over after a complete value.
        public static let trailingBytes = Code(value: .trailingBytes)
        /// An enum index with no such variant.
        public static let invalidVariant = Code(value: .invalidVariant)
        /// A bool byte other than 0 or 1.
        public static let invalidBool = Code(value: .invalidBool)
        /// A string that is not valid UTF-8.
        public static let invalidUTF8 = Code(value: .invalidUTF8)
        /// A length prefix larger than the bytes left (checked before allocating).
        public static let lengthTooLarge = Code(value: .lengthTooLarge)
        /// An extrinsic era that does not decode (sp-runtime `generic::Era`).
        public static let invalidEra = Code(value: .invalidEra)
        /// Runtime metadata without the `meta` magic.
        public static let invalidMagic = Code(value: .invalidMagic)
        /// A metadata version we do not decode (only 14, 15, 16).
        public static let unsupportedVersion = Code(value: .unsupportedVersion)
        /// A type id that the registry does not hold.
        public static let unknownType = Code(value: .unknownType)
        /// Values nested deeper than the decoder allows.
        public static let recursionLimit = Code(value: .recursionLimit)
        /// A value that does not fit the type it is encoded as.
        public static let typeMismatch = Code(value: .typeMismatch)
        /// A fixed-size value of the wrong size (signature, key, hash).
        public static let invalidLength = Code(value: .invalidLength)
        /// A call whose pallet index the metadata does not know.
        public static let unknownPallet = Code(value: .unknownPallet)
        /// A call whose call index the pallet does not have.
        public static let unknownCall = Code(value: .unknownCall)
        /// A decode visited more values than its budget (a registry fanning out over zero-sized types).
        public static let tooManyValues = Code(value: .tooManyValues)
        public var description: String { value.rawValue }
    }

    /// The stable error code.
    public let code: Code
    /// A human explanation for developers and logs; never secret.
    public let reason: String
    /// Source location where the error was created.
    public let file: String
    public let line: Int

    /// Creates an error. - Parameters: code, reason (no secrets), and the throwing site.
    public init(_ code: Code, _ reason: String, file: String = #fileID, line: Int = #line) {
        self.code = code
        self.reason = reason
        self.file = file
        self.line = line
    }

    public static func == (lhs: ScaleError, rhs: ScaleError) -> Bool { lhs.code == rhs.code }

    public var description: String { "ScaleError.\(code): \(reason)" }
}
