import ArgumentParser
import Foundation
import GatewayHTTP

/// `sigil health`: asks a running gateway's approval port for `GET /healthz` and exits 0 when it
/// answers `200 {"status":"ok",…}`, else 1 with a one-line reason on stderr. The container's
/// `HEALTHCHECK` runs it (Docker reads exit 0 as healthy, 1 as unhealthy), so the image needs no
/// curl. Sends no token and nothing else secret.
struct HealthCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "health",
        abstract: "Check that a running gateway is alive (GET /healthz on the approval port); exit 0 if healthy.",
        discussion: """
            Default: http://127.0.0.1:9716/healthz. With --tls (or an https URL) the certificate is \
            verified against --cacert (or the system trust store) and the URL's host. \
            --insecure-loopback skips that verification for a loopback peer only (a container's \
            HEALTHCHECK reaching 127.0.0.1, where the certificate names the public host); the probe \
            carries no secret, and any non-loopback peer is refused.

            Exit status: 0 healthy; 1 unhealthy or unreachable (one line on stderr says why).
            """)

    @Option(
        help: ArgumentHelp(
            "Base URL or full URL of the approval port (default: built from --host/--port/--tls).", valueName: "url"))
    var url: String?

    @Option(help: "Host of the approval port when --url is not given.")
    var host: String = "127.0.0.1"

    @Option(help: "Approval port when --url is not given.")
    var port: Int = 9716

    @Flag(help: "Use https (for a gateway started with --tls-cert/--tls-key).")
    var tls = false

    @Option(help: ArgumentHelp("PEM certificate(s) to trust for https (e.g. the self-signed one).", valueName: "pem"))
    var cacert: String?

    @Flag(
        name: .customLong("insecure-loopback"),
        help: "Skip certificate verification when the peer is a loopback address (refused otherwise).")
    var insecureLoopback = false

    @Option(help: "Seconds for the whole check (0.1...60).")
    var timeout: Double = 3

    func validate() throws {
        if !(0.1...60).contains(timeout) { throw ValidationError("--timeout must be 0.1...60 seconds") }
        if !(1...65535).contains(port) { throw ValidationError("--port must be 1...65535") }
        if cacert != nil && insecureLoopback {
            throw ValidationError("--cacert and --insecure-loopback exclude each other")
        }
    }

    /// The URL probed: `--url` (with `/healthz` added when it has no path), else from the options.
    var probeURL: String {
        if let url {
            let afterScheme = url.components(separatedBy: "://").dropFirst().joined(separator: "://")
            return afterScheme.contains("/") ? url : url + "/healthz"
        }
        let name = host.contains(":") ? "[\(host)]" : host
        return "\(tls ? "https" : "http")://\(name):\(port)/healthz"
    }

    func run() throws {
        do {
            var probe = try HTTPProbe(url: probeURL)
            probe.timeout = .milliseconds(Int((timeout * 1000).rounded()))
            probe.caFile = cacert
            probe.insecureLoopback = insecureLoopback
            let response = try probe.get()
            guard response.status == 200 else { Self.fail("unhealthy: \(probeURL) answered \(response.status)") }
            let body = try? JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any]
            guard let body, body["status"] as? String == "ok" else {
                Self.fail("unhealthy: \(probeURL) did not answer {\"status\":\"ok\"}")
            }
            let version = body["version"] as? String ?? "?"
            let uptime = (body["uptimeSeconds"] as? Double).map { String(Int($0.rounded(.down))) } ?? "?"
            print("healthy: sigil \(version), up \(uptime) s (\(probeURL))")
        } catch {
            Self.fail("unhealthy: \(error.reason)")
        }
    }

    private static func fail(_ line: String) -> Never {
        FileHandle.standardError.write(Data((line + "\n").utf8))
        Foundation.exit(1)
    }
}
