/// The one error type of the `SignerCore` module (convention: docs/reference/conventions.md §1): a
/// stable `code` that can grow, a developer-facing `reason`, and where it was thrown.
///
/// Security: `reason` must never contain secret material (keys, seeds, passwords, tokens) nor echo
/// untrusted input verbatim beyond a short, escaped excerpt.
public struct SignerError: Error, Equatable, CustomStringConvertible, Sendable {
    /// What went wrong, as a stable, comparable value. Two errors are equal when their codes are.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        fileprivate enum Value: String, Sendable {
            case invalidInput
            // Approval and authorization (gateway stream).
            case notEnabled, authorizationPending, authorizationRejected, authorizationCancelled
            case cancelled, rejected, tooManyPending, unknownAccount, unknownApproval, expired

            // Signing payloads (scale stream: Payload/, Display/).
            case missingField, badField, notHex, badLength, overflow, invalidEra, unsupportedVersion
            case badMode, modeWithoutMetadataHash, metadataHashWithoutMode, immortalBlockHash
            case badAddress, badAssetId, unknownSignedExtension, badMetadata, badJSON

            // RFC-0078 (Signing/MetadataHashCheck).
            case metadataHashMismatch

            // Requests Sigil cannot describe (every protocol: docs/blind-signing.md).
            case blindSigningOff
        }
        fileprivate let value: Value
        /// Input that does not satisfy the module's rules.
        public static let invalidInput = Code(value: .invalidInput)

        // MARK: Approval and authorization (Approval/, Authorization/, Requests/)
        /// The source has not been authorized (polkadot-js: `The source … has not been enabled yet`).
        public static let notEnabled = Code(value: .notEnabled)
        /// The source already has an authorization request waiting for a person.
        public static let authorizationPending = Code(value: .authorizationPending)
        /// A person rejected the connection request.
        public static let authorizationRejected = Code(value: .authorizationRejected)
        /// The connection request went away without a decision (tab closed, expired, shutdown).
        public static let authorizationCancelled = Code(value: .authorizationCancelled)
        /// A person rejected (cancelled) a signing request (polkadot-js: `Cancelled`).
        public static let cancelled = Code(value: .cancelled)
        /// A person rejected a metadata update (polkadot-js: `Rejected`).
        public static let rejected = Code(value: .rejected)
        /// Too many requests are already waiting, for this source or in total.
        public static let tooManyPending = Code(value: .tooManyPending)
        /// The account is unknown or not authorized for the source.
        public static let unknownAccount = Code(value: .unknownAccount)
        /// No pending approval has this id (already decided, expired, or never existed).
        public static let unknownApproval = Code(value: .unknownApproval)
        /// The request waited longer than the configured approval timeout.
        public static let expired = Code(value: .expired)

        // MARK: Signing payloads (Payload/, Display/) — names match payloads.json `invalid[].reason`
        /// A required `SignerPayloadJSON` field is absent (`MissingField`).
        public static let missingField = Code(value: .missingField)
        /// A field has the wrong JSON type or an impossible value.
        public static let badField = Code(value: .badField)
        /// A hex field is not `0x` + an even number of hex digits (`NotHex`).
        public static let notHex = Code(value: .notHex)
        /// A hash or key has the wrong number of bytes (`BadLength`).
        public static let badLength = Code(value: .badLength)
        /// A number does not fit its type (`Overflow`), e.g. a tip over u128.
        public static let overflow = Code(value: .overflow)
        /// `era` does not decode as an extrinsic era (`InvalidEra`).
        public static let invalidEra = Code(value: .invalidEra)
        /// `version` is not 4 (`UnsupportedVersion`).
        public static let unsupportedVersion = Code(value: .unsupportedVersion)
        /// `mode` is neither 0 nor 1 (`BadMode`).
        public static let badMode = Code(value: .badMode)
        /// `mode` 1 without `metadataHash` (`ModeWithoutMetadataHash`).
        public static let modeWithoutMetadataHash = Code(value: .modeWithoutMetadataHash)
        /// `metadataHash` with `mode` 0 (`MetadataHashWithoutMode`).
        public static let metadataHashWithoutMode = Code(value: .metadataHashWithoutMode)
        /// An immortal era whose `blockHash` is not the genesis hash (`ImmortalBlockHash`).
        public static let immortalBlockHash = Code(value: .immortalBlockHash)
        /// `address` is neither valid SS58 nor a 20-byte hex address (`BadAddress`).
        public static let badAddress = Code(value: .badAddress)
        /// `assetId` is neither an Option-prefixed nor a bare Location (`BadAssetId`).
        public static let badAssetId = Code(value: .badAssetId)
        /// A signed extension we do not know carries data according to the chain's metadata.
        public static let unknownSignedExtension = Code(value: .unknownSignedExtension)
        /// Runtime metadata that does not decode.
        public static let badMetadata = Code(value: .badMetadata)
        /// Text that is not the JSON object expected.
        public static let badJSON = Code(value: .badJSON)

        // MARK: RFC-0078 metadata hash (Signing/MetadataHashCheck)
        /// A payload's `metadataHash` (mode 1) is not the hash of the metadata and chain properties a
        /// person approved in Sigil: the site decoded with other metadata, or describes the chain differently.
        public static let metadataHashMismatch = Code(value: .metadataHashMismatch)

        // MARK: Internet Computer (ICP/)
        /// A request Sigil cannot describe (a Polkadot call that does not decode with the stored
        /// metadata, a canister call with no known method and type), and the person has not allowed
        /// the site blind signing (off by default; ICRC-49 requires it for canister calls).
        public static let blindSigningOff = Code(value: .blindSigningOff)

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

    public static func == (lhs: SignerError, rhs: SignerError) -> Bool { lhs.code == rhs.code }

    public var description: String { "SignerError.\(code): \(reason)" }
}
