import Foundation
import Testing

@testable import SigilConfiguration

/// `ServeConfiguration.resolver` over the three sources. Files are written to a fresh temporary
/// directory per test.
struct ConfigurationResolverTests {
    let directory: String

    init() throws {
        directory = NSTemporaryDirectory() + "sigil-config-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    }

    /// Writes `text` to `name` in the test directory and returns its path.
    func file(_ name: String, _ text: String) throws -> String {
        let path = directory + "/" + name
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// Every option not given, plus `given`.
    static func commandLine(_ given: [String: ConfigurationValue] = [:]) -> [String: ConfigurationValue?] {
        var values: [String: ConfigurationValue?] = [:]
        for option in ServeConfiguration.options { values[option.name] = .some(nil) }
        for (name, value) in given { values[name] = .some(value) }
        return values
    }

    func resolve(
        _ given: [String: ConfigurationValue] = [:], environment: [String: String] = [:], file text: String? = nil
    ) throws(ConfigurationError) -> ResolvedConfiguration {
        var environment = environment
        if let text {
            do { environment["SIGIL_CONFIG"] = try file("sigil.toml", text) } catch {
                throw ConfigurationError(.unreadableFile, source: .defaultValue, field: nil, "test setup")
            }
        }
        return try ServeConfiguration.resolver.resolve(commandLine: Self.commandLine(given), environment: environment)
    }

    /// The messages of the error `body` throws, with the temporary directory shortened to `DIR`.
    func messages(_ body: () throws(ConfigurationError) -> ResolvedConfiguration) -> [String] {
        do {
            _ = try body()
            return []
        } catch {
            return error.all.map { $0.description.replacingOccurrences(of: directory, with: "DIR") }
        }
    }

    // MARK: Defaults and precedence

    @Test func withNothingGivenEveryDefaultApplies() throws {
        let configuration = try resolve()
        let settings = ServeSettings(configuration)
        #expect(settings.port == 9715 && settings.uiPort == 9716 && settings.logLevel == "info")
        #expect(!settings.dev && !settings.autoApprove && settings.approve == "page")
        #expect(settings.approvalTimeoutSeconds == 600 && settings.clients.isEmpty && settings.host == nil)
        #expect(configuration.source(of: "port") == .defaultValue)
    }

    struct Precedence: CustomTestStringConvertible, Sendable {
        let flag: String?
        let environment: String?
        let file: Int?
        let expected: Int
        let source: String
        var testDescription: String {
            "flag \(flag ?? "-") env \(environment ?? "-") file \(file.map(String.init) ?? "-")"
        }
    }

    static let precedence: [Precedence] = [
        Precedence(flag: nil, environment: nil, file: nil, expected: 9715, source: "default"),
        Precedence(flag: nil, environment: nil, file: 3, expected: 3, source: "DIR/sigil.toml line 1"),
        Precedence(flag: nil, environment: "2", file: nil, expected: 2, source: "SIGIL_PORT"),
        Precedence(flag: nil, environment: "2", file: 3, expected: 2, source: "SIGIL_PORT"),
        Precedence(flag: "1", environment: nil, file: 3, expected: 1, source: "--port"),
        Precedence(flag: "1", environment: "2", file: nil, expected: 1, source: "--port"),
        Precedence(flag: "1", environment: "2", file: 3, expected: 1, source: "--port"),
        Precedence(flag: "0", environment: "", file: 3, expected: 0, source: "--port"),
        Precedence(flag: nil, environment: "", file: 3, expected: 3, source: "DIR/sigil.toml line 1"),
    ]

    @Test("A flag beats the environment, which beats the file, which beats the default", arguments: precedence)
    func precedenceOfTheSources(_ vector: Precedence) throws {
        var given: [String: ConfigurationValue] = [:]
        if let flag = vector.flag { given["port"] = .string(flag) }
        var environment: [String: String] = [:]
        if let value = vector.environment { environment["SIGIL_PORT"] = value }
        let configuration = try resolve(
            given, environment: environment, file: vector.file.map { "port = \($0)\nui-port = 7\n" })
        #expect(configuration.integer("port") == vector.expected)
        #expect(configuration.origin(of: "port").replacingOccurrences(of: directory, with: "DIR") == vector.source)
        if vector.file != nil { #expect(configuration.integer("ui-port") == 7) }
    }

    @Test func aListFromAStrongerSourceReplacesTheWeakerOne() throws {
        let configuration = try resolve(
            environment: ["SIGIL_CLIENT": "ci, deploy"], file: "client = [\"one\", \"two\", \"three\"]")
        #expect(configuration.list("client") == ["ci", "deploy"])
        let fromFlag = try resolve(["client": .list(["x"])], environment: ["SIGIL_CLIENT": "ci"])
        #expect(fromFlag.list("client") == ["x"])
        #expect(fromFlag.origin(of: "client") == "--client")
    }

    @Test func noNegatedFlagOverridesTheEnvironment() throws {
        let configuration = try resolve(["dev": .boolean(false)], environment: ["SIGIL_DEV": "true"])
        #expect(configuration.boolean("dev") == false)
        #expect(configuration.origin(of: "dev") == "--no-dev")
    }

    @Test func everyOptionReachesServeSettingsFromTheEnvironment() throws {
        let certificate = try file("cert.pem", "x")
        let configuration = try resolve(environment: [
            "SIGIL_PORT": "1", "SIGIL_UI_PORT": "2", "SIGIL_HOST": "::", "SIGIL_TLS_CERT": certificate,
            "SIGIL_TLS_KEY": certificate, "SIGIL_PUBLIC_DIR": directory, "SIGIL_LOG_LEVEL": "debug",
            "SIGIL_LOG_FORMAT": "json", "SIGIL_METRICS_TOKEN_FILE": certificate, "SIGIL_DEV": "true",
            "SIGIL_DATA_DIR": "/data", "SIGIL_PASSWORD_FILE": certificate, "SIGIL_AUTO_APPROVE": "1",
            "SIGIL_APPROVE": "page", "SIGIL_CLIENT": "a,b", "SIGIL_ALLOWED_HOST": "sigil.internal",
            "SIGIL_PUBLIC_URL": "http://127.0.0.1:19715,https://sigil.example",
            "SIGIL_PUBLIC_UI_URL": "http://127.0.0.1:19716",
            "SIGIL_APPROVAL_TIMEOUT": "30", "SIGIL_DENY_HOST": "evil.example", "SIGIL_TOKEN_OUTPUT": "file",
            "SIGIL_JOURNAL": "false", "SIGIL_JOURNAL_MIRROR": directory, "SIGIL_JOURNAL_SHOWN_LIMIT": "100",
            "SIGIL_JOURNAL_CHECKPOINT_INTERVAL": "5", "SIGIL_JOURNAL_SYNC": "periodic",
            "SIGIL_IC_URL": "http://127.0.0.1:4943",
            "SIGIL_ICON_RPC": "http://127.0.0.1:9000/api/v3",
            "SIGIL_ETH_RPC": "http://127.0.0.1:8545,https://eth.example",
            "SIGIL_ICON_NID": "0x53", "SIGIL_ICON_BLIND_SIGNING": "https://a.example,https://b.example",
        ])
        for option in ServeConfiguration.options where option.name != "config" {
            #expect(configuration.source(of: option.name) == .environment(variable: option.environmentVariable))
        }
        let settings = ServeSettings(configuration)
        #expect(settings.port == 1 && settings.uiPort == 2 && settings.host == "::")
        #expect(settings.publicURLs == ["http://127.0.0.1:19715", "https://sigil.example"])
        #expect(settings.publicUIURLs == ["http://127.0.0.1:19716"])
        #expect(settings.ethRPC == ["http://127.0.0.1:8545", "https://eth.example"])
        #expect(settings.tlsCertificate == certificate && settings.tlsKey == certificate)
        #expect(settings.publicDirectory == directory && settings.logLevel == "debug" && settings.logFormat == "json")
        #expect(settings.metricsTokenFile == certificate && settings.dev && settings.dataDirectory == "/data")
        #expect(settings.icURL == "http://127.0.0.1:4943")
        #expect(settings.passwordFile == certificate && settings.autoApprove && settings.approve == "page")
        #expect(settings.iconRPC == "http://127.0.0.1:9000/api/v3" && settings.iconNID == "0x53")
        #expect(settings.iconBlindSigning == ["https://a.example", "https://b.example"])
        #expect(settings.clients == ["a", "b"] && settings.allowedHosts == ["sigil.internal"])
        #expect(settings.approvalTimeoutSeconds == 30 && settings.deniedHosts == ["evil.example"])
        #expect(!settings.journal && settings.journalMirror == directory && settings.journalShownLimit == 100)
        #expect(settings.journalCheckpointIntervalSeconds == 5 && settings.journalSync == "periodic")
        #expect(settings.tokenOutput == "file")
    }

    // MARK: Values from text (environment and command line)

    struct TextVector: CustomTestStringConvertible, Sendable {
        let variable: String
        let value: String
        let message: String?  // nil: accepted
        var testDescription: String { "\(variable)=\(value)" }
    }

    static let environmentVectors: [TextVector] = [
        TextVector(variable: "SIGIL_PORT", value: "abc", message: "SIGIL_PORT: 'abc' is not a port number (0-65535)"),
        TextVector(
            variable: "SIGIL_PORT", value: "65536", message: "SIGIL_PORT: '65536' is not a port number (0-65535)"),
        TextVector(variable: "SIGIL_PORT", value: "-1", message: "SIGIL_PORT: '-1' is not a port number (0-65535)"),
        TextVector(variable: "SIGIL_PORT", value: " 80", message: "SIGIL_PORT: ' 80' is not a port number (0-65535)"),
        TextVector(variable: "SIGIL_PORT", value: "+80", message: "SIGIL_PORT: '+80' is not a port number (0-65535)"),
        TextVector(variable: "SIGIL_PORT", value: "0x50", message: "SIGIL_PORT: '0x50' is not a port number (0-65535)"),
        TextVector(
            variable: "SIGIL_PORT", value: "99999999999999999999999",
            message: "SIGIL_PORT: '99999999999999999999999' is not a port number (0-65535)"),
        TextVector(variable: "SIGIL_PORT", value: "65535", message: nil),
        TextVector(variable: "SIGIL_UI_PORT", value: "0", message: nil),
        TextVector(
            variable: "SIGIL_APPROVAL_TIMEOUT", value: "0",
            message: "SIGIL_APPROVAL_TIMEOUT: '0' is not a number of seconds (1-86400)"),
        TextVector(variable: "SIGIL_APPROVAL_TIMEOUT", value: "86400", message: nil),
        TextVector(variable: "SIGIL_DEV", value: "true", message: nil),
        TextVector(variable: "SIGIL_DEV", value: "TRUE", message: nil),
        TextVector(variable: "SIGIL_DEV", value: "1", message: nil),
        TextVector(variable: "SIGIL_DEV", value: "0", message: nil),
        TextVector(variable: "SIGIL_DEV", value: "false", message: nil),
        TextVector(
            variable: "SIGIL_DEV", value: "yes",
            message: "SIGIL_DEV: 'yes' is not a boolean (use true or false, or 1 or 0)"),
        TextVector(
            variable: "SIGIL_DEV", value: "on",
            message: "SIGIL_DEV: 'on' is not a boolean (use true or false, or 1 or 0)"),
        TextVector(
            variable: "SIGIL_DEV", value: "2", message: "SIGIL_DEV: '2' is not a boolean (use true or false, or 1 or 0)"
        ),
        TextVector(
            variable: "SIGIL_LOG_LEVEL", value: "loud",
            message: "SIGIL_LOG_LEVEL: 'loud' is not one of trace, debug, info, notice, warning, error, critical"),
        TextVector(variable: "SIGIL_LOG_LEVEL", value: "debug", message: nil),
        TextVector(variable: "SIGIL_LOG_FORMAT", value: "json", message: nil),
        TextVector(
            variable: "SIGIL_LOG_FORMAT", value: "xml", message: "SIGIL_LOG_FORMAT: 'xml' is not one of text, json"),
        TextVector(
            variable: "SIGIL_METRICS_TOKEN_FILE", value: "/nonexistent/token",
            message: "SIGIL_METRICS_TOKEN_FILE: '/nonexistent/token' does not exist"),
        TextVector(variable: "SIGIL_APPROVE", value: "terminal", message: nil),
        TextVector(
            variable: "SIGIL_APPROVE", value: "Page", message: "SIGIL_APPROVE: 'Page' is not one of page, terminal"),
        TextVector(variable: "SIGIL_HOST", value: "0.0.0.0", message: nil),
        TextVector(variable: "SIGIL_HOST", value: "::", message: nil),
        TextVector(
            variable: "SIGIL_HOST", value: "localhost",
            message: "SIGIL_HOST: 'localhost' is not a numeric IPv4 or IPv6 address"),
        TextVector(
            variable: "SIGIL_HOST", value: "1.2.3", message: "SIGIL_HOST: '1.2.3' is not a numeric IPv4 or IPv6 address"
        ),
        TextVector(variable: "SIGIL_CLIENT", value: "ci,deploy", message: nil),
        TextVector(
            variable: "SIGIL_CLIENT", value: "ci,,deploy",
            message: "SIGIL_CLIENT: item 2 of the comma-separated list is empty"),
        TextVector(
            variable: "SIGIL_CLIENT", value: "ci,", message: "SIGIL_CLIENT: item 2 of the comma-separated list is empty"
        ),
        TextVector(
            variable: "SIGIL_CLIENT", value: "ci,de ploy",
            message: "SIGIL_CLIENT: item 2: 'de ploy' is not a client name (letters, digits, '-' and '_', at most 64)"),
        TextVector(variable: "SIGIL_DENY_HOST", value: "evil.example, phish.example", message: nil),
        TextVector(
            variable: "SIGIL_DENY_HOST", value: "evil.example/x",
            message: "SIGIL_DENY_HOST: 'evil.example/x' is not a host name"),
        TextVector(variable: "SIGIL_ALLOWED_HOST", value: "sigil.internal", message: nil),
        TextVector(
            variable: "SIGIL_PASSWORD", value: "hunter2",
            message:
                "SIGIL_PASSWORD: a password is never taken from the environment; write it to a file (mode 0600, or a Docker secret) and set SIGIL_PASSWORD_FILE to its path"
        ),
        TextVector(
            variable: "SIGIL_CONFIG", value: "/nonexistent/sigil.toml",
            message: "SIGIL_CONFIG: cannot read '/nonexistent/sigil.toml': no such file"),
        TextVector(variable: "SIGIL_CONFIG", value: "/", message: "SIGIL_CONFIG: cannot read '/': it is a directory"),
        TextVector(
            variable: "SIGIL_TLS_CERT", value: "/nonexistent/cert.pem",
            message: "SIGIL_TLS_CERT: '/nonexistent/cert.pem' does not exist"),
        TextVector(
            variable: "SIGIL_PASSWORD_FILE", value: "/", message: "SIGIL_PASSWORD_FILE: '/' is a directory, not a file"),
        TextVector(
            variable: "SIGIL_PUBLIC_DIR", value: "/nonexistent",
            message: "SIGIL_PUBLIC_DIR: '/nonexistent' does not exist"),
        TextVector(variable: "SIGIL_PUBLIC_DIR", value: "/", message: nil),
        TextVector(variable: "SIGIL_DATA_DIR", value: "/nonexistent/is/created/later", message: nil),
    ]

    @Test("Environment values are parsed and checked, errors naming the variable", arguments: environmentVectors)
    func environmentValues(_ vector: TextVector) {
        let found = messages { () throws(ConfigurationError) in
            try resolve(environment: [vector.variable: vector.value])
        }
        #expect(found == (vector.message.map { [$0] } ?? []))
    }

    @Test func anEmptyEnvironmentVariableCountsAsUnset() throws {
        let configuration = try resolve(environment: ["SIGIL_PORT": "", "SIGIL_HOST": "", "SIGIL_PASSWORD": ""])
        #expect(configuration.integer("port") == 9715 && configuration.string("host") == nil)
    }

    @Test func commandLineTextIsCheckedWithTheSameRules() {
        #expect(
            messages { () throws(ConfigurationError) in try resolve(["port": .string("abc")]) }
                == ["--port: 'abc' is not a port number (0-65535)"])
        #expect(
            messages { () throws(ConfigurationError) in try resolve(["host": .string("")]) }
                == ["--host: the value is empty"])
        #expect(
            messages { () throws(ConfigurationError) in try resolve(["client": .list(["ok", "not ok"])]) }
                == ["--client: item 2: 'not ok' is not a client name (letters, digits, '-' and '_', at most 64)"])
    }

