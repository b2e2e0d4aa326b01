#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The options of `sigil serve`: one row each. The flag is `--<name>`, the environment variable
/// `SIGIL_<NAME>` and the config-file key `<name>` (docs/configuration.md lists them all).
///
/// To add an option: add a row here, the matching `@Option`/`@Flag` to `ServeOptions` and its
/// line in `ServeOptions.commandLineValues` (the resolver refuses to run while the two disagree),
/// then read it from `ServeSettings`.
package enum ServeConfiguration {
    package static let options: [ConfigurationOption] = [
        ConfigurationOption(
            "config", .path(.readableFile), unset: "no config file is read", allowedInFile: false,
            summary: "Read options from this TOML file (command line and environment only)."),
        ConfigurationOption(
            "port", .integer(0...65535, noun: "a port number"), default: .integer(9715),
            summary: "Port for dapps (bridge script and API); 0 picks a free port."),
        ConfigurationOption(
            "ui-port", .integer(0...65535, noun: "a port number"), default: .integer(9716),
            summary: "Port for the approval page; 0 picks a free port."),
        ConfigurationOption(
            "host", .string, unset: "127.0.0.1 and ::1",
            summary: "Numeric address to listen on instead of loopback (e.g. 0.0.0.0 in a container).",
            check: numericHost),
        ConfigurationOption(
            "tls-cert", .path(.readableFile), unset: "plain HTTP",
            summary: "Serve both ports over HTTPS with this PEM certificate chain (needs tls-key)."),
        ConfigurationOption(
            "tls-key", .path(.readableFile), unset: "plain HTTP", summary: "The PEM private key for tls-cert."),
        ConfigurationOption(
            "public-dir", .path(.directory),
            unset: "<exe>/../share/sigil/public, else the project's public/",
            summary: "Directory of files served to dapps."),
        ConfigurationOption(
            "log-level", .choice(logLevels), default: .string("info"), summary: "Lowest level of log lines written."),
        ConfigurationOption(
            "log-format", .choice(["text", "json"]), default: .string("text"),
            summary: "Log lines on stderr: text (for people) or json (one object per line, for collectors)."),
        ConfigurationOption(
            "token-output", .choice(["stdout", "file"]), default: .string("stdout"),
            summary:
                "Where the approval URL (with its token) and client tokens go: stdout, or a 0600 file approval-url in the data directory (containers: logs are collected, the file is not)."
        ),
        ConfigurationOption(
            "metrics-token-file", .path(.readableFile), unset: "only the approval token opens /metrics",
            summary: "File holding a bearer token a Prometheus scraper may send for GET /metrics."),
        ConfigurationOption(
            "ic-url", .string, unset: "icrc49_call_canister answers error 4000 (no Internet Computer endpoint)",
            summary: "Internet Computer endpoint (boundary node or replica) that approved ICRC-49 calls are sent to."),
        ConfigurationOption(
            "dev", .boolean, default: .boolean(false),
            summary: "Use the well-known development accounts (//Alice …) in a throw-away state; testing only."),
        ConfigurationOption(
            "data-dir", .path(.none),
            unset: "$SIGIL_HOME, else $XDG_DATA_HOME/sigil, else ~/.local/share/sigil (with dev: a throw-away state)",
            summary: "Data directory (accounts, connected sites, metadata)."),
        ConfigurationOption(
            "password-file", .path(.readableFile), unset: "asked on the terminal when accounts must be unlocked",
            summary: "Read the accounts' password from this file (first line)."),
        ConfigurationOption(
            "auto-approve", .boolean, default: .boolean(false),
            summary: "Approve every request at once with every account (automated tests). Needs dev."),
        ConfigurationOption(
            "approve", .choice(["page", "terminal"]), default: .string("page"),
            summary: "Where a person approves: the approval page or y/n questions in the terminal."),
        ConfigurationOption(
            "client", .list, unset: "no client tokens",
            summary: "Create a bearer token for each named non-browser client; printed at start.",
            check: clientName),
        ConfigurationOption(
            "allowed-host", .list, unset: "only 127.0.0.1, localhost and [::1]",
            summary: "Extra Host header names to accept.", check: hostName),
        ConfigurationOption(
            "public-url", .list, unset: "browsers reach the dapp port at 127.0.0.1/localhost/[::1] on its own port",
            summary:
                "How browsers reach the dapp port when that is not loopback on the same port: a remapped container port (http://127.0.0.1:19715), a proxy or a name (https://sigil.example). Accepted in the Host check; the first is the printed bridge URL.",
            check: publicURL),
        ConfigurationOption(
            "public-ui-url", .list, unset: "the approval page is reached at loopback on its own port",
            summary:
                "How browsers reach the approval port (as public-url, for the approval page); the first is the printed approval URL.",
            check: publicURL),
        ConfigurationOption(
            "approval-timeout", .integer(1...86_400, noun: "a number of seconds"), default: .integer(600),
            summary: "Seconds a request may wait for a decision."),
        ConfigurationOption(
            "deny-host", .list, unset: "no deny list",
            summary: "Phishing deny list: hosts (and their subdomains) refused.", check: hostName),
        ConfigurationOption(
            "journal", .boolean, default: .boolean(true),
            summary: "Keep the signing journal (docs/journal.md). Turning it off needs dev (benchmarks only)."),
        ConfigurationOption(
            "journal-mirror", .path(.directory), unset: "checkpoints are kept in the state database only",
            summary:
                "Also append every journal checkpoint to sigil-journal-checkpoints.jsonl in this directory (put it on another machine's storage)."
        ),
        ConfigurationOption(
            "journal-shown-limit", .integer(0...1_048_576, noun: "a number of bytes"), default: .integer(4096),
            summary: "Bytes of what a person was shown kept per journal entry (the digest covers all of it)."),
        ConfigurationOption(
            "journal-checkpoint-interval", .integer(1...86_400, noun: "a number of seconds"), default: .integer(60),
            summary: "Seconds between journal checkpoints (when entries were added; one is also made at shutdown)."),
        ConfigurationOption(
            "journal-sync", .choice(["commit", "periodic"]), default: .string("commit"),
            summary:
                "When a journal entry (and every change of the state database) is on disk: commit (before its reply leaves; survives a power cut) or periodic (reaches the OS before the reply, survives a crash of Sigil; on disk at most 100 ms after its commit)."
        ),
        ConfigurationOption(
            "icon-rpc", .string, unset: "no ICON node: sending answers -9999 (no ICON node configured)",
            summary:
                "ICON node JSON-RPC v3 URL (http(s)://host[:port]/api/v3) that approved ICON transactions are sent to.",
            check: httpURL),
        ConfigurationOption(
            "eth-rpc", .list,
            unset: "no Ethereum endpoint: the sites' chain is 1, eth_sendTransaction answers 4900 (no --eth-rpc)",
            summary:
                "Ethereum JSON-RPC endpoint (http(s)://…); repeatable, one per chain (each endpoint's chain is learned with its own eth_chainId). Used to fill and send approved transactions and for read-only calls.",
            check: httpURL),
        ConfigurationOption(
            "icon-nid", .string, default: .string("0x1"),
            summary: "ICON network id put into send requests that carry none (0x1 = ICON Mainnet).", check: iconInteger),
        ConfigurationOption(
            "icon-blind-signing", .list, unset: "no site may ask for blind signing",
            summary:
                "Site origins (https://app.example) allowed to ask for ICON blind signing of a bare hash (REQUEST_SIGNING).",
            check: siteOrigin),
    ]

    /// Rules over several options (the same as the flags always had).
    package static let rules: [ConfigurationRule] = [
        ConfigurationRule { configuration in
            guard configuration.boolean("auto-approve") == true, configuration.boolean("dev") != true else {
                return nil
            }
            return ConfigurationError(
                .conflict, source: configuration.source(of: "auto-approve"), field: "auto-approve",
                "auto-approve approves every request without asking; it is refused without dev "
                    + "(dev is false: \(configuration.origin(of: "dev")))")
        },
        ConfigurationRule { configuration in
            guard configuration.boolean("auto-approve") == true, configuration.string("approve") == "terminal" else {
                return nil
            }
            return ConfigurationError(
                .conflict, source: configuration.source(of: "auto-approve"), field: "auto-approve",
                "auto-approve and approve = terminal exclude each other (approve: \(configuration.origin(of: "approve")))"
            )
        },
        ConfigurationRule { configuration in
            guard configuration.boolean("journal") == false, configuration.boolean("dev") != true else { return nil }
            return ConfigurationError(
                .conflict, source: configuration.source(of: "journal"), field: "journal",
                "the signing journal can be turned off only with dev, for benchmarks "
                    + "(dev is false: \(configuration.origin(of: "dev")))")
        },
        ConfigurationRule { configuration in
            let certificate = configuration["tls-cert"]
            let key = configuration["tls-key"]
            guard (certificate == nil) != (key == nil) else { return nil }
            let (given, missing) = certificate != nil ? ("tls-cert", "tls-key") : ("tls-key", "tls-cert")
            return ConfigurationError(
                .conflict, source: configuration.source(of: given), field: given,
                "tls-cert and tls-key go together; \(missing) is not set")
        },
        ConfigurationRule { configuration in
            guard let port = configuration.integer("port"), port != 0, port == configuration.integer("ui-port") else {
                return nil
            }
            return ConfigurationError(
                .conflict, source: configuration.source(of: "ui-port"), field: "ui-port",
                "ui-port must differ from port (\(port), \(configuration.origin(of: "port")))")
        },
    ]

    /// `SIGIL_*` variables that are not `serve` options but are read elsewhere.
    package static let otherVariables: Set<String> = [
        "SIGIL_HOME",  // Keystore DataDirectory.resolve: the default data directory
        "SIGIL_FUZZ_ROUNDS", "SIGIL_FUZZ_SECONDS", "SIGIL_FUZZ_SEED",  // scripts/test.d fuzzing steps
    ]

    /// Refused variables: a password in the environment leaks through `/proc/<pid>/environ`,
    /// `docker inspect` and crash reports; a file (Docker/Kubernetes secrets) does not.
    package static let refusedVariables: [String: String] = [
        "SIGIL_PASSWORD":
            "a password is never taken from the environment; write it to a file (mode 0600, or a Docker secret) "
            + "and set SIGIL_PASSWORD_FILE to its path"
    ]

    /// The row named `name`, if there is one.
    package static func option(_ name: String) -> ConfigurationOption? { options.first { $0.name == name } }

    /// The `--help` text of the option named `name` (summary, accepted values, default), so help
    /// texts never restate a default. A name missing from the table shows up in the help output.
    package static func help(_ name: String) -> String {
        option(name)?.help ?? "(\(name) is not in ServeConfiguration.options)"
    }

    /// The resolver for `sigil serve`.
    package static let resolver = ConfigurationResolver(
        options: options, rules: rules, otherVariables: otherVariables, refusedVariables: refusedVariables)

    /// swift-log's `Logger.Level` names.
    package static let logLevels = ["trace", "debug", "info", "notice", "warning", "error", "critical"]

    /// An IPv4 or IPv6 address in numeric form (no names: a name could resolve to anything).
    /// `http://` or `https://` followed by a host.
    @Sendable static func httpURL(_ text: String) -> String? {
        let lower = text.lowercased()
        guard (lower.hasPrefix("http://") && text.count > 7) || (lower.hasPrefix("https://") && text.count > 8),
            !text.contains(where: { $0.isWhitespace })
        else { return "'\(text.prefix(80))' is not an http(s) URL" }
        return nil
    }

    /// `0x` + lower-case hex without leading zeros (an ICON T_INT).
    @Sendable static func iconInteger(_ text: String) -> String? {
        let u = Array(text.utf8)
        guard u.count >= 3, u.count <= 18, u[0] == 0x30, u[1] == 0x78, u.count == 3 || u[2] != 0x30,
            u[2...].allSatisfy({ ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x61 && $0 <= 0x66) })
        else { return "'\(text.prefix(80))' is not 0x + lower-case hex without leading zeros" }
        return nil
    }

    /// A serialized site origin: `http(s)://host[:port]`, no path.
    @Sendable static func siteOrigin(_ text: String) -> String? {
        guard httpURL(text) == nil, !text.dropFirst(8).contains("/"), !text.hasSuffix("/") else {
            return "'\(text.prefix(80))' is not a site origin like https://app.example"
        }
        return nil
    }

    /// A public URL: `http(s)://host[:port]`, no path, no userinfo (a site origin's form).
    @Sendable static func publicURL(_ text: String) -> String? {
        guard siteOrigin(text) == nil, !text.contains("@"), !text.contains("?"), !text.contains("#") else {
            return "'\(text.prefix(80))' is not a URL like http://127.0.0.1:19715 or https://sigil.example "
                + "(scheme, host and optional port; no path)"
        }
        return nil
    }

    @Sendable static func numericHost(_ text: String) -> String? {
        var v4 = in_addr()
        var v6 = in6_addr()
        if inet_pton(AF_INET, text, &v4) == 1 || inet_pton(AF_INET6, text, &v6) == 1 { return nil }
        return "'\(text)' is not a numeric IPv4 or IPv6 address"
    }

    /// Client names: letters, digits, '-' and '_', at most 64.
    @Sendable static func clientName(_ text: String) -> String? {
        let valid =
            text.count <= 64
            && text.unicodeScalars.allSatisfy {
                $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "-" || $0 == "_")
            }
        return valid ? nil : "'\(text)' is not a client name (letters, digits, '-' and '_', at most 64)"
    }

    /// A host name as written in a Host header or a deny list: no spaces, slashes, commas or controls.
    @Sendable static func hostName(_ text: String) -> String? {
        let valid =
            text.count <= 253
            && text.unicodeScalars.allSatisfy {
                $0.value > 0x20 && $0.value != 0x7f && !"/,@\\?#".unicodeScalars.contains($0)
            }
        return valid ? nil : "'\(text)' is not a host name"
    }
}
