import Primitives

/// The one error type of the `SignerCore` module (convention: docs/reference/conventions.md §1): a
/// stable `code` that can grow, a developer-facing `reason`, and where it was thrown.
///
/// Security: `reason` must never contain secret material (keys, seeds, passwords, tokens) nor echo
/// untrusted input verbatim beyond a short, escaped excerpt.
package typealias SignerError = CodedError<SignerErrorCode>

/// What went wrong, as a stable, comparable value. Two errors are equal when their codes are.
package struct SignerErrorCode: ErrorCode {
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
    package static let invalidInput = Self(value: .invalidInput)

    // MARK: Approval and authorization (Approval/, Authorization/, Requests/)
    /// The source has not been authorized (polkadot-js: `The source … has not been enabled yet`).
    package static let notEnabled = Self(value: .notEnabled)
    /// The source already has an authorization request waiting for a person.
    package static let authorizationPending = Self(value: .authorizationPending)
    /// A person rejected the connection request.
    package static let authorizationRejected = Self(value: .authorizationRejected)
    /// The connection request went away without a decision (tab closed, expired, shutdown).
    package static let authorizationCancelled = Self(value: .authorizationCancelled)
    /// A person rejected (cancelled) a signing request (polkadot-js: `Cancelled`).
    package static let cancelled = Self(value: .cancelled)
    /// A person rejected a metadata update (polkadot-js: `Rejected`).
    package static let rejected = Self(value: .rejected)
    /// Too many requests are already waiting, for this source or in total.
    package static let tooManyPending = Self(value: .tooManyPending)
    /// The account is unknown or not authorized for the source.
    package static let unknownAccount = Self(value: .unknownAccount)
    /// No pending approval has this id (already decided, expired, or never existed).
    package static let unknownApproval = Self(value: .unknownApproval)
    /// The request waited longer than the configured approval timeout.
    package static let expired = Self(value: .expired)

    // MARK: Signing payloads (Payload/, Display/) — names match payloads.json `invalid[].reason`
    /// A required `SignerPayloadJSON` field is absent (`MissingField`).
    package static let missingField = Self(value: .missingField)
    /// A field has the wrong JSON type or an impossible value.
    package static let badField = Self(value: .badField)
    /// A hex field is not `0x` + an even number of hex digits (`NotHex`).
    package static let notHex = Self(value: .notHex)
    /// A hash or key has the wrong number of bytes (`BadLength`).
    package static let badLength = Self(value: .badLength)
    /// A number does not fit its type (`Overflow`), e.g. a tip over u128.
    package static let overflow = Self(value: .overflow)
    /// `era` does not decode as an extrinsic era (`InvalidEra`).
    package static let invalidEra = Self(value: .invalidEra)
    /// `version` is not 4 (`UnsupportedVersion`).
    package static let unsupportedVersion = Self(value: .unsupportedVersion)
    /// `mode` is neither 0 nor 1 (`BadMode`).
    package static let badMode = Self(value: .badMode)
    /// `mode` 1 without `metadataHash` (`ModeWithoutMetadataHash`).
    package static let modeWithoutMetadataHash = Self(value: .modeWithoutMetadataHash)
    /// `metadataHash` with `mode` 0 (`MetadataHashWithoutMode`).
    package static let metadataHashWithoutMode = Self(value: .metadataHashWithoutMode)
    /// An immortal era whose `blockHash` is not the genesis hash (`ImmortalBlockHash`).
    package static let immortalBlockHash = Self(value: .immortalBlockHash)
    /// `address` is neither valid SS58 nor a 20-byte hex address (`BadAddress`).
    package static let badAddress = Self(value: .badAddress)
    /// `assetId` is neither an Option-prefixed nor a bare Location (`BadAssetId`).
    package static let badAssetId = Self(value: .badAssetId)
    /// A signed extension we do not know carries data according to the chain's metadata.
    package static let unknownSignedExtension = Self(value: .unknownSignedExtension)
    /// Runtime metadata that does not decode.
    package static let badMetadata = Self(value: .badMetadata)
    /// Text that is not the JSON object expected.
    package static let badJSON = Self(value: .badJSON)

    // MARK: RFC-0078 metadata hash (Signing/MetadataHashCheck)
    /// A payload's `metadataHash` (mode 1) is not the hash of the metadata and chain properties a
    /// person approved in Sigil: the site decoded with other metadata, or describes the chain differently.
    package static let metadataHashMismatch = Self(value: .metadataHashMismatch)

    // MARK: Internet Computer (ICP/)
    /// A request Sigil cannot describe (a Polkadot call that does not decode with the stored
    /// metadata, a canister call with no known method and type), and the person has not allowed
    /// the site blind signing (off by default; ICRC-49 requires it for canister calls).
    package static let blindSigningOff = Self(value: .blindSigningOff)

    package var description: String { value.rawValue }
    package static let domain = "SignerError"
}
