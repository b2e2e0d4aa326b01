/// The one error type of the `Gateway` module (convention: docs/reference/conventions.md §1): a
/// stable `code` that can grow, a developer-facing `reason`, and where it was thrown.
///
/// Security: `reason` must never contain secret material (keys, seeds, passwords, tokens) nor echo
/// untrusted input verbatim beyond a short, escaped excerpt.
public struct GatewayError: Error, Equatable, CustomStringConvertible, Sendable {
    /// What went wrong, as a stable, comparable value. Two errors are equal when their codes are.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        fileprivate enum Value: String, Sendable {
            case invalidInput
            case sessionMismatch, tooManySessions, unknownMessage, notAllowed, forbidden, unsupportedMediaType, payloadTooLarge
        }
        fileprivate let value: Value
        /// Input that does not satisfy the module's rules.
        public static let invalidInput = Code(value: .invalidInput)
        /// A session id used by another source than the one that created it.
        public static let sessionMismatch = Code(value: .sessionMismatch)
        /// A new session would exceed `GatewayOptions.maxSessions`.
        public static let tooManySessions = Code(value: .tooManySessions)
        /// A message the gateway does not handle; `reason` is the message name (wire text uses it).
        public static let unknownMessage = Code(value: .unknownMessage)
        /// The source is denied (phishing deny list).
        public static let notAllowed = Code(value: .notAllowed)
        /// A security gate refused the request (Host, Origin, token).
        public static let forbidden = Code(value: .forbidden)
        /// A POST without `Content-Type: application/json`.
        public static let unsupportedMediaType = Code(value: .unsupportedMediaType)
        /// A body over the configured limit.
        public static let payloadTooLarge = Code(value: .payloadTooLarge)
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

    public static func == (lhs: GatewayError, rhs: GatewayError) -> Bool { lhs.code == rhs.code }

    public var description: String { "GatewayError.\(code): \(reason)" }
}
