/// A complete request as a handler sees it: head, decoded body, and where it came from.
///
/// Everything here except `remoteAddress` and `localPort` is untrusted input from the peer, already
/// checked by `HTTPRequestParser` against RFC 9112 framing rules and `HTTPLimits`. Header values are
/// decoded as UTF-8 with invalid sequences replaced, so a handler comparing them sees exactly what it
/// would show.
package struct HTTPRequest: Sendable {
    /// The method token.
    package var method: HTTPMethod
    /// The request-target exactly as received (origin-form `/path?query`, `*`, or absolute-form).
    package var target: String
    /// The path part of the target, still percent-encoded (`/` for `*` and authority-less forms).
    package var path: String
    /// The query part of the target without the `?`, or `nil` when there is none.
    package var query: String?
    /// HTTP/1.0 or HTTP/1.1.
    package var version: HTTPVersion
    /// The header fields, in order.
    package var headers: HTTPHeaders
    /// The body, with chunked transfer coding already removed; at most `HTTPLimits.maxBodyBytes`.
    package var body: [UInt8]
    /// Path parameters captured by the router (`/requests/:id` → `["id": "…"]`), percent-decoded.
    package var pathParameters: [String: String] = [:]
    /// The peer's address (from `accept`, trusted).
    package var remoteAddress: SocketAddress?
    /// The local port the request arrived on (the listening port; trusted).
    package var localPort: Int = 0
    /// A per-server sequence number for log correlation (not secret, not unique across servers).
    package var id: UInt64 = 0

    /// Creates a request; used by the parser and by tests that call handlers without sockets.
    package init(
        method: HTTPMethod, target: String, version: HTTPVersion = .http11,
        headers: HTTPHeaders = [:], body: [UInt8] = []
    ) {
        self.method = method
        self.target = target
        self.version = version
        self.headers = headers
        self.body = body
        let (path, query) = HTTPRequest.split(target: target)
        self.path = path
        self.query = query
    }

    /// The value of query parameter `name` (first occurrence), `+` and percent-escapes decoded.
    /// Returns `nil` when absent or when its escapes are not valid UTF-8.
    package func queryParameter(_ name: String) -> String? {
        guard let query else { return nil }
        for pair in query.split(separator: "&", omittingEmptySubsequences: true) {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard let rawKey = parts.first, PercentDecoding.decode(rawKey, plusIsSpace: true) == name else {
                continue
            }
            return parts.count > 1 ? PercentDecoding.decode(parts[1], plusIsSpace: true) : ""
        }
        return nil
    }

    static func split(target: String) -> (path: String, query: String?) {
        var rest = Substring(target)
        // Absolute-form (RFC 9112 §3.2.2): keep only path and query. The scheme is case-insensitive
        // (RFC 3986 §3.1), as the parser's target-form check is.
        let scheme = rest.prefix(8).lowercased()
        if scheme.hasPrefix("http://") || scheme.hasPrefix("https://") {
            let afterScheme = rest[rest.index(after: rest.firstIndex(of: ":") ?? rest.startIndex)...].dropFirst(2)
            if let slash = afterScheme.firstIndex(where: { $0 == "/" || $0 == "?" }) {
                rest = afterScheme[slash...]
            } else {
                rest = "/"
            }
        } else if rest == "*" {
            return ("*", nil)
        }
        if let q = rest.firstIndex(of: "?") {
            let path = rest[..<q]
            return (path.isEmpty ? "/" : String(path), String(rest[rest.index(after: q)...]))
        }
        return (rest.isEmpty ? "/" : String(rest), nil)
    }
}
