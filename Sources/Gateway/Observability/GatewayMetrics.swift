import GatewayHTTP
import Synchronization

/// The gateway's counters, gauges and histograms, rendered by `/metrics` (docs/observability.md
/// lists every family). Thread-safe: one `Mutex` (Swift `Synchronization`) around small
/// dictionaries; recording is a hash lookup and an add, called on the HTTP event loops' queues and
/// from the service actor. Open connections and streams are read from the tracked servers at scrape time.
///
/// Cardinality is bounded by construction: `route` is a router pattern or `unmatched`, `method`
/// one of the RFC 9110 methods or `other`, `status` a 3-digit code, `scheme` one of five names or
/// `other`. No label holds a path, query, origin, account or token.
package final class GatewayMetrics: Sendable {
    /// The signature schemes always exported (0 until used), as `SignerAccount.type` names them.
    package static let schemes = ["sr25519", "ed25519", "ecdsa", "ethereum", "icon", "icp"]
    static let methods: Set<String> = ["GET", "HEAD", "POST", "PUT", "DELETE", "PATCH", "OPTIONS", "CONNECT", "TRACE"]

    struct RequestKey: Hashable {
        let server: String
        let route: String
        let method: String
        let status: Int
    }

    struct RouteKey: Hashable {
        let server: String
        let route: String
    }

    struct ApprovalKey: Hashable {
        let kind: String
        let decision: String
    }

    struct State {
        var requests: [RequestKey: UInt64] = [:]
        var latency: [RouteKey: Histogram] = [:]
        var signatures: [String: UInt64] = Dictionary(uniqueKeysWithValues: GatewayMetrics.schemes.map { ($0, 0) })
        var approvals: [ApprovalKey: UInt64] = [:]
        var servers: [HTTPServer] = []
    }

    private let state = Mutex(State())
    private let bounds: [Double]

    /// - Parameter latencyBounds: the request-latency histogram's bucket bounds, in seconds.
    package init(latencyBounds: [Double] = Histogram.latencyBounds) {
        bounds = latencyBounds
    }

    /// Reports `server`'s open connections and event streams (per name and port) at each scrape.
    package func track(_ server: HTTPServer) {
        state.withLock { $0.servers.append(server) }
    }

    /// Counts one answered request and its latency (`HTTPServerConfiguration.observer`).
    package func record(_ observation: HTTPRequestObservation) {
        let route = observation.route ?? "unmatched"
        let method = observation.method.map { Self.methods.contains($0.rawValue) ? $0.rawValue : "other" } ?? "none"
        let key = RequestKey(server: observation.server, route: route, method: method, status: observation.status)
        let (seconds, attoseconds) = observation.duration.components
        let elapsed = Double(seconds) + Double(attoseconds) / 1e18
        let routeKey = RouteKey(server: observation.server, route: route)
        state.withLock { s in
            s.requests[key, default: 0] &+= 1
            s.latency[routeKey, default: Histogram(bounds: bounds)].observe(elapsed)
        }
    }

    /// Counts one signature made with an account of `scheme` (`SignerAccount.type`).
    package func recordSignature(scheme: String) {
        let name = Self.schemes.contains(scheme) ? scheme : "other"
        state.withLock { $0.signatures[name, default: 0] &+= 1 }
    }

    /// Counts one decision: `kind` authorize/extrinsic/bytes/metadata/icon/icon-hash, `approved` or rejected.
    package func recordDecision(kind: String, approved: Bool) {
        let key = ApprovalKey(kind: kind, decision: approved ? "approved" : "rejected")
        state.withLock { $0.approvals[key, default: 0] &+= 1 }
    }

    /// Signatures made so far with `scheme`.
    package func signatures(scheme: String) -> UInt64 { state.withLock { $0.signatures[scheme] ?? 0 } }

    /// Appends every family held here to `out`, in a stable order (sorted labels).
    package func render(into out: inout PrometheusText) {
        let s = state.withLock { $0 }
        out.family(
            "sigil_http_requests_total", .counter,
            help: "HTTP requests answered, by server, route pattern, method and status.")
        for (key, value) in s.requests.sorted(by: { Self.order($0.key, $1.key) }) {
            out.sample(
                "sigil_http_requests_total",
                [("server", key.server), ("route", key.route), ("method", key.method), ("status", String(key.status))],
                value)
        }
        out.family(
            "sigil_http_request_duration_seconds", .histogram,
            help: "Time from a complete request to its response head, by server and route pattern.")
        for (key, histogram) in s.latency.sorted(by: { ($0.key.server, $0.key.route) < ($1.key.server, $1.key.route) })
        {
            out.histogram(
                "sigil_http_request_duration_seconds", [("server", key.server), ("route", key.route)], histogram)
        }
        let servers = s.servers.map { ($0.configuration.name, $0.port, $0.connectionCount, $0.eventStreamCount) }
        out.family("sigil_http_open_connections", .gauge, help: "Connections open now, by server and port.")
        for (name, port, connections, _) in servers {
            out.sample("sigil_http_open_connections", [("server", name), ("port", String(port))], Double(connections))
        }
        out.family(
            "sigil_http_open_event_streams", .gauge, help: "Server-Sent Events streams open now, by server and port.")
        for (name, port, _, streams) in servers {
            out.sample("sigil_http_open_event_streams", [("server", name), ("port", String(port))], Double(streams))
        }
        out.family("sigil_signatures_total", .counter, help: "Signatures made (approved and signed), by key scheme.")
        for (scheme, value) in s.signatures.sorted(by: { $0.key < $1.key }) {
            out.sample("sigil_signatures_total", [("scheme", scheme)], value)
        }
        out.family("sigil_approvals_total", .counter, help: "Approval decisions, by request kind and decision.")
        for (key, value) in s.approvals.sorted(by: { ($0.key.kind, $0.key.decision) < ($1.key.kind, $1.key.decision) })
        {
            out.sample("sigil_approvals_total", [("kind", key.kind), ("decision", key.decision)], value)
        }
    }

    private static func order(_ a: RequestKey, _ b: RequestKey) -> Bool {
        (a.server, a.route, a.method, a.status) < (b.server, b.route, b.method, b.status)
    }
}
