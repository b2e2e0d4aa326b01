import ArgumentParser

/// The command-line options of `sigil serve`. Every one is optional here (nil or empty: not given),
/// because a flag only overrides `SIGIL_<NAME>` and the config file when it is given; the values
/// are typed and checked by `SigilConfiguration` (`ServeConfiguration.options`, the option table,
/// with the same rules for every source), which gives the effective `ServeSettings`.
/// Defaults and rules: docs/configuration.md.
struct ServeOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "Read options from a TOML config file (default: $SIGIL_CONFIG; none).", valueName: "path"))
    var config: String?

    @Flag(
        name: .customLong("print-config"),
        help: "Print the effective configuration with the source of each value, then exit.")
    var printConfig = false

    @Option(
        help: ArgumentHelp(
            "Port for dapps (bridge script and API); 0 picks a free port. Default 9715.", valueName: "port"))
    var port: String?

    @Option(
        name: .customLong("ui-port"),
        help: ArgumentHelp("Port for the approval page; 0 picks a free port. Default 9716.", valueName: "port"))
    var uiPort: String?

    @OptionGroup var tls: TLSOptions

    @Option(
        help: ArgumentHelp(
            "Numeric address to listen on instead of 127.0.0.1 and ::1 (e.g. 0.0.0.0 in a container).",
            discussion: "Anything but loopback lets other machines reach the gateway; a warning is logged.",
            valueName: "address"))
    var host: String?

    @Option(
        name: .customLong("public-dir"),
        help: ArgumentHelp(
            "Directory of files served to dapps (default: <exe>/../share/sigil/public, or the project's public/).",
            valueName: "path"))
    var publicDir: String?

    @Option(
        name: .customLong("log-level"),
        help: ArgumentHelp("trace, debug, info, notice, warning, error or critical. Default info.", valueName: "level"))
    var logLevel: String?

    @Option(
        name: .customLong("log-format"),
        help: ArgumentHelp(
            "Log lines on stderr: 'text' (for people) or 'json' (one object per line, for collectors). Default text.",
            valueName: "text|json"))
    var logFormat: String?

    @Option(
        name: .customLong("token-output"),
        help: ArgumentHelp(
            "Where the approval URL (it holds the approval token) and client tokens go: 'stdout', or 'file' (<data dir>/approval-url, mode 0600; for containers, whose stdout is collected as logs). Default stdout.",
            valueName: "stdout|file"))
    var tokenOutput: String?

    @Option(
        name: .customLong("metrics-token-file"),
        help: ArgumentHelp(
            "File holding a token a Prometheus scraper may send (Authorization: Bearer) for GET /metrics, besides the approval token.",
            valueName: "path"))
    var metricsTokenFile: String?

    // MARK: Gateway

    @Flag(
        inversion: .prefixedNo,
        help: "Use the well-known development accounts (//Alice … //Ferdie) in a throw-away state; for testing only.")
    var dev: Bool?

    @Option(
        name: .customLong("data-dir"),
        help: ArgumentHelp(
            "Data directory (accounts, connected sites, metadata). Default: $SIGIL_HOME, else ~/.local/share/sigil; with --dev, a throw-away state unless given.",
            valueName: "path"))
    var dataDir: String?

    @OptionGroup var password: PasswordOption

    @Flag(
        name: .customLong("auto-approve"), inversion: .prefixedNo,
        help: "Approve every request at once, granting every account (automated tests). Needs --dev.")
    var autoApprove: Bool?

    @Option(
        help: ArgumentHelp(
            "Where a person approves: 'page' (the approval page) or 'terminal' (y/n questions here). Default page.",
            valueName: "page|terminal"))
    var approve: String?

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

    @Option(
        name: .customLong("approval-timeout"),
        help: ArgumentHelp("Seconds a request may wait for a decision (1-86400). Default 600.", valueName: "seconds"))
    var approvalTimeout: String?

    @Option(
        name: .customLong("deny-host"),
        help: ArgumentHelp("Phishing deny list entry (host and its subdomains; repeatable).", valueName: "host"))
    var deniedHosts: [String] = []
}

/// The format of log lines on standard error.
enum LogFormat: String, Sendable {
    case text
    case json
}

/// Who answers approval requests.
enum ApprovalFrontEnd: String, Sendable {
    case page
    case terminal
}
