/// The one error type of the `GatewayHTTP` module (convention: docs/reference/conventions.md §1): a
/// stable `code` that can grow, a developer-facing `reason`, and where it was thrown.
///
/// Parser errors map to the status the server answers with (`HTTPError.responseStatus`), after which
/// the connection is closed: a framing error is never resynchronised (RFC 9112 §2.2, §6.3).
///
/// Security: `reason` must never contain secret material (keys, seeds, passwords, tokens) nor echo
/// untrusted input verbatim beyond a short, escaped excerpt. Clients never see `reason`: error
/// responses carry only the status line.
public struct HTTPError: Error, Equatable, CustomStringConvertible, Sendable {
    /// What went wrong, as a stable, comparable value. Two errors are equal when their codes are.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
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
        public static let invalidInput = Code(value: .invalidInput)
        /// A malformed request or a framing error (answered 400, then close).
        public static let badRequest = Code(value: .badRequest)
        /// The request line is longer than `HTTPLimits.maxRequestLineBytes` (answered 414).
        public static let uriTooLong = Code(value: .uriTooLong)
        /// The header section is too large or has too many fields (answered 431).
        public static let headersTooLarge = Code(value: .headersTooLarge)
        /// The body is larger than `HTTPLimits.maxBodyBytes` (answered 413).
        public static let bodyTooLarge = Code(value: .bodyTooLarge)
        /// A transfer coding or feature this server does not implement (answered 501).
        public static let notImplemented = Code(value: .notImplemented)
        /// An HTTP major version other than 1 (answered 505).
        public static let versionNotSupported = Code(value: .versionNotSupported)
        /// An `Expect` value other than `100-continue` (answered 417).
        public static let expectationFailed = Code(value: .expectationFailed)
        /// A configuration value that cannot work (bad bind address, zero limit, missing directory).
        public static let invalidConfiguration = Code(value: .invalidConfiguration)
        /// `socket`/`bind`/`listen` failed.
        public static let bindFailed = Code(value: .bindFailed)
        /// A static file could not be read or is over the size limit.
        public static let fileLoadFailed = Code(value: .fileLoadFailed)
        /// The TLS certificate file is missing, unreadable, or holds no usable PEM certificate chain.
        public static let tlsCertificateLoadFailed = Code(value: .tlsCertificateLoadFailed)
        /// The TLS private key file is missing, unreadable, encrypted, or holds no usable PEM key.
        public static let tlsKeyLoadFailed = Code(value: .tlsKeyLoadFailed)
        /// The private key does not belong to the certificate.
        public static let tlsKeyMismatch = Code(value: .tlsKeyMismatch)
        /// OpenSSL could not set up a TLS context or create a key/certificate.
        public static let tlsFailed = Code(value: .tlsFailed)
        /// An `HTTPProbe` request failed (resolve, connect, timeout, TLS, malformed response).
        public static let probeFailed = Code(value: .probeFailed)
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

    public static func == (lhs: HTTPError, rhs: HTTPError) -> Bool { lhs.code == rhs.code }

    public var description: String { "HTTPError.\(code): \(reason)" }
}
