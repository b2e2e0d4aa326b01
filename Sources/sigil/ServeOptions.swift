import ArgumentParser
import Logging

/// Options of `sigil serve`. Kept in one struct so later issues (`--dev`, tokens, …) add fields here
/// and `ServeCommand.makeServers` reads them.
struct ServeOptions: ParsableArguments {
    @Option(help: "Port for dapps (bridge script and API); 0 picks a free port.")
    var port: Int = 9715

    @Option(name: .customLong("ui-port"), help: "Port for the approval page; 0 picks a free port.")
    var uiPort: Int = 9716

    @OptionGroup var tls: TLSOptions

    @Option(
        help: ArgumentHelp(
            "Numeric address to listen on instead of 127.0.0.1 and ::1 (e.g. 0.0.0.0 in a container).",
            discussion: "Anything but loopback lets other machines reach the gateway; a warning is logged."))
    var host: String?

    @Option(
        name: .customLong("public-dir"),
        help: ArgumentHelp(
            "Directory of files served to dapps (default: $SIGIL_PUBLIC_DIR, <exe>/../share/sigil/public, or the project's public/).",
            valueName: "path"))
    var publicDir: String?

    @Option(name: .customLong("log-level"), help: "trace, debug, info, notice, warning, error or critical.")
    var logLevel: String = "info"

    @Option(
        name: .customLong("log-format"),
        help: "Log lines on stderr: 'text' (for people) or 'json' (one object per line, for collectors).")
    var logFormat: LogFormat = .text

    @Option(
        name: .customLong("metrics-token-file"),
        help: ArgumentHelp(
            "File holding a token a Prometheus scraper may send (Authorization: Bearer) for GET /metrics, besides the approval token.",
            valueName: "path"))
    var metricsTokenFile: String?

    // MARK: Gateway (issue 5)

    @Flag(help: "Use the well-known development accounts (//Alice … //Ferdie) in a throw-away state; for testing only.")
    var dev = false

    @Option(
        name: .customLong("data-dir"),
        help: ArgumentHelp(
            "Data directory (connected sites, metadata). Default: $SIGIL_HOME or ~/.local/share/sigil; with --dev, a throw-away in-memory state unless given.",
            valueName: "path"))
    var dataDir: String?

    @OptionGroup var password: PasswordOption

    @Flag(
        name: .customLong("auto-approve"),
        help: "Approve every request at once, granting every account (automated tests). Needs --dev.")
    var autoApprove = false

    @Option(help: "Where a person approves: 'page' (the approval page) or 'terminal' (y/n questions here).")
    var approve: ApprovalFrontEnd = .page

    @Option(
        name: .customLong("client"),
        help: ArgumentHelp(
            "Create a bearer token for a non-browser client named NAME (repeatable); printed at start.",
            valueName: "name"))
    var clients: [String] = []

    @Option(
        name: .customLong("allowed-host"),
        help: ArgumentHelp(
            "Extra Host header name to accept besides 127.0.0.1/localhost/[::1] (repeatable).", valueName: "name"))
    var allowedHosts: [String] = []

    @Option(name: .customLong("approval-timeout"), help: "Seconds a request may wait for a decision.")
    var approvalTimeout: Int = 600

    @Option(
        name: .customLong("deny-host"),
        help: ArgumentHelp("Phishing deny list entry (host and its subdomains; repeatable).", valueName: "host"))
    var deniedHosts: [String] = []

    func validate() throws {
        if autoApprove && !dev {
            throw ValidationError("--auto-approve approves every request without asking; it is refused without --dev")
        }
        if autoApprove && approve == .terminal {
            throw ValidationError("--auto-approve and --approve terminal exclude each other")
        }
        if !(1...86_400).contains(approvalTimeout) {
            throw ValidationError("--approval-timeout must be 1…86400 seconds")
        }
        for name in clients
        where name.isEmpty || name.count > 64
            || !name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" })
        {
            throw ValidationError("--client names use letters, digits, '-' and '_' (at most 64)")
        }
        for (name, value) in [("--port", port), ("--ui-port", uiPort)] where !(0...65535).contains(value) {
            throw ValidationError("\(name) must be between 0 and 65535")
        }
        if port != 0 && port == uiPort { throw ValidationError("--port and --ui-port must differ") }
        if let host, host.isEmpty { throw ValidationError("--host must not be empty") }
        if Logger.Level(rawValue: logLevel.lowercased()) == nil {
            throw ValidationError("--log-level must be one of trace, debug, info, notice, warning, error, critical")
        }
    }
}

/// The format of log lines on standard error.
enum LogFormat: String, ExpressibleByArgument, Sendable {
    case text
    case json
}

/// Who answers approval requests.
enum ApprovalFrontEnd: String, ExpressibleByArgument, Sendable {
    case page
    case terminal
}
