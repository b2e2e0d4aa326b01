/// Where a value came from, in precedence order: a command-line flag beats an environment
/// variable, which beats the config file, which beats the built-in default.
package enum ConfigurationSource: Equatable, Hashable, Sendable {
    /// A command-line flag, e.g. `--port`.
    case commandLine(flag: String)
    /// An environment variable, e.g. `SIGIL_PORT`.
    case environment(variable: String)
    /// The config file at `path` (as given), line `line` (1-based; 0 when about the whole file).
    case file(path: String, line: Int)
    /// The option's built-in default.
    case defaultValue

    /// `--port`, `SIGIL_PORT`, `sigil.toml line 4`, `sigil.toml` or `default`.
    package var label: String {
        switch self {
        case .commandLine(let flag): flag
        case .environment(let variable): variable
        case .file(let path, let line): line > 0 ? "\(path) line \(line)" : path
        case .defaultValue: "default"
        }
    }

    /// Lower is stronger (command line 0 … default 3).
    package var rank: Int {
        switch self {
        case .commandLine: 0
        case .environment: 1
        case .file: 2
        case .defaultValue: 3
        }
    }
}
