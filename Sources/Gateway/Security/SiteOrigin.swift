/// A browser origin (RFC 6454 §6.1 serialization: `scheme "://" host [ ":" port ]`) parsed from an
/// untrusted `Origin` header. Only `http` and `https` are sites; `null` and other schemes are not
/// (polkadot-js `State.ts` `stripUrl` accepts http/https/ipfs/ipns; pages reach us only over http(s)).
package struct SiteOrigin: Sendable, Equatable, Hashable, CustomStringConvertible {
    /// `http` or `https`.
    package let scheme: String
    /// Lower-case host name, IPv4 literal, or bracketed IPv6 literal.
    package let host: String
    /// The explicit port, or `nil` for the scheme's default.
    package let port: Int?

    /// Parses a serialized origin; `nil` when it is not exactly one (paths, userinfo, bad ports).
    package init?(_ text: String) {
        guard text.utf8.count <= 300, text.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else { return nil }
        let lower = text.lowercased()
        let scheme: String
        if lower.hasPrefix("https://") {
            scheme = "https"
        } else if lower.hasPrefix("http://") {
            scheme = "http"
        } else {
            return nil
        }
        let rest = lower.dropFirst(scheme.count + 3)
        guard !rest.isEmpty, !rest.contains("/"), !rest.contains("@"), !rest.contains("?"), !rest.contains("#") else {
            return nil
        }
        var host = Substring(rest)
        var port: Int?
        if rest.hasPrefix("[") {
            guard let close = rest.firstIndex(of: "]"), Self.isIPv6Literal(rest[...close]) else { return nil }
            host = rest[...close]
            let after = rest[rest.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":"), let p = Self.port(after.dropFirst()) else { return nil }
                port = p
            }
        } else if let colon = rest.lastIndex(of: ":") {
            host = rest[..<colon]
            guard let p = Self.port(rest[rest.index(after: colon)...]) else { return nil }
            port = p
        }
        // Only a bracketed IPv6 literal may contain ':' (RFC 3986 §3.2.2).
        if !host.hasPrefix("["), host.contains(":") { return nil }
        guard !host.isEmpty,
            host.utf8.allSatisfy({
                ($0 >= 0x61 && $0 <= 0x7A) || ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2D || $0 == 0x2E || $0 == 0x5B
                    || $0 == 0x5D || $0 == 0x3A
            })
        else { return nil }
        if (scheme == "http" && port == 80) || (scheme == "https" && port == 443) { port = nil }
        self.scheme = scheme
        self.host = String(host)
        self.port = port
    }

    /// A port as browsers serialize it: 1–5 decimal digits, no sign, no leading zero, 1…65535 (so
    /// `+18715` and `018715` are not 18715).
    package static func port(_ text: Substring) -> Int? {
        guard (1...5).contains(text.utf8.count), text.utf8.first != UInt8(ascii: "0"),
            text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), let value = Int(text), (1...65535).contains(value)
        else { return nil }
        return value
    }

    /// `[` IPv6 address `]`: hex digits, colons (at least two) and dots (an IPv4 tail) only.
    package static func isIPv6Literal(_ text: Substring) -> Bool {
        guard text.hasPrefix("["), text.hasSuffix("]"), text.count >= 4 else { return false }
        let inner = text.dropFirst().dropLast()
        guard inner.utf8.filter({ $0 == UInt8(ascii: ":") }).count >= 2 else { return false }
        return inner.utf8.allSatisfy {
            ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x61 && $0 <= 0x66) || $0 == UInt8(ascii: ":")
                || $0 == UInt8(ascii: ".")
        }
    }

    /// The serialization, the key authorizations are stored under.
    package var description: String { port.map { "\(scheme)://\(host):\($0)" } ?? "\(scheme)://\(host)" }
}
