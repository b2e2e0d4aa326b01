/// A request method token (RFC 9110 §9). Case-sensitive: `get` is not `GET`.
public struct HTTPMethod: Hashable, Sendable, CustomStringConvertible {
    /// The method token as it appeared on the request line.
    public let rawValue: String

    /// Creates a method from its token. The parser only produces valid tokens.
    public init(_ rawValue: String) { self.rawValue = rawValue }

    public var description: String { rawValue }

    public static let get = HTTPMethod("GET")
    public static let head = HTTPMethod("HEAD")
    public static let post = HTTPMethod("POST")
    public static let put = HTTPMethod("PUT")
    public static let delete = HTTPMethod("DELETE")
    public static let patch = HTTPMethod("PATCH")
    public static let options = HTTPMethod("OPTIONS")
    public static let connect = HTTPMethod("CONNECT")
    public static let trace = HTTPMethod("TRACE")
}
