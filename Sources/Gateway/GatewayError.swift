import Primitives

/// `Gateway`'s error (docs/reference/conventions.md §1; the shape, equality and security rules are
/// `CodedError`'s). `WireErrorText` maps it to the few strings a dapp sees; `reason` stays in the log.
package typealias GatewayError = CodedError<GatewayErrorCode>

/// Why a `GatewayError` was thrown; the case name is what messages and logs show
/// (`GatewayError.<case>: reason`), so a case is added but never renamed.
package enum GatewayErrorCode: String, ErrorCode {
    package static let domain = "GatewayError"
    /// Input that does not satisfy the module's rules.
    case invalidInput
    /// A session id used by another source than the one that created it.
    case sessionMismatch
    /// A new session would exceed `GatewayOptions.maxSessions`.
    case tooManySessions
    /// A message the gateway does not handle; `reason` is the message name (wire text uses it).
    case unknownMessage
    /// The source is denied (phishing deny list).
    case notAllowed
    /// A security gate refused the request (Host, Origin, token).
    case forbidden
    /// A POST without `Content-Type: application/json`.
    case unsupportedMediaType
    /// A body over the configured limit.
    case payloadTooLarge
    /// An authorization change the store refused (nothing changed; the reason is in the log).
    case notSaved
    /// An approved request could not be signed (the key is gone, the signer refused); nothing left.
    case signingFailed
    /// A signature was made but its journal entry could not be stored: the signature is withheld.
    case notJournaled
}
