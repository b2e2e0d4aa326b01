import Glibc

/// The gateway's operational face on the approval port: `GET /healthz` (liveness) and
/// `GET /metrics` (Prometheus), plus the process facts both report (version, start time).
///
/// Security: `metricsToken` is a secret (never logged or described). Health reveals only
/// `status`, `version` and uptime; metrics reveal counts, never origins, accounts or tokens.
public final class GatewayTelemetry: Sendable {
    /// The running program's version (`sigil --version`).
    public let version: String
    /// The token a scraper sends (`Authorization: Bearer …`) instead of the approval token, when an
    /// operator configured one (`--metrics-token-file`); `nil`: only the approval token.
    let metricsToken: String?
    /// Monotonic start, for the uptime.
    private let started: ContinuousClock.Instant
    /// Wall-clock start, seconds since 1970 (`process_start_time_seconds`).
    public let startTimeSeconds: Double

    /// - Parameters:
    ///   - version: reported by `/healthz` and `sigil_build_info`.
    ///   - metricsToken: an extra secret accepted for `/metrics` only (see `metricsToken`).
    public init(version: String = "unknown", metricsToken: String? = nil) {
        self.version = version
        self.metricsToken = metricsToken
        started = .now
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        startTimeSeconds = Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }

    /// Seconds since this telemetry was created (process start for `sigil serve`), monotonic.
    public var uptimeSeconds: Double {
        let (seconds, attoseconds) = started.duration(to: .now).components
        return Double(seconds) + Double(attoseconds) / 1e18
    }

    /// The `/healthz` body: `{"status":"ok","version":"…","uptimeSeconds":N}`.
    public func healthJSON() -> JSONValue {
        [
            "status": "ok", "version": .string(version),
            "uptimeSeconds": .number((uptimeSeconds * 1000).rounded() / 1000),
        ]
    }
}
