import Primitives
import SignerCore

/// The error strings clients see: polkadot-js's own (so dapps matching on them keep working,
/// docs/reference/polkadot-extension.md §1.3) plus a few of ours. Never a reason, offset or input echo.
package enum WireErrorText {
    /// polkadot-js `Tabs.ts` `ensureUrlAuthorized`.
    package static func notEnabled(_ source: String) -> String { "The source \(source) has not been enabled yet" }
    /// polkadot-js `State.ts` `authorizeUrl`.
    package static func pendingAuthorization(_ source: String) -> String {
        "The source \(source) has a pending authorization request"
    }
    /// polkadot-js `State.ts` (denied, or on the phishing deny list).
    package static func notAllowed(_ source: String) -> String {
        "The source \(source) is not allowed to interact with this extension"
    }
    /// polkadot-js `State.ts` user rejection of an authorization.
    package static let authorizationRejected = "Connection request was rejected by the user."
    /// polkadot-js `State.ts` authorization that went away without a decision.
    package static let authorizationCancelled = "Connection request was cancelled by the user."
    /// polkadot-js signing cancel.
    package static let cancelled = "Cancelled"
    /// polkadot-js metadata reject.
    package static let rejected = "Rejected"
    /// polkadot-js `Tabs.getSigningPair`; also for accounts the site may not use (no existence leak).
    package static let unknownAccount = "Unable to find keypair"
    /// Ours: the queue is full.
    package static let tooManyPending = "Too many pending requests. Try again later."
    /// Ours: malformed request.
    package static let badRequest = "Bad request"
    /// Ours: a `metadataHash` (mode 1) that is not the hash of the metadata and chain properties
    /// approved in Sigil (RFC-0078; refused before any prompt). In the style of polkadot-js's
    /// `Tabs.ts` sentences; names no value.
    package static let metadataHashMismatch =
        "Metadata hash mismatch: the site's metadata or chain properties differ from those approved in the signer"
    /// Ours: an approved connection the state store could not record (so it did not happen).
    package static let notSaved = "The connection could not be saved. Try again."
    /// Ours: an approved signature whose journal entry could not be stored, so it was not released.
    package static let notJournaled =
        "The signature could not be recorded in the journal, so it was not released. Try again."
    /// Ours: a call Sigil cannot decode, from a site without the blind-signing opt-in.
    package static let blindSigningOff =
        "Sigil cannot decode this call with the chain's metadata, and blind signing is off for this site."
    /// polkadot-js `Tabs.ts` default branch.
    package static func unknownMessage(_ type: String) -> String { "Unable to handle message of type \(type)" }

    /// Maps an internal error to its wire string.
    package static func text(for error: any Error, source: String) -> String {
        if let e = error as? SignerError {
            switch e.code {
            case .notEnabled: return notEnabled(source)
            case .authorizationPending: return pendingAuthorization(source)
            case .authorizationRejected: return authorizationRejected
            case .authorizationCancelled: return authorizationCancelled
            case .cancelled, .expired: return cancelled
            case .rejected: return rejected
            case .tooManyPending: return tooManyPending
            case .unknownAccount: return unknownAccount
            case .metadataHashMismatch: return metadataHashMismatch
            case .blindSigningOff: return blindSigningOff
            default: return badRequest
            }
        }
        if let e = error as? GatewayError {
            switch e.code {
            case .unknownMessage: return unknownMessage(e.reason)
            case .notAllowed: return notAllowed(source)
            case .notSaved: return notSaved
            default: return badRequest
            }
        }
        return badRequest
    }
}
