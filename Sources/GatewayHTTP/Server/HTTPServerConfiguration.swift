import Primitives
/// Everything a server needs to know, with safe defaults (docs/reference/http-server.md §6 items 1, 4, 5, 6).
/// Durations are monotonic-clock intervals.
package struct HTTPServerConfiguration: Sendable {
    /// Addresses to listen on. Default: 127.0.0.1 and ::1. Anything else logs a warning at start.
    package var bindAddress: BindAddress = .loopback
    /// The port; 0 picks a free one (read it back from `HTTPServer.port`).
    package var port: Int = 0
    /// Parser limits (request line, header section, body).
    package var limits = HTTPLimits()
    /// Connections open at once; one more is answered 503 and closed.
    package var maxConnections = 1024
    /// The `listen` backlog.
    package var backlog: Int32 = 511
    /// From a request's first byte (or from accept) until its head is complete; then 408 and close.
    package var headerTimeout: Duration = .seconds(10)
    /// From the end of the head until the body is complete; then 408 and close.
    package var bodyTimeout: Duration = .seconds(10)
    /// Keep-alive: how long a connection may sit idle between requests before it is closed.
    package var idleTimeout: Duration = .seconds(15)
    /// How long pending output may make no progress (peer not reading) before the connection is dropped.
    package var writeStallTimeout: Duration = .seconds(10)
    /// An event stream with nothing sent for this long gets a `:` comment (keeps proxies and the
    /// client's dead-peer detection happy; WHATWG recommends about 15 s).
    package var eventStreamHeartbeat: Duration = .seconds(15)
    /// Event streams are closed after this age so the client reconnects (and resumes with Last-Event-ID).
    package var eventStreamMaxAge: Duration = .seconds(600)
    /// Pending output above which the server stops reading from that connection (back-pressure).
    package var maxPendingOutputBytes = 1 << 20
    /// Pending output above which an event stream's consumer is considered too slow and dropped.
    package var eventStreamMaxPendingBytes = 256 * 1024
    /// How long `shutdown` lets in-flight responses finish before closing every connection.
    package var shutdownGracePeriod: Duration = .seconds(5)
    /// A short name for log lines ("dapp", "ui").
    package var name = "http"
    /// Serve HTTPS with this certificate and key (nil: plain HTTP). The header deadline also bounds
    /// the TLS handshake.
    package var tls: TLSContext?
    /// Called once per answered request (see `HTTPRequestObservation`) on the connection's event-loop
    /// queue (the loop's serial queue, shared by every connection of that loop): must be quick and
    /// must not block (count, log a line). `nil`: nothing observed.
    package var observer: (@Sendable (HTTPRequestObservation) -> Void)?

    package init() {}

    /// Throws `invalidConfiguration` naming the first field that cannot work.
    package func validate() throws(HTTPError) {
        try limits.validate()
        if !(0...65535).contains(port) { throw HTTPError(.invalidConfiguration, "port \(port) out of range") }
        if maxConnections <= 0 { throw HTTPError(.invalidConfiguration, "maxConnections must be positive") }
        if bindAddress.hosts.isEmpty { throw HTTPError(.invalidConfiguration, "bindAddress has no host") }
        let durations = [
            headerTimeout, bodyTimeout, idleTimeout, writeStallTimeout, eventStreamHeartbeat, eventStreamMaxAge,
        ]
        if durations.contains(where: { $0 <= .zero }) {
            throw HTTPError(.invalidConfiguration, "timeouts must be positive")
        }
    }

    /// The period of the deadline sweep: a quarter of the shortest deadline, within 10 ms ... 500 ms.
    var sweepInterval: Duration {
        let shortest =
            [headerTimeout, bodyTimeout, idleTimeout, writeStallTimeout, eventStreamHeartbeat].min()
            ?? .seconds(1)
        return min(max(shortest / 4, .milliseconds(10)), .milliseconds(500))
    }
}

extension Duration {
    /// Whole nanoseconds, saturating.
    var nanoseconds: UInt64 {
        let (seconds, attoseconds) = components
        if seconds < 0 { return 0 }
        let (s, overflow) = UInt64(seconds).multipliedReportingOverflow(by: 1_000_000_000)
        if overflow { return UInt64.max }
        return s &+ UInt64(attoseconds / 1_000_000_000)
    }
}
