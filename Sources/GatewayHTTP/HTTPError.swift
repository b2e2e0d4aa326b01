import Primitives

/// The one error type of the `GatewayHTTP` module (convention: docs/reference/conventions.md §1): a
/// stable `code` that can grow, a developer-facing `reason`, and where it was thrown.
///
/// Parser errors map to the status the server answers with (`HTTPError.responseStatus`), after which
/// the connection is closed: a framing error is never resynchronised (RFC 9112 §2.2, §6.3).
///
/// Security: `reason` must never contain secret material (keys, seeds, passwords, tokens) nor echo
/// untrusted input verbatim beyond a short, escaped excerpt. Clients never see `reason`: error
/// responses carry only the status line.
package typealias HTTPError = CodedError<HTTPErrorCode>

/// What went wrong, as a stable, comparable value. Two errors are equal when their codes are.
package struct HTTPErrorCode: ErrorCode {
    fileprivate enum Value: String, Sendable {
        case invalidInput
        case badRequest
        case uriTooLong
        case headersTooLarge
        case bodyTooLarge
        case notImplemented
        case versionNotSupported
        case expectationFailed
        case invalidConfiguration
        case bindFailed
        case fileLoadFailed
        case tlsCertificateLoadFailed
        case tlsKeyLoadFailed
        case tlsKeyMismatch
        case tlsFailed
        case probeFailed
    }
    fileprivate let value: Value
    /// Input that does not satisfy the module's rules.
    package static let invalidInput = Self(value: .invalidInput)
    /// A malformed request or a framing error (answered 400, then close).
    package static let badRequest = Self(value: .badRequest)
    /// The request line is longer than `HTTPLimits.maxRequestLineBytes` (answered 414).
    package static let uriTooLong = Self(value: .uriTooLong)
    /// The header section is too large or has too many fields (answered 431).
    package static let headersTooLarge = Self(value: .headersTooLarge)
    /// The body is larger than `HTTPLimits.maxBodyBytes` (answered 413).
    package static let bodyTooLarge = Self(value: .bodyTooLarge)
    /// A transfer coding or feature this server does not implement (answered 501).
    package static let notImplemented = Self(value: .notImplemented)
    /// An HTTP major version other than 1 (answered 505).
    package static let versionNotSupported = Self(value: .versionNotSupported)
    /// An `Expect` value other than `100-continue` (answered 417).
    package static let expectationFailed = Self(value: .expectationFailed)
    /// A configuration value that cannot work (bad bind address, zero limit, missing directory).
    package static let invalidConfiguration = Self(value: .invalidConfiguration)
    /// `socket`/`bind`/`listen` failed.
    package static let bindFailed = Self(value: .bindFailed)
    /// A static file could not be read or is over the size limit.
    package static let fileLoadFailed = Self(value: .fileLoadFailed)
    /// The TLS certificate file is missing, unreadable, or holds no usable PEM certificate chain.
    package static let tlsCertificateLoadFailed = Self(value: .tlsCertificateLoadFailed)
    /// The TLS private key file is missing, unreadable, encrypted, or holds no usable PEM key.
    package static let tlsKeyLoadFailed = Self(value: .tlsKeyLoadFailed)
    /// The private key does not belong to the certificate.
    package static let tlsKeyMismatch = Self(value: .tlsKeyMismatch)
    /// OpenSSL could not set up a TLS context or create a key/certificate.
    package static let tlsFailed = Self(value: .tlsFailed)
    /// An `HTTPProbe` request failed (resolve, connect, timeout, TLS, malformed response).
    package static let probeFailed = Self(value: .probeFailed)
    package var description: String { value.rawValue }
    package static let domain = "HTTPError"
}
