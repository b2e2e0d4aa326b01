/// The protocol version of a request. Only HTTP/1.0 and HTTP/1.1 are accepted by the parser.
public struct HTTPVersion: Hashable, Sendable, CustomStringConvertible {
    public let major: Int
    public let minor: Int

    public init(major: Int, minor: Int) {
        self.major = major
        self.minor = minor
    }

    public static let http10 = HTTPVersion(major: 1, minor: 0)
    public static let http11 = HTTPVersion(major: 1, minor: 1)

    public var description: String { "HTTP/\(major).\(minor)" }
}
