/// The protocol version of a request. Only HTTP/1.0 and HTTP/1.1 are accepted by the parser.
package struct HTTPVersion: Hashable, Sendable, CustomStringConvertible {
    package let major: Int
    package let minor: Int

    package init(major: Int, minor: Int) {
        self.major = major
        self.minor = minor
    }

    package static let http10 = HTTPVersion(major: 1, minor: 0)
    package static let http11 = HTTPVersion(major: 1, minor: 1)

    package var description: String { "HTTP/\(major).\(minor)" }
}
