/// A request method token (RFC 9110 §9). Case-sensitive: `get` is not `GET`.
package struct HTTPMethod: Hashable, Sendable, CustomStringConvertible {
    /// The method token as it appeared on the request line.
    package let rawValue: String

    /// Creates a method from its token. The parser only produces valid tokens.
    package init(_ rawValue: String) { self.rawValue = rawValue }

    package var description: String { rawValue }

    package static let get = HTTPMethod("GET")
    package static let head = HTTPMethod("HEAD")
    package static let post = HTTPMethod("POST")
    package static let put = HTTPMethod("PUT")
    package static let delete = HTTPMethod("DELETE")
    package static let patch = HTTPMethod("PATCH")
    package static let options = HTTPMethod("OPTIONS")
    package static let connect = HTTPMethod("CONNECT")
    package static let trace = HTTPMethod("TRACE")
}
