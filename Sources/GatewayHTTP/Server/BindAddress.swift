/// Where a server listens. The default is loopback only (127.0.0.1 and ::1); anything else must be
/// asked for explicitly and makes the server log a warning at start (DESIGN.md "Security model").
package struct BindAddress: Sendable, Hashable, CustomStringConvertible {
    /// Numeric hosts to bind, each with the same port.
    package let hosts: [String]
    /// Whether a host may be skipped when the machine lacks its address family (e.g. no IPv6 `::1`).
    let optionalHosts: Set<String>

    /// 127.0.0.1 and ::1 (the latter skipped when the machine has no IPv6 loopback).
    package static let loopback = BindAddress(hosts: ["127.0.0.1", "::1"], optionalHosts: ["::1"])

    /// One numeric IPv4 or IPv6 address, e.g. `0.0.0.0` in a container. Not validated until bind,
    /// which fails hard on an address that does not parse (never a silent fallback to any-address).
    package static func host(_ host: String) -> BindAddress {
        BindAddress(hosts: [host], optionalHosts: [])
    }

    init(hosts: [String], optionalHosts: Set<String>) {
        self.hosts = hosts
        self.optionalHosts = optionalHosts
    }

    /// Whether every host is a loopback address (127.0.0.0/8 or ::1).
    package var isLoopbackOnly: Bool {
        hosts.allSatisfy { $0.hasPrefix("127.") || $0 == "::1" || $0.lowercased() == "localhost" }
    }

    package var description: String { hosts.joined(separator: ", ") }
}
