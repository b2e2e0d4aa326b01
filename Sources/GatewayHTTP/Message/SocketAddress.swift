/// An IP address and port, as returned by `accept` or `getsockname`.
package struct SocketAddress: Hashable, Sendable, CustomStringConvertible {
    /// The address family.
    package enum Family: Sendable, Hashable {
        case ipv4
        case ipv6
    }

    package let family: Family
    /// The numeric host (`127.0.0.1`, `::1`).
    package let host: String
    package let port: Int

    package init(family: Family, host: String, port: Int) {
        self.family = family
        self.host = host
        self.port = port
    }

    /// Whether the host is a loopback address (127.0.0.0/8, ::1, or IPv4-mapped loopback).
    package var isLoopback: Bool {
        switch family {
        case .ipv4: return host.hasPrefix("127.")
        case .ipv6: return host == "::1" || host.hasPrefix("::ffff:127.")
        }
    }

    /// `127.0.0.1:9715` or `[::1]:9715`.
    package var description: String {
        family == .ipv6 ? "[\(host)]:\(port)" : "\(host):\(port)"
    }

    /// The origin-style authority used in URLs (`127.0.0.1:9715`, `[::1]:9715`).
    package var urlAuthority: String { description }
}
