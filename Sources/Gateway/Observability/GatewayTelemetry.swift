import GatewayHTTP
import Glibc
import Logging
import Primitives

/// The gateway's operational face: `GET /healthz` (liveness) and `GET /metrics` (Prometheus) on
/// the approval port, the per-request access-log line, and the process facts both report.
///
/// Security: `metricsToken` is a secret (never logged or described). Health reveals only
/// `status`, `version` and uptime; metrics reveal counts, never origins, accounts or tokens; the
/// access log names the route pattern, never the path or query string (a query may carry a token)
/// nor any header.
package final class GatewayTelemetry: Sendable {
    /// The running program's version (`sigil --version`).
    package let version: String
    /// The counters, gauges and histograms of `/metrics`.
    package let metrics: GatewayMetrics
    /// A token a scraper may send (`Authorization: Bearer …`) instead of the approval token, when an
    /// operator configured one (`--metrics-token-file`); `nil`: only the approval token.
    let metricsToken: String?
    /// The access log (`info`, one line per request).
    let logger: Logger
    /// Monotonic start, for the uptime.
    private let started: ContinuousClock.Instant
    /// Wall-clock start, seconds since 1970 (`process_start_time_seconds`).
    package let startTimeSeconds: Double

    /// - Parameters:
    ///   - version: reported by `/healthz` and `sigil_build_info`.
    ///   - metricsToken: an extra secret accepted for `/metrics` only (see `metricsToken`).
    ///   - metrics: the registry (share it with `GatewayService` so signatures are counted).
    ///   - logger: where the access log goes.
    package init(
        version: String = "unknown", metricsToken: String? = nil, metrics: GatewayMetrics = GatewayMetrics(),
        logger: Logger = Logger(label: "sigil.http", factory: { _ in SwiftLogNoOpLogHandler() })
    ) {
        self.version = version
        self.metricsToken = metricsToken
        self.metrics = metrics
        self.logger = logger
        started = .now
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        startTimeSeconds = Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }

    /// Seconds since this telemetry was created (process start for `sigil serve`), monotonic.
    package var uptimeSeconds: Double {
        let (seconds, attoseconds) = started.duration(to: .now).components
        return Double(seconds) + Double(attoseconds) / 1e18
    }

    /// The `/healthz` body: `{"status":"ok","version":"…","uptimeSeconds":N}`.
    package func healthJSON() -> JSONValue {
        [
            "status": "ok", "version": .string(version),
            "uptimeSeconds": .number(JSONNumber(String((uptimeSeconds * 1000).rounded() / 1000)) ?? 0),
        ]
    }

    /// The `HTTPServerConfiguration.observer` of both ports: counts the request and writes its
    /// access-log line (`request`: id, server, method, route, status, duration, bytes).
    package func observe(_ observation: HTTPRequestObservation) {
        metrics.record(observation)
        guard logger.logLevel <= .info else { return }
        let (seconds, attoseconds) = observation.duration.components
        let milliseconds = (Double(seconds) * 1000 + Double(attoseconds) / 1e15)
        // Values as .string where they are strings already (an interpolation would copy each
        // through DefaultStringInterpolation: this line is written for every request).
        logger.info(
            "request",
            metadata: [
                "request_id": .string(observation.server + "-" + String(observation.requestID)),
                "server": .string(observation.server), "port": .stringConvertible(observation.port),
                "method": .string(observation.method?.rawValue ?? "-"),
                "route": .string(observation.route ?? "unmatched"),
                "status": .stringConvertible(observation.status),
                "duration_ms": .stringConvertible((milliseconds * 1000).rounded() / 1000),
                "bytes": .stringConvertible(observation.bodyBytes),
                "stream": .stringConvertible(observation.isEventStream),
            ])
    }

    /// Whether `request` may read `/metrics`: `Authorization: Bearer <metrics token or approval
    /// token>` or `X-Sigil-Token: <approval token>`, compared in constant time. A token in the
    /// query string is not accepted here (scrapers send headers; URLs end up in logs).
    func mayReadMetrics(_ request: HTTPRequest, approvalToken: String) -> Bool {
        if let bearer = SecurityGates.bearerToken(request) {
            let metricsOK = metricsToken.map { SecurityGates.constantTimeEqual(bearer, $0) } ?? false
            let approvalOK = SecurityGates.constantTimeEqual(bearer, approvalToken)
            return metricsOK || approvalOK
        }
        if let given = request.headers["X-Sigil-Token"] {
            return SecurityGates.constantTimeEqual(given, approvalToken)
        }
        return false
    }

    /// The `/metrics` body (Prometheus text format 0.0.4).
    package func renderMetrics(pendingApprovals: Int) -> String {
        var out = PrometheusText()
        out.family("sigil_build_info", .gauge, help: "Always 1; the version is a label.")
        out.sample("sigil_build_info", [("version", version)], 1.0)
        out.family("process_start_time_seconds", .gauge, help: "Start time of the process since unix epoch in seconds.")
        out.sample("process_start_time_seconds", [], (startTimeSeconds * 1000).rounded() / 1000)
        out.family("sigil_pending_approvals", .gauge, help: "Requests waiting for a person's decision now.")
        out.sample("sigil_pending_approvals", [], Double(pendingApprovals))
        metrics.render(into: &out)
        return out.text
    }
}
