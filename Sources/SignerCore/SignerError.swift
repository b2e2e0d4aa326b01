import PolkadotCodec
import Primitives

/// `SignerCore`'s error (docs/reference/conventions.md §1; the shape, equality and security rules are
/// `CodedError`'s). Payload codes name the field (`badField`, reason `tip`). A `PolkadotCodecError`
/// (the payload's parse and rebuild) is passed on under the code of the same name
/// (`SignerError(polkadotCodecError)`), so what the gateway maps, the journal records and `sigil`
/// prints is the same code as before the codec was a module of its own.
package typealias SignerError = CodedError<SignerErrorCode>

/// Why a `SignerError` was thrown; the case name is what messages and logs show
/// (`SignerError.<case>: reason`), so a case is added but never renamed.
package enum SignerErrorCode: String, ErrorCode {
    package static let domain = "SignerError"
    /// Input that does not satisfy the module's rules.
    case invalidInput

    // MARK: Approval and authorization (Approval/, Authorization/, Requests/)
    /// The source has not been authorized (polkadot-js: `The source … has not been enabled yet`).
    case notEnabled
    /// The source already has an authorization request waiting for a person.
    case authorizationPending
    /// A person rejected the connection request.
    case authorizationRejected
    /// The connection request went away without a decision (tab closed, expired, shutdown).
    case authorizationCancelled
    /// A person rejected (cancelled) a signing request (polkadot-js: `Cancelled`).
    case cancelled
    /// A person rejected a metadata update (polkadot-js: `Rejected`).
    case rejected
    /// Too many requests are already waiting, for this source or in total.
    case tooManyPending
    /// The account is unknown or not authorized for the source.
    case unknownAccount
    /// No pending approval has this id (already decided, expired, or never existed).
    case unknownApproval
    /// The request waited longer than the configured approval timeout.
    case expired

    // MARK: Signing payloads: PolkadotCodec's refusals, passed on under the same names
    // (`SignerError(polkadotCodecError)`, the names of payloads.json `invalid[].reason`); each is
    // documented once, on `PolkadotCodecErrorCode`. `badLength` is also SignerCore's own: an ICON or
    // Ethereum hash to sign that is not 32 bytes.
    case badJSON, missingField, badField, notHex, badLength, overflow, invalidEra, unsupportedVersion, badMode
    case modeWithoutMetadataHash, metadataHashWithoutMode, immortalBlockHash, badAddress, badAssetId
    case unknownSignedExtension, badMetadata

    // MARK: RFC-0078 metadata hash (Signing/MetadataHashCheck)
    /// A payload's `metadataHash` (mode 1) is not the hash of the metadata and chain properties a
    /// person approved in Sigil: the site decoded with other metadata, or describes the chain differently.
    case metadataHashMismatch

    // MARK: Internet Computer (ICP/)
    /// A request Sigil cannot describe (a Polkadot call that does not decode with the stored
    /// metadata, a canister call with no known method and type), and the person has not allowed
    /// the site blind signing (off by default; ICRC-49 requires it for canister calls).
    case blindSigningOff
}

extension SignerError {
    /// A `PolkadotCodec` refusal passed on under the code of the same name (every codec code has one
    /// here; `invalidInput` would be the fallback), its reason and throwing site kept.
    package init(_ error: PolkadotCodecError) { self.init(error, else: .invalidInput) }
}

/// Runs `PolkadotCodec` calls (parsing a payload, rebuilding what is signed) inside SignerCore's error.
func polkadotCodec<T>(_ body: () throws(PolkadotCodecError) -> T) throws(SignerError) -> T {
    do {
        return try body()
    } catch {
        throw SignerError(error)
    }
}
