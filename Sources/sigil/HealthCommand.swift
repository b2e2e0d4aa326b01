import ArgumentParser
import Foundation
import GatewayHTTP
import Primitives
import SigilConfiguration

/// `sigil health`: asks a running gateway's approval port for `GET /healthz` and exits 0 when it
/// answers `200 {"status":"ok",…}`, else 1 with a one-line reason on stderr. The container's
/// `HEALTHCHECK` runs it (Docker reads exit 0 as healthy, 1 as unhealthy), so the image needs no
/// curl. Sends no token and nothing else secret.
struct HealthCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "health",
        abstract: "Check that a running gateway is alive (GET /healthz on the approval port); exit 0 if healthy.",
        discussion: """
            Default: the approval port and scheme `sigil serve` would use with this environment \
            (SIGIL_UI_PORT, SIGIL_TLS_CERT, SIGIL_HOST when it is one specific address, and the file \
            SIGIL_CONFIG names; docs/configuration.md), \
            else http://127.0.0.1:\(HealthCommand.defaultUIPort)/healthz. With --tls (or an https URL) the certificate is \
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

    @Option(
        help: "Host of the approval port when --url is not given (default: as `sigil serve` binds, else 127.0.0.1).")
    var host: String?

    @Option(
        help:
            "Approval port when --url is not given (default: as `sigil serve` resolves it, else \(Self.defaultUIPort))."
    )
    var port: Int?

    @Flag(
        help:
            "Use https (for a gateway started with --tls-cert/--tls-key; default: on when the environment sets a certificate)."
    )
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
        if let port, !(1...65535).contains(port) { throw ValidationError("--port must be 1...65535") }
        if cacert != nil && insecureLoopback {
            throw ValidationError("--cacert and --insecure-loopback exclude each other")
        }
    }

    /// What the check reaches when the command line does not say: the port and scheme of the
    /// gateway this environment configures (a container's HEALTHCHECK runs with the same
    /// SIGIL_* variables as its `sigil serve`).
    struct Target: Equatable {
        var port: Int
        var tls: Bool
        /// The address serve binds, when it is one specific address (not loopback's default, not a
        /// wildcard, which is reached through 127.0.0.1).
        var host: String?
    }

    /// `sigil serve`'s default approval port: the `ui-port` default of the option table (written only
    /// there).
    static let defaultUIPort: Int = {
        if case .integer(let port)? = ServeConfiguration.option("ui-port")?.defaultValue { return port }
        return 0  // not reached: the table gives ui-port an integer default (OptionDocumentationTests)
    }()

    /// The serve configuration from the environment and its config file, as `sigil serve` resolves
    /// it with no flags; `nil` (defaults apply) when that configuration is invalid, since the probe
    /// then reports the server unreachable anyway.
    static func servedTarget(environment: [String: String]) -> Target? {
        let nothing = Dictionary(
            uniqueKeysWithValues: ServeConfiguration.resolver.options.map { ($0.name, ConfigurationValue?.none) })
        guard let resolved = try? ServeConfiguration.resolver.resolve(commandLine: nothing, environment: environment)
        else { return nil }
        let settings = ServeSettings(resolved)
        let specific = settings.host.flatMap { ["0.0.0.0", "::", "[::]"].contains($0) ? nil : $0 }
        return Target(port: settings.uiPort, tls: settings.tlsCertificate != nil, host: specific)
    }

    /// The URL probed (`--url` with `/healthz` added when it has no path, else built from the
    /// options and `served`), and whether TLS came from the environment only.
    func probeURL(served: Target?) -> (url: String, tlsFromEnvironment: Bool) {
        if let url {
            let afterScheme = url.components(separatedBy: "://").dropFirst().joined(separator: "://")
            return (afterScheme.contains("/") ? url : url + "/healthz", false)
        }
        let chosenHost = host ?? served?.host ?? "127.0.0.1"
        let name = chosenHost.contains(":") && !chosenHost.hasPrefix("[") ? "[\(chosenHost)]" : chosenHost
        // Port 0 in the configuration means "any free port": nothing to probe but the default.
        let chosenPort = port ?? served.map(\.port).flatMap { $0 == 0 ? nil : $0 } ?? Self.defaultUIPort
        let fromEnvironment = !tls && (served?.tls ?? false)
        return ("\(tls || fromEnvironment ? "https" : "http")://\(name):\(chosenPort)/healthz", fromEnvironment)
    }

    func run() throws {
        let (probeURL, tlsFromEnvironment) = probeURL(
            served: Self.servedTarget(environment: ProcessInfo.processInfo.environment))
        do {
            var probe = try HTTPProbe(url: probeURL)
            probe.timeout = .milliseconds(Int((timeout * 1000).rounded()))
            probe.caFile = cacert
            // TLS known only from the environment (a container's certificate names its public host,
            // not 127.0.0.1): verify nothing, and only for a loopback peer; the probe carries no
            // secret (docs/observability.md). An explicit --cacert still verifies.
            probe.insecureLoopback = insecureLoopback || (tlsFromEnvironment && cacert == nil)
            let response = try probe.get()
            guard response.status == 200 else { Self.fail("unhealthy: \(probeURL) answered \(response.status)") }
            let body = try? JSONValue.parse(response.body)
            guard let body, body["status"]?.stringValue == "ok" else {
                Self.fail("unhealthy: \(probeURL) did not answer {\"status\":\"ok\"}")
            }
            let version = body["version"]?.stringValue ?? "?"
            // Whole seconds: the digits before any fraction (no floating point needed).
            let uptime =
                body["uptimeSeconds"]?.numberValue.map { String($0.text.prefix { $0 != "." && $0 != "e" }) } ?? "?"
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
