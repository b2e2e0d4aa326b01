/// The effective `sigil serve` settings, typed, read from a `ResolvedConfiguration` that the
/// resolver has checked (ranges, choices, rules), so nothing here can fail.
package struct ServeSettings: Sendable {
    package var port: Int
    package var uiPort: Int
    /// Numeric address, or nil for 127.0.0.1 and ::1.
    package var host: String?
    package var tlsCertificate: String?
    package var tlsKey: String?
    package var publicDirectory: String?
    /// One of `ServeConfiguration.logLevels`.
    package var logLevel: String
    /// `text` or `json`.
    package var logFormat: String
    /// `stdout` or `file`: where the approval URL and client tokens are written.
    package var tokenOutput: String
    /// File holding the bearer token for `GET /metrics` (besides the approval token), or nil.
    package var metricsTokenFile: String?
    /// Internet Computer endpoint for approved ICRC-49 calls, or nil (they answer 4000).
    package var icURL: String?
    package var dev: Bool
    /// Explicit data directory, or nil for the default (`DataDirectory.resolve`).
    package var dataDirectory: String?
    package var passwordFile: String?
    package var autoApprove: Bool
    /// Approval front end: `page` or `terminal`.
    package var approve: String
    package var clients: [String]
    package var allowedHosts: [String]
    /// `public-url`: how browsers reach the dapp port (validated `http(s)://host[:port]`).
    package var publicURLs: [String]
    /// `public-ui-url`: how browsers reach the approval port.
    package var publicUIURLs: [String]
    package var approvalTimeoutSeconds: Int
    package var deniedHosts: [String]
    /// ICON node URL (`icon-rpc`), or nil.
    package var iconRPC: String?
    package var iconNID: String
    /// Ethereum JSON-RPC endpoints (`eth-rpc`), one per chain; empty when none.
    package var ethRPC: [String]
    package var iconBlindSigning: [String]
    /// Whether the signing journal is kept (false only with dev).
    package var journal: Bool
    /// Directory the journal's checkpoints are also appended to, or nil.
    package var journalMirror: String?
    /// Bytes of shown text kept per journal entry.
    package var journalShownLimit: Int
    /// Seconds between journal checkpoints.
    package var journalCheckpointIntervalSeconds: Int
    /// When a journal entry (and any state change) is on disk: `commit` or `periodic` (docs/journal.md §7).
    package var journalSync: String

    /// Reads the settings. Every option with a default has a value in `configuration` (the resolver
    /// fills in `ServeConfiguration.options`' defaults), so the fallbacks after `??` are never taken;
    /// they are neutral values, not defaults, which are written only in the option table
    /// (`OptionDocumentationTests` checks that these fields receive them).
    package init(_ configuration: ResolvedConfiguration) {
        port = configuration.integer("port") ?? 0
        uiPort = configuration.integer("ui-port") ?? 0
        host = configuration.string("host")
        tlsCertificate = configuration.string("tls-cert")
        tlsKey = configuration.string("tls-key")
        publicDirectory = configuration.string("public-dir")
        logLevel = configuration.string("log-level") ?? ""
        logFormat = configuration.string("log-format") ?? ""
        tokenOutput = configuration.string("token-output") ?? ""
        metricsTokenFile = configuration.string("metrics-token-file")
        icURL = configuration.string("ic-url")
        dev = configuration.boolean("dev") ?? false
        dataDirectory = configuration.string("data-dir")
        passwordFile = configuration.string("password-file")
        autoApprove = configuration.boolean("auto-approve") ?? false
        approve = configuration.string("approve") ?? ""
        clients = configuration.list("client") ?? []
        allowedHosts = configuration.list("allowed-host") ?? []
        publicURLs = configuration.list("public-url") ?? []
        publicUIURLs = configuration.list("public-ui-url") ?? []
        approvalTimeoutSeconds = configuration.integer("approval-timeout") ?? 0
        deniedHosts = configuration.list("deny-host") ?? []
        iconRPC = configuration.string("icon-rpc")
        ethRPC = configuration.list("eth-rpc") ?? []
        iconNID = configuration.string("icon-nid") ?? ""
        iconBlindSigning = configuration.list("icon-blind-signing") ?? []
        journal = configuration.boolean("journal") ?? false
        journalMirror = configuration.string("journal-mirror")
        journalShownLimit = configuration.integer("journal-shown-limit") ?? 0
        journalCheckpointIntervalSeconds = configuration.integer("journal-checkpoint-interval") ?? 0
        journalSync = configuration.string("journal-sync") ?? "commit"
    }
}
