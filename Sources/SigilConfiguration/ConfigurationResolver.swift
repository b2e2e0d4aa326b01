import Foundation

/// Merges the command line, the environment and the config file into one checked configuration.
///
/// Precedence, per option: command-line flag > `SIGIL_<NAME>` > config-file key > default. A list
/// from a stronger source replaces a weaker one (lists are not concatenated). Every value given, in
/// every source, must parse and pass its option's check, even when a stronger source overrides it
/// (a typo in the file is reported today, not the day the flag is dropped). File existence checks
/// and the cross-option rules apply to the effective values. All errors are collected and thrown
/// together; nothing is half-applied.
///
/// An empty environment variable (`SIGIL_HOST=`) counts as unset, as compose files use it.
package struct ConfigurationResolver: Sendable {
    /// The option table.
    package let options: [ConfigurationOption]
    /// Rules over several options.
    package let rules: [ConfigurationRule]
    /// `SIGIL_*` variables read elsewhere (no "unknown variable" warning for them).
    package let otherVariables: Set<String>
    /// `SIGIL_*` variables refused with an error, and why (e.g. `SIGIL_PASSWORD`).
    package let refusedVariables: [String: String]
    /// The option naming the config file (command line and environment only).
    package let configOption: String

    package init(
        options: [ConfigurationOption], rules: [ConfigurationRule] = [], otherVariables: Set<String> = [],
        refusedVariables: [String: String] = [:], configOption: String = "config"
    ) {
        self.options = options
        self.rules = rules
        self.otherVariables = otherVariables
        self.refusedVariables = refusedVariables
        self.configOption = configOption
    }

    /// Resolves the effective configuration.
    /// - Parameters:
    ///   - commandLine: for every option of the table, the value given on the command line (text
    ///     as `.string`, a flag as `.boolean`, a repeatable option as `.list`), or nil when not given.
    ///   - environment: the process environment.
    /// - Throws: `ConfigurationError` (`.several` when more than one problem) naming each field and source.
    package func resolve(commandLine: [String: ConfigurationValue?], environment: [String: String])
        throws(ConfigurationError) -> ResolvedConfiguration
    {
        var errors: [ConfigurationError] = []
        let names = Set(options.map(\.name))
        for option in options where commandLine.index(forKey: option.name) == nil {
            errors.append(
                ConfigurationError(
                    .unmapped, source: .commandLine(flag: option.flag), field: option.name,
                    "option '\(option.name)' has no command-line mapping"))
        }
        for name in commandLine.keys where !names.contains(name) {
            errors.append(
                ConfigurationError(
                    .unmapped, source: .commandLine(flag: "--" + name), field: name,
                    "'\(name)' is not in the option table"))
        }
        if !errors.isEmpty { throw .combining(errors) }

        var candidates: [String: [ResolvedConfiguration.Entry]] = [:]
        func add(
            _ option: ConfigurationOption, _ parsed: Result<ConfigurationValue, ConfigurationValueKind.Reason>,
            source: ConfigurationSource, describe: (String) -> String = { $0 }
        ) {
            switch parsed {
            case .success(let value):
                if let problem = option.checked(value) {
                    errors.append(
                        ConfigurationError(.invalidValue, source: source, field: option.name, describe(problem)))
                } else {
                    candidates[option.name, default: []].append(.init(value: value, source: source))
                }
            case .failure(let reason):
                errors.append(
                    ConfigurationError(
                        reason.wrongType ? .wrongType : .invalidValue, source: source, field: option.name,
                        describe(reason.text)))
            }
        }

        // 1. Command line.
        for option in options {
            guard let given = commandLine[option.name], let value = given else { continue }
            let source = ConfigurationSource.commandLine(flag: Self.flag(option, value))
            switch (option.kind, value) {
            case (.list, .list(let items)):
                add(option, Self.nonEmpty(items), source: source)
            case (.boolean, .boolean), (.list, _), (.boolean, _):
                add(option, .success(value), source: source)
            case (_, .string(let text)):
                add(option, option.kind.parse(text: text, secret: option.isSecret), source: source)
            default:
                add(option, .success(value), source: source)
            }
        }
        // 2. Environment.
        for (variable, reason) in refusedVariables.sorted(by: { $0.key < $1.key })
        where !(environment[variable] ?? "").isEmpty {
            errors.append(
                ConfigurationError(.refusedSecret, source: .environment(variable: variable), field: nil, reason))
        }
        for option in options {
            let variable = option.environmentVariable
            guard let text = environment[variable], !text.isEmpty else { continue }
            add(
                option, option.kind.parse(text: text, secret: option.isSecret), source: .environment(variable: variable)
            )
        }
        // 3. The config file (read only when named; see `configOption`).
        var file: ConfigurationFile?
        if let pathEntry = candidates[configOption]?.min(by: { $0.source.rank < $1.source.rank }),
            case .string(let path) = pathEntry.value
        {
            do {
                let loaded = try ConfigurationFile.load(path: path, pathSource: pathEntry.source)
                file = loaded
                for entry in loaded.entries {
                    let source = ConfigurationSource.file(path: loaded.path, line: entry.line)
                    guard let option = options.first(where: { $0.fileKey == entry.key && $0.allowedInFile }) else {
                        errors.append(
                            ConfigurationError(
                                .unknownKey, source: source, field: entry.key,
                                "key '\(entry.key)' is unknown" + suggestion(forKey: entry.key)))
                        continue
                    }
                    add(option, option.kind.accept(entry.value, secret: option.isSecret), source: source) {
                        $0.hasPrefix("must be") ? "key '\(entry.key)' " + $0 : "key '\(entry.key)': " + $0
                    }
                }
            } catch {
                errors.append(error)
            }
        }
        // 4. Defaults, and the strongest source wins.
        var entries: [String: ResolvedConfiguration.Entry] = [:]
        for option in options {
            if let best = candidates[option.name]?.min(by: { $0.source.rank < $1.source.rank }) {
                entries[option.name] = best
            } else if let value = option.defaultValue {
                entries[option.name] = .init(value: value, source: .defaultValue)
            }
        }
        if !errors.isEmpty { throw .combining(errors) }
        // 5. Files that must exist, then the rules, on the effective values.
        for option in options {
            guard case .path(let requirement) = option.kind, let entry = entries[option.name],
                case .string(let path) = entry.value, option.name != configOption
            else { continue }
            if let problem = Self.problem(path: path, requirement) {
                errors.append(
                    ConfigurationError(
                        .unreadableFile, source: entry.source, field: option.name,
                        (entry.source.rank == 2 ? "key '\(option.name)': " : "") + "'\(path)' \(problem)"))
            }
        }
        let configuration = ResolvedConfiguration(options: options, entries: entries, file: file)
        if errors.isEmpty {
            errors = rules.compactMap { $0.check(configuration) }
        }
        if !errors.isEmpty { throw .combining(errors) }
        return configuration
    }

    /// Warnings for `SIGIL_*` variables that are no setting (a misspelt option is silently
    /// ignored otherwise), each with the closest option's variable when one is near.
    package func warnings(environment: [String: String]) -> [String] {
        let known = Set(options.map(\.environmentVariable)).union(otherVariables).union(refusedVariables.keys)
        return environment.keys.filter { $0.hasPrefix("SIGIL_") && !known.contains($0) }.sorted().map { variable in
            let near = Self.closest(to: variable, among: options.map(\.environmentVariable))
            return "\(variable) is not a sigil setting and is ignored"
                + (near.map { " (did you mean \($0)?)" } ?? "")
        }
    }

    /// `--dev` / `--no-dev` for a boolean given false, else `--name`.
    private static func flag(_ option: ConfigurationOption, _ value: ConfigurationValue) -> String {
        if case .boolean(false) = value { return "--no-" + option.name }
        return option.flag
    }

    private static func nonEmpty(_ items: [String]) -> Result<ConfigurationValue, ConfigurationValueKind.Reason> {
        if items.contains(where: \.isEmpty) { return .failure(.init("an item is empty")) }
        return .success(.list(items))
    }

    private func suggestion(forKey key: String) -> String {
        let keys = options.filter(\.allowedInFile).map(\.fileKey)
        if key == configOption { return " (the config file cannot name another; use --config or SIGIL_CONFIG)" }
        return Self.closest(to: key, among: keys).map { " (did you mean '\($0)'?)" } ?? ""
    }

    /// The candidate within edit distance 2 (ignoring case and '-' versus '_'), if one.
    static func closest(to word: String, among candidates: [String]) -> String? {
        func normal(_ text: String) -> [Character] {
            Array(text.lowercased().map { $0 == "_" ? "-" : $0 })
        }
        let target = normal(word)
        let scored = candidates.map { ($0, distance(target, normal($0))) }.filter { $0.1 <= 2 }
        return scored.min(by: { $0.1 < $1.1 })?.0
    }

    /// Levenshtein distance.
    static func distance(_ a: [Character], _ b: [Character]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous = Array(0...b.count)
        for (i, ca) in a.enumerated() {
            var row = [i + 1]
            for (j, cb) in b.enumerated() {
                row.append(min(previous[j + 1] + 1, row[j] + 1, previous[j] + (ca == cb ? 0 : 1)))
            }
            previous = row
        }
        return previous[b.count]
    }

    /// Why `path` does not meet `requirement`, or nil.
    static func problem(path: String, _ requirement: ConfigurationValueKind.PathRequirement) -> String? {
        var isDirectory: ObjCBool = false
        switch requirement {
        case .none:
            return nil
        case .directory:
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
                return "does not exist"
            }
            return isDirectory.boolValue ? nil : "is not a directory"
        case .readableFile:
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
                return "does not exist"
            }
            if isDirectory.boolValue { return "is a directory, not a file" }
            return FileManager.default.isReadableFile(atPath: path) ? nil : "is not readable"
        }
    }
}
