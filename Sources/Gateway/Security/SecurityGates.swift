import Foundation
import GatewayHTTP

/// The checks every request passes before routing (docs/reference/http-server.md §6 item 7), as pure functions
/// over the request so they are tested without sockets.
public enum SecurityGates {
    /// `Host` allow-list against DNS rebinding: a loopback name (or a configured extra name) with
    /// exactly the port the request arrived on. Absent or malformed `Host` fails. A `Host` without a
    /// port means `defaultPort`: 80 for http, 443 for https (RFC 9110 §4.2.1, §4.2.2).
    /// For an absolute-form request-target the target's authority is used and `Host` ignored (RFC
    /// 9112 §3.2.2). Ports are decimal digits without sign or leading zero (`SiteOrigin.port`).
    public static func hostAllowed(_ request: HTTPRequest, extra: Set<String>, defaultPort: Int = 80) -> Bool {
        let values = request.headers.values("Host")
        guard values.count == 1 else { return false }
        let host: String
        if let authority = absoluteFormAuthority(request.target) {
            host = authority
        } else {
            guard let value = values.first?.lowercased() else { return false }
            host = value
        }
        guard !host.isEmpty else { return false }
        var name = Substring(host)
        var port: Int?
        if host.hasPrefix("[") {
            guard let close = host.firstIndex(of: "]"), SiteOrigin.isIPv6Literal(host[...close]) else { return false }
            name = host[...close]
            let rest = host[host.index(after: close)...]
            if !rest.isEmpty {
                guard rest.hasPrefix(":") else { return false }
                port = SiteOrigin.port(rest.dropFirst())
                guard port != nil else { return false }
            }
        } else if let colon = host.lastIndex(of: ":") {
            name = host[..<colon]
            port = SiteOrigin.port(host[host.index(after: colon)...])
            guard port != nil else { return false }
        }
        let effectivePort = port ?? defaultPort
        guard effectivePort == request.localPort else { return false }
        return ["127.0.0.1", "localhost", "[::1]"].contains(String(name)) || extra.contains(String(name))
    }

    /// The lower-cased authority of an absolute-form target (`http://host:port/path`), `nil` for
    /// other forms; an authority with userinfo is returned as-is so that the allow-list refuses it.
    static func absoluteFormAuthority(_ target: String) -> String? {
        let lower = target.lowercased()
        guard let schemeEnd = lower.range(of: "://"), lower.hasPrefix("http://") || lower.hasPrefix("https://") else {
            return nil
        }
        let rest = lower[schemeEnd.upperBound...]
        let end = rest.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? rest.endIndex
        return String(rest[..<end])
    }

    /// Whether a POST carries `Content-Type: application/json` (parameters allowed). Not a
    /// CORS-safelisted type, so a cross-site page cannot send it without a preflight we answer.
    public static func isJSON(_ request: HTTPRequest) -> Bool {
        guard let value = request.headers["Content-Type"] else { return false }
        let media = value.split(separator: ";").first.map { $0.trimmingCharacters(in: " \t") } ?? ""
        return media.lowercased() == "application/json"
    }

    /// The browser `Origin` of a request, when it is a well-formed http(s) origin.
    public static func siteOrigin(_ request: HTTPRequest) -> SiteOrigin? {
        let values = request.headers.values("Origin")
        guard values.count == 1, let value = values.first else { return nil }
        return SiteOrigin(value)
    }

    /// The bearer token of an `Authorization: Bearer …` header.
    public static func bearerToken(_ request: HTTPRequest) -> String? {
        guard let value = request.headers["Authorization"] else { return nil }
        let parts = value.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else { return nil }
        let token = parts[1].trimmingCharacters(in: " \t")
        return token.isEmpty ? nil : token
    }

    /// Compares secrets in time independent of where they differ (length is not secret).
    public static func constantTimeEqual(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8)
        let y = Array(b.utf8)
        guard x.count == y.count else { return false }
        var diff: UInt8 = 0
        for i in 0..<x.count { diff |= x[i] ^ y[i] }
        return diff == 0
    }
}

extension StringProtocol {
    func trimmingCharacters(in set: String) -> String {
        var s = Substring(self)
        while let f = s.first, set.contains(f) { s = s.dropFirst() }
        while let l = s.last, set.contains(l) { s = s.dropLast() }
        return String(s)
    }
}