    // MARK: The file

    struct FileVector: CustomTestStringConvertible, Sendable {
        let text: String
        let message: String?
        var testDescription: String { text.debugDescription }
    }

    static let fileVectors: [FileVector] = [
        FileVector(text: "prot = 1", message: "DIR/sigil.toml line 1: key 'prot' is unknown (did you mean 'port'?)"),
        FileVector(
            text: "ui_port = 1", message: "DIR/sigil.toml line 1: key 'ui_port' is unknown (did you mean 'ui-port'?)"),
        FileVector(text: "color = \"red\"", message: "DIR/sigil.toml line 1: key 'color' is unknown"),
        FileVector(
            text: "config = \"other.toml\"",
            message:
                "DIR/sigil.toml line 1: key 'config' is unknown (the config file cannot name another; use --config or SIGIL_CONFIG)"
        ),
        FileVector(
            text: "password = \"x\"",
            message: "DIR/sigil.toml line 1: key 'password' is unknown"),
        FileVector(
            text: "# c\nport = \"9715\"",
            message: "DIR/sigil.toml line 2: key 'port' must be an integer (a port number, 0-65535), not a string"),
        FileVector(
            text: "port = 70000", message: "DIR/sigil.toml line 1: key 'port': 70000 is not a port number (0-65535)"),
        FileVector(
            text: "dev = \"true\"",
            message: "DIR/sigil.toml line 1: key 'dev' must be a boolean (true or false), not a string"),
        FileVector(
            text: "dev = 1",
            message: "DIR/sigil.toml line 1: key 'dev' must be a boolean (true or false), not an integer"),
        FileVector(text: "host = 0", message: "DIR/sigil.toml line 1: key 'host' must be a string, not an integer"),
        FileVector(
            text: "host = [\"::1\"]", message: "DIR/sigil.toml line 1: key 'host' must be a string, not an array"),
        FileVector(
            text: "approve = true",
            message: "DIR/sigil.toml line 1: key 'approve' must be a string (one of page, terminal), not a boolean"),
        FileVector(
            text: "approve = \"web\"",
            message: "DIR/sigil.toml line 1: key 'approve': 'web' is not one of page, terminal"),
        FileVector(
            text: "client = \"ci\"",
            message: "DIR/sigil.toml line 1: key 'client' must be an array of strings, not a string"),
        FileVector(
            text: "client = [\"ci\", 2]",
            message: "DIR/sigil.toml line 1: key 'client' must be an array of strings; item 2 is an integer"),
        FileVector(
            text: "client = [\"ci\", \"\"]",
            message: "DIR/sigil.toml line 1: key 'client': item 2 of the array is empty"),
        FileVector(
            text: "deny-host = [[\"a\"]]",
            message: "DIR/sigil.toml line 1: key 'deny-host' must be an array of strings; item 1 is an array"),
        FileVector(
            text: "approval-timeout = 0",
            message: "DIR/sigil.toml line 1: key 'approval-timeout': 0 is not a number of seconds (1-86400)"),
        FileVector(text: "port = 1\nport = 2", message: "DIR/sigil.toml line 2: key 'port' is already set on line 1"),
        FileVector(
            text: "[serve]\nport = 1",
            message: "DIR/sigil.toml line 1: sections ([table]) are not supported; write every key at the top level"),
        FileVector(text: "client = [\"ci\", \"deploy\"]\nallowed-host = []\ndev = true\n", message: nil),
    ]

