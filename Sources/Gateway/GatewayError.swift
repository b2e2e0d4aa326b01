import Primitives

/// The one error type of the `Gateway` module (convention: docs/reference/conventions.md §1): a
/// stable `code` that can grow, a developer-facing `reason`, and where it was thrown.
///
/// Security: `reason` must never contain secret material (keys, seeds, passwords, tokens) nor echo
/// untrusted input verbatim beyond a short, escaped excerpt.
package typealias GatewayError = CodedError<GatewayErrorCode>

/// What went wrong, as a stable, comparable value. Two errors are equal when their codes are.
package struct GatewayErrorCode: ErrorCode {
    fileprivate enum Value: String, Sendable {
        case invalidInput
        case sessionMismatch, tooManySessions, unknownMessage, notAllowed, forbidden, unsupportedMediaType,
            payloadTooLarge
        case notSaved
        case signingFailed, notJournaled
    }
    fileprivate let value: Value
    /// Input that does not satisfy the module's rules.
    package static let invalidInput = Self(value: .invalidInput)
    /// A session id used by another source than the one that created it.
    package static let sessionMismatch = Self(value: .sessionMismatch)
    /// A new session would exceed `GatewayOptions.maxSessions`.
    package static let tooManySessions = Self(value: .tooManySessions)
    /// A message the gateway does not handle; `reason` is the message name (wire text uses it).
    package static let unknownMessage = Self(value: .unknownMessage)
    /// The source is denied (phishing deny list).
    package static let notAllowed = Self(value: .notAllowed)
    /// A security gate refused the request (Host, Origin, token).
    package static let forbidden = Self(value: .forbidden)
    /// A POST without `Content-Type: application/json`.
    package static let unsupportedMediaType = Self(value: .unsupportedMediaType)
    /// A body over the configured limit.
    package static let payloadTooLarge = Self(value: .payloadTooLarge)
    /// An authorization change the store refused (nothing changed; the reason is in the log).
    package static let notSaved = Self(value: .notSaved)
    /// An approved request could not be signed (the key is gone, the signer refused); nothing left.
    package static let signingFailed = Self(value: .signingFailed)
    /// A signature was made but its journal entry could not be stored: the signature is withheld.
    package static let notJournaled = Self(value: .notJournaled)
    package var description: String { value.rawValue }
    package static let domain = "GatewayError"
}
