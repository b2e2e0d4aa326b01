import Foundation
import GatewayHTTP

/// The checks every request passes before routing (docs/reference/http-server.md §6 item 7), as pure functions
/// over the request so they are tested without sockets.
package enum SecurityGates {
    /// `Host` allow-list against DNS rebinding: a loopback name (or a configured extra name) with
    /// exactly the port the request arrived on, or the authority of a declared public URL
    /// (`--public-url`: how browsers reach the gateway through a remapped port, a proxy or a name;
    /// its port, explicit or its scheme's default, need not be the local one). Absent or malformed
    /// `Host` fails. A `Host` without a port means `defaultPort`: 80 for http, 443 for https (RFC
    /// 9110 §4.2.1, §4.2.2) — against a public URL, that URL's scheme's default.
    /// For an absolute-form request-target the target's authority is used and `Host` ignored (RFC
    /// 9112 §3.2.2). Ports are decimal digits without sign or leading zero (`SiteOrigin.port`).
    package static func hostAllowed(
        _ request: HTTPRequest, extra: Set<String>, defaultPort: Int = 80, publicURLs: [SiteOrigin] = []
    ) -> Bool {
        guard let (name, port) = hostAuthority(request) else { return false }
        if (port ?? defaultPort) == request.localPort,
            ["127.0.0.1", "localhost", "[::1]"].contains(name) || extra.contains(name)
        {
            return true
        }
        return publicURLs.contains { url in
            let schemeDefault = url.scheme == "https" ? 443 : 80
            return url.host == name && (port ?? schemeDefault) == (url.port ?? schemeDefault)
        }
    }

    /// The lower-cased name and optional port of the request's one `Host` (or absolute-form target
    /// authority); `nil` when absent, duplicated or malformed.
    static func hostAuthority(_ request: HTTPRequest) -> (name: String, port: Int?)? {
        let values = request.headers.values("Host")
        guard values.count == 1 else { return nil }
        let host: String
        if let authority = absoluteFormAuthority(request.target) {
            host = authority
        } else {
            guard let value = values.first?.lowercased() else { return nil }
            host = value
        }
        guard !host.isEmpty else { return nil }
        var name = Substring(host)
        var port: Int?
        if host.hasPrefix("[") {
            guard let close = host.firstIndex(of: "]"), SiteOrigin.isIPv6Literal(host[...close]) else { return nil }
            name = host[...close]
            let rest = host[host.index(after: close)...]
            if !rest.isEmpty {
                guard rest.hasPrefix(":") else { return nil }
                port = SiteOrigin.port(rest.dropFirst())
                guard port != nil else { return nil }
            }
        } else if let colon = host.lastIndex(of: ":") {
            name = host[..<colon]
            port = SiteOrigin.port(host[host.index(after: colon)...])
            guard port != nil else { return nil }
        }
        return (String(name), port)
    }

    /// The answer to a request `hostAllowed` refused: 403, plain text naming the option that would
    /// admit this address (`option`: `public-url` on the dapp port, `public-ui-url` on the approval
    /// port). Of what the client sent it repeats only the `Host` value, escaped (printable ASCII
    /// letters, digits and `.-:[]_` kept, every other byte as `\xNN`, at most 255 bytes).
    package static func hostRefusal(_ request: HTTPRequest, option: String, tls: Bool = false) -> HTTPResponse {
        let values = request.headers.values("Host")
        var lines: [String] = []
        if values.count == 1, let value = values.first {
            let shown = escapedHost(value)
            lines.append("Sigil refused this request: it does not answer to the Host \"\(shown)\".")
            lines.append(
                "Only loopback names on the port the request arrived on, names given with --allowed-host, "
                    + "and the addresses declared with --\(option) are accepted (a defence against DNS rebinding).")
            let scheme = tls ? "https" : "http"
            let example = SiteOrigin("\(scheme)://\(value)") != nil ? "\(scheme)://\(shown)" : "\(scheme)://HOST:PORT"
            lines.append(
                "If browsers reach Sigil at this address (a published or remapped container port, a reverse proxy, "
                    + "a DNS name), start it with --\(option) \(example) "
                    + "(environment SIGIL_\(option.uppercased().replacingOccurrences(of: "-", with: "_")), "
                    + "config file key \(option)); docs/deployment.md.")
        } else {
            lines.append("Sigil refused this request: it needs exactly one Host header.")
        }
        var response = HTTPResponse.text(lines.joined(separator: "\n") + "\n", status: .forbidden)
        response.headers.set("Content-Type", "text/plain; charset=utf-8")
        response.headers.set("X-Content-Type-Options", "nosniff")
        response.headers.set("Cache-Control", "no-store")
        return response
    }

    /// A `Host` value made safe to repeat: see `hostRefusal`.
    package static func escapedHost(_ value: String) -> String {
        var out = ""
        for byte in value.utf8.prefix(255) {
            let keep =
                (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                || ".-:[]_".utf8.contains(byte)
            if keep {
                out.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                let hex = String(byte, radix: 16)
                out += "\\x" + (hex.count == 1 ? "0" + hex : hex)
            }
        }
        return out
    }

    /// The lower-cased authority of an absolute-form target (`http://host:port/path`), `nil` for
    /// other forms; an authority with userinfo is returned as-is so that the allow-list refuses it.
    static func absoluteFormAuthority(_ target: String) -> String? {
        // The usual origin-form target ("/v1/request") is not lower-cased and searched per request.
        guard let first = target.utf8.first, first != UInt8(ascii: "/") else { return nil }
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
    package static func isJSON(_ request: HTTPRequest) -> Bool {
        guard let value = request.headers["Content-Type"] else { return false }
        let media = value.split(separator: ";").first.map { $0.trimmingCharacters(in: " \t") } ?? ""
        return media.lowercased() == "application/json"
    }

    /// The browser `Origin` of a request, when it is a well-formed http(s) origin.
    package static func siteOrigin(_ request: HTTPRequest) -> SiteOrigin? {
        let values = request.headers.values("Origin")
        guard values.count == 1, let value = values.first else { return nil }
        return SiteOrigin(value)
    }

    /// The bearer token of an `Authorization: Bearer …` header.
    package static func bearerToken(_ request: HTTPRequest) -> String? {
        guard let value = request.headers["Authorization"] else { return nil }
        let parts = value.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else { return nil }
        let token = parts[1].trimmingCharacters(in: " \t")
        return token.isEmpty ? nil : token
    }

    /// Compares secrets in time independent of where they differ (length is not secret).
    package static func constantTimeEqual(_ a: String, _ b: String) -> Bool {
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