    @Test(
        "File values are checked, errors naming the key and line",
        arguments: fileVectors)
    func fileValues(_ vector: FileVector) {
        let found = messages { () throws(ConfigurationError) in try resolve(file: vector.text) }
        #expect(found == (vector.message.map { [$0] } ?? []))
    }

    @Test func aMissingFileNamedInTheFileIsNamedWithKeyAndLine() {
        let found = messages { () throws(ConfigurationError) in
            try resolve(file: "tls-cert = \"/nonexistent.pem\"\ntls-key = \"/nonexistent.key\"")
        }
        #expect(
            found == [
                "DIR/sigil.toml line 1: key 'tls-cert': '/nonexistent.pem' does not exist",
                "DIR/sigil.toml line 2: key 'tls-key': '/nonexistent.key' does not exist",
            ])
    }

    @Test func theConfigFlagNamesAMissingFile() {
        let found = messages { () throws(ConfigurationError) in
            try resolve(["config": .string(directory + "/none.toml")])
        }
        #expect(found == ["--config: cannot read 'DIR/none.toml': no such file"])
    }

    @Test func theConfigFlagBeatsSIGIL_CONFIG() throws {
        let flagged = try file("flag.toml", "port = 11")
        let configuration = try resolve(
            ["config": .string(flagged)], environment: ["SIGIL_CONFIG": directory + "/missing.toml"])
        #expect(configuration.integer("port") == 11)
        #expect(configuration.file?.path == flagged)
    }

    @Test func everyErrorIsReportedAtOnceAndNothingIsApplied() {
        let found = messages { () throws(ConfigurationError) in
            try resolve(
                ["port": .string("x")], environment: ["SIGIL_UI_PORT": "y"], file: "host = \"name\"\nprot = 1\n")
        }
        #expect(
            found == [
                "--port: 'x' is not a port number (0-65535)",
                "SIGIL_UI_PORT: 'y' is not a port number (0-65535)",
                "DIR/sigil.toml line 1: key 'host': 'name' is not a numeric IPv4 or IPv6 address",
                "DIR/sigil.toml line 2: key 'prot' is unknown (did you mean 'port'?)",
            ])
    }

    @Test func aBadValueIsAnErrorEvenWhenAStrongerSourceOverridesIt() {
        let found = messages { () throws(ConfigurationError) in
            try resolve(["port": .string("1")], environment: ["SIGIL_PORT": "abc"])
        }
        #expect(found == ["SIGIL_PORT: 'abc' is not a port number (0-65535)"])
    }

    // MARK: Rules over several options

    struct RuleVector: CustomTestStringConvertible, Sendable {
        let given: [String: ConfigurationValue]
        let environment: [String: String]
        let message: String?
        var testDescription: String { "\(given) \(environment)" }
    }

    static let ruleVectors: [RuleVector] = [
        RuleVector(
            given: [:], environment: ["SIGIL_AUTO_APPROVE": "true"],
            message:
                "SIGIL_AUTO_APPROVE: auto-approve approves every request without asking; it is refused without dev (dev is false: default)"
        ),
        RuleVector(
            given: ["auto-approve": .boolean(true), "dev": .boolean(false)], environment: ["SIGIL_DEV": "1"],
            message:
                "--auto-approve: auto-approve approves every request without asking; it is refused without dev (dev is false: --no-dev)"
        ),
        RuleVector(given: ["auto-approve": .boolean(true)], environment: ["SIGIL_DEV": "1"], message: nil),
        RuleVector(
            given: ["auto-approve": .boolean(true), "dev": .boolean(true)], environment: ["SIGIL_APPROVE": "terminal"],
            message: "--auto-approve: auto-approve and approve = terminal exclude each other (approve: SIGIL_APPROVE)"),
        RuleVector(
            given: ["port": .string("8000")], environment: ["SIGIL_UI_PORT": "8000"],
            message: "SIGIL_UI_PORT: ui-port must differ from port (8000, --port)"),
        RuleVector(given: ["port": .string("0")], environment: ["SIGIL_UI_PORT": "0"], message: nil),
        RuleVector(
            given: ["journal": .boolean(false)], environment: [:],
            message:
                "--no-journal: the signing journal can be turned off only with dev, for benchmarks (dev is false: default)"
        ),
        RuleVector(given: ["journal": .boolean(false)], environment: ["SIGIL_DEV": "true"], message: nil),
        RuleVector(
            given: ["tls-cert": .string("/")], environment: [:],
            message: "--tls-cert: '/' is a directory, not a file"),
    ]

    @Test("Rules over several options name the field and its source", arguments: ruleVectors)
    func rules(_ vector: RuleVector) {
        let found = messages { () throws(ConfigurationError) in
            try resolve(vector.given, environment: vector.environment)
        }
        #expect(found == (vector.message.map { [$0] } ?? []))
    }

    @Test func tlsCertificateAndKeyGoTogether() throws {
        let certificate = try file("c.pem", "x")
        #expect(
            messages { () throws(ConfigurationError) in try resolve(environment: ["SIGIL_TLS_CERT": certificate]) }
                == ["SIGIL_TLS_CERT: tls-cert and tls-key go together; tls-key is not set"])
        #expect(
            messages { () throws(ConfigurationError) in try resolve(file: "tls-key = \"\(certificate)\"") }
                == ["DIR/sigil.toml line 1: tls-cert and tls-key go together; tls-cert is not set"])
        let both = try resolve(["tls-cert": .string(certificate)], environment: ["SIGIL_TLS_KEY": certificate])
        #expect(ServeSettings(both).tlsKey == certificate)
    }

    // MARK: Warnings, mapping, rendering

    @Test func unknownSIGILVariablesAreWarnedAboutWithTheClosestOption() {
        let warnings = ServeConfiguration.resolver.warnings(environment: [
            "SIGIL_PROT": "1", "SIGIL_CLIENTS": "a", "SIGIL_WHATEVER": "x", "SIGIL_HOME": "/h", "SIGIL_PORT": "1",
            "SIGIL_FUZZ_SEED": "3", "SIGIL_PASSWORD": "x", "HOME": "/root",
        ])
        #expect(
            warnings == [
                "SIGIL_CLIENTS is not a sigil setting and is ignored (did you mean SIGIL_CLIENT?)",
                "SIGIL_PROT is not a sigil setting and is ignored (did you mean SIGIL_PORT?)",
                "SIGIL_WHATEVER is not a sigil setting and is ignored",
            ])
    }

    @Test func theResolverRefusesATableTheCommandLineDoesNotMap() {
        var values = Self.commandLine()
        values.removeValue(forKey: "deny-host")
        values["colour"] = .some(nil)
        #expect {
            _ = try ServeConfiguration.resolver.resolve(commandLine: values, environment: [:])
        } throws: { error in
            let all = (error as? ConfigurationError)?.all ?? []
            return all.count == 2 && all.allSatisfy { $0.code == .unmapped }
        }
    }

    @Test func everyOptionHasADistinctNameAndVariable() {
        let names = ServeConfiguration.options.map(\.name)
        #expect(Set(names).count == names.count)
        #expect(ServeConfiguration.options.first { $0.name == "ui-port" }?.environmentVariable == "SIGIL_UI_PORT")
        #expect(ServeConfiguration.options.first { $0.name == "public-dir" }?.environmentVariable == "SIGIL_PUBLIC_DIR")
        #expect(ServeConfiguration.options.first { $0.name == "data-dir" }?.environmentVariable == "SIGIL_DATA_DIR")
    }

    @Test func theRenderingShowsEachValueWithItsSourceAndIsItselfAValidFile() throws {
        let configuration = try resolve(
            ["ui-port": .string("0")], environment: ["SIGIL_CLIENT": "ci"], file: "host = \"0.0.0.0\"\n")
        let text = configuration.rendered().replacingOccurrences(of: directory, with: "DIR")
        #expect(text.contains("ui-port = 0 "))
        #expect(text.contains("# --ui-port\n"))
        #expect(text.contains("client = [\"ci\"]") && text.contains("# SIGIL_CLIENT\n"))
        #expect(text.contains("host = \"0.0.0.0\"") && text.contains("# DIR/sigil.toml line 1\n"))
        #expect(text.contains("port = 9715") && text.contains("# default\n"))
        #expect(text.contains("# tls-cert is not set"))
        // Minus the config line (a file cannot name another), the output reads back as the same values.
        let reread = text.split(separator: "\n").filter { !$0.hasPrefix("config =") }.joined(separator: "\n")
        let again = try resolve(file: reread)
        for option in ServeConfiguration.options where option.name != "config" {
            #expect(again[option.name]?.value == configuration[option.name]?.value, "\(option.name)")
        }
    }

    @Test func secretValuesAreNeverPrintedNorEchoedInErrors() throws {
        let resolver = ConfigurationResolver(options: [
            ConfigurationOption("metrics-token", .string, secret: true, summary: "a secret"),
            ConfigurationOption("limit", .integer(1...9, noun: "a limit"), secret: true, summary: "a secret number"),
        ])
        let values: [String: ConfigurationValue?] = ["metrics-token": nil, "limit": nil]
        let configuration = try resolver.resolve(
            commandLine: values, environment: ["SIGIL_METRICS_TOKEN": "s3cret-value"])
        #expect(!configuration.rendered().contains("s3cret-value"))
        #expect(configuration.rendered().contains("metrics-token = \"(redacted)\""))
        #expect {
            _ = try resolver.resolve(commandLine: values, environment: ["SIGIL_LIMIT": "s3cret-value"])
        } throws: { error in
            "\(error)" == "SIGIL_LIMIT: the value is not a limit (1-9)"
        }
    }
}
