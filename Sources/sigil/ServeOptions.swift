import ArgumentParser
import SigilConfiguration

/// The command-line options of `sigil serve`. Every one is optional here (nil or empty: not given),
/// because a flag only overrides `SIGIL_<NAME>` and the config file when it is given; the values
/// are typed and checked by `SigilConfiguration` (`ServeConfiguration.options`, the option table,
/// with the same rules for every source), which gives the effective `ServeSettings`.
/// Help texts come from that table (`ServeConfiguration.help`), so no default is written here;
/// docs/configuration.md lists every option.
struct ServeOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(ServeConfiguration.help("config"), valueName: "path"))
    var config: String?

    @Flag(
        name: .customLong("print-config"),
        help: "Print the effective configuration with the source of each value, then exit.")
    var printConfig = false

    @Option(
        help: ArgumentHelp(ServeConfiguration.help("port"), valueName: "port"))
    var port: String?

    @Option(
        name: .customLong("ui-port"),
        help: ArgumentHelp(ServeConfiguration.help("ui-port"), valueName: "port"))
    var uiPort: String?

    @OptionGroup var tls: TLSOptions

    @Option(
        help: ArgumentHelp(
            ServeConfiguration.help("host"),
            discussion: "Anything but loopback lets other machines reach the gateway; a warning is logged.",
            valueName: "address"))
    var host: String?

    @Option(
        name: .customLong("public-dir"),
        help: ArgumentHelp(ServeConfiguration.help("public-dir"), valueName: "path"))
    var publicDir: String?

    @Option(
        name: .customLong("log-level"),
        help: ArgumentHelp(ServeConfiguration.help("log-level"), valueName: "level"))
    var logLevel: String?

    @Option(
        name: .customLong("log-format"),
        help: ArgumentHelp(ServeConfiguration.help("log-format"), valueName: "text|json"))
    var logFormat: String?

    @Option(
        name: .customLong("token-output"),
        help: ArgumentHelp(ServeConfiguration.help("token-output"), valueName: "stdout|file"))
    var tokenOutput: String?

    @Option(
        name: .customLong("metrics-token-file"),
        help: ArgumentHelp(ServeConfiguration.help("metrics-token-file"), valueName: "path"))
    var metricsTokenFile: String?
    @Option(
        name: .customLong("ic-url"), help: ArgumentHelp(ServeConfiguration.help("ic-url"), valueName: "url"))
    var icURL: String?

    // MARK: Gateway

    @Flag(
        inversion: .prefixedNo, help: ArgumentHelp(ServeConfiguration.help("dev")))
    var dev: Bool?

    @Option(
        name: .customLong("data-dir"),
        help: ArgumentHelp(ServeConfiguration.help("data-dir"), valueName: "path"))
    var dataDir: String?

    @OptionGroup var password: PasswordOption

    @Flag(
        name: .customLong("auto-approve"), inversion: .prefixedNo,
        help: ArgumentHelp(ServeConfiguration.help("auto-approve")))
    var autoApprove: Bool?

    @Option(
        help: ArgumentHelp(ServeConfiguration.help("approve"), valueName: "page|terminal"))
    var approve: String?

    @Option(
        name: .customLong("client"),
        help: ArgumentHelp(ServeConfiguration.help("client"), valueName: "name"))
    var clients: [String] = []

    @Option(
        name: .customLong("allowed-host"),
        help: ArgumentHelp(ServeConfiguration.help("allowed-host"), valueName: "name"))
    var allowedHosts: [String] = []

    @Option(
        name: .customLong("public-url"),
        help: ArgumentHelp(ServeConfiguration.help("public-url"), valueName: "url"))
    var publicURLs: [String] = []

    @Option(
        name: .customLong("public-ui-url"),
        help: ArgumentHelp(ServeConfiguration.help("public-ui-url"), valueName: "url"))
    var publicUIURLs: [String] = []

    @Option(
        name: .customLong("approval-timeout"),
        help: ArgumentHelp(ServeConfiguration.help("approval-timeout"), valueName: "seconds"))
    var approvalTimeout: String?

    @Option(
        name: .customLong("deny-host"),
        help: ArgumentHelp(ServeConfiguration.help("deny-host"), valueName: "host"))
    var deniedHosts: [String] = []

    @Option(name: .customLong("icon-rpc"), help: ArgumentHelp(ServeConfiguration.help("icon-rpc"), valueName: "url"))
    var iconRPC: String?

    @Option(name: .customLong("eth-rpc"), help: ArgumentHelp(ServeConfiguration.help("eth-rpc"), valueName: "url"))
    var ethRPC: [String] = []

    @Option(name: .customLong("icon-nid"), help: ArgumentHelp(ServeConfiguration.help("icon-nid"), valueName: "nid"))
    var iconNID: String?

    @Option(
        name: .customLong("icon-blind-signing"),
        help: ArgumentHelp(ServeConfiguration.help("icon-blind-signing"), valueName: "origin"))
    var iconBlindSigning: [String] = []
    // MARK: Journal

    @Flag(inversion: .prefixedNo, help: ArgumentHelp(ServeConfiguration.help("journal")))
    var journal: Bool?

    @Option(
        name: .customLong("journal-mirror"),
        help: ArgumentHelp(ServeConfiguration.help("journal-mirror"), valueName: "directory"))
    var journalMirror: String?

    @Option(
        name: .customLong("journal-shown-limit"),
        help: ArgumentHelp(ServeConfiguration.help("journal-shown-limit"), valueName: "bytes"))
    var journalShownLimit: String?

    @Option(
        name: .customLong("journal-checkpoint-interval"),
        help: ArgumentHelp(ServeConfiguration.help("journal-checkpoint-interval"), valueName: "seconds"))
    var journalCheckpointInterval: String?

    @Option(
        name: .customLong("journal-sync"),
        help: ArgumentHelp(ServeConfiguration.help("journal-sync"), valueName: "commit|periodic"))
    var journalSync: String?
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
