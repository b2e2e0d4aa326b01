import Primitives

/// `GatewayHTTP`'s error (docs/reference/conventions.md §1; the shape, equality and security rules
/// are `CodedError`'s).
///
/// Parser errors map to the status the server answers with (`HTTPError.responseStatus`), after which
/// the connection is closed: a framing error is never resynchronised (RFC 9112 §2.2, §6.3). Clients
/// never see `reason`: error responses carry only the status line.
package typealias HTTPError = CodedError<HTTPErrorCode>

/// Why a `HTTPError` was thrown; the case name is what messages and logs show
/// (`HTTPError.<case>: reason`), so a case is added but never renamed.
package enum HTTPErrorCode: String, ErrorCode {
    package static let domain = "HTTPError"
    /// Input that does not satisfy the module's rules.
    case invalidInput
    /// A malformed request or a framing error (answered 400, then close).
    case badRequest
    /// The request line is longer than `HTTPLimits.maxRequestLineBytes` (answered 414).
    case uriTooLong
    /// The header section is too large or has too many fields (answered 431).
    case headersTooLarge
    /// The body is larger than `HTTPLimits.maxBodyBytes` (answered 413).
    case bodyTooLarge
    /// A transfer coding or feature this server does not implement (answered 501).
    case notImplemented
    /// An HTTP major version other than 1 (answered 505).
    case versionNotSupported
    /// An `Expect` value other than `100-continue` (answered 417).
    case expectationFailed
    /// A configuration value that cannot work (bad bind address, zero limit, missing directory).
    case invalidConfiguration
    /// `socket`/`bind`/`listen` failed.
    case bindFailed
    /// A static file could not be read or is over the size limit.
    case fileLoadFailed
    /// The TLS certificate file is missing, unreadable, or holds no usable PEM certificate chain.
    case tlsCertificateLoadFailed
    /// The TLS private key file is missing, unreadable, encrypted, or holds no usable PEM key.
    case tlsKeyLoadFailed
    /// The private key does not belong to the certificate.
    case tlsKeyMismatch
    /// OpenSSL could not set up a TLS context or create a key/certificate.
    case tlsFailed
    /// An `HTTPProbe` request failed (resolve, connect, timeout, TLS, malformed response).
    case probeFailed
}
