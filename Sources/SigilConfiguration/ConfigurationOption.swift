/// One option of a command, in every form it can be given: the flag `--<name>`, the environment
/// variable `SIGIL_<NAME>` (upper case, '-' → '_') and the config-file key `<name>`.
///
/// A command's options are a table of these (`ServeConfiguration.options`); adding an option is
/// adding a row there (plus the `@Option` the command line parser needs).
package struct ConfigurationOption: Sendable {
    /// Flag name without `--`, and the file key (`ui-port`).
    package let name: String
    /// Type and accepted values.
    package let kind: ConfigurationValueKind
    /// The built-in default, or nil when unset means something (described by `unsetMeaning`).
    package let defaultValue: ConfigurationValue?
    /// What it means when the option is not set and has no default value (for help and `--print-config`).
    package let unsetMeaning: String?
    /// One line for documentation.
    package let summary: String
    /// True when the value itself is a secret: never printed, never echoed in errors.
    package let isSecret: Bool
    /// Extra rule for each string (or list item) value: returns the reason it is refused.
    package let check: (@Sendable (String) -> String?)?
    /// Whether the option may be set in the config file (false for `config` itself).
    package let allowedInFile: Bool

    package init(
        _ name: String, _ kind: ConfigurationValueKind, default defaultValue: ConfigurationValue? = nil,
        unset unsetMeaning: String? = nil, secret isSecret: Bool = false, allowedInFile: Bool = true,
        summary: String, check: (@Sendable (String) -> String?)? = nil
    ) {
        self.name = name
        self.kind = kind
        self.defaultValue = defaultValue
        self.unsetMeaning = unsetMeaning
        self.summary = summary
        self.isSecret = isSecret
        self.check = check
        self.allowedInFile = allowedInFile
    }

    /// `--name`.
    package var flag: String { "--" + name }

    /// `SIGIL_NAME` (`ui-port` → `SIGIL_UI_PORT`).
    package var environmentVariable: String {
        "SIGIL_" + String(name.uppercased().map { $0 == "-" ? "_" : $0 })
    }

    /// The key in the config file.
    package var fileKey: String { name }

    /// The default as a person reads it: the built-in value (`9715`, `info`, `false`), else what
    /// leaving the option unset means. `--help` and docs/configuration.md show exactly this text
    /// (`OptionDocumentationTests` checks the documentation against it), so a default is written
    /// only in the option table.
    package var defaultDescription: String {
        if let defaultValue { return defaultValue.plainText }
        return unsetMeaning ?? "none"
    }

    /// The `--help` text: the summary, the accepted values (an integer's range, a choice's words,
    /// "repeatable" for a list) and the default, all taken from this row.
    package var help: String {
        switch kind {
        case .integer(let range, _):
            "\(summary) Range \(range.lowerBound)-\(range.upperBound); default: \(defaultDescription)."
        case .choice(let words):
            "\(summary) One of \(words.joined(separator: ", ")); default: \(defaultDescription)."
        case .list:
            "\(summary) Repeatable; default: \(defaultDescription)."
        case .string, .path, .boolean:
            "\(summary) Default: \(defaultDescription)."
        }
    }

    /// Runs `check` on a value (each item of a list).
    func checked(_ value: ConfigurationValue) -> String? {
        guard let check else { return nil }
        switch value {
        case .string(let text):
            return check(text)
        case .list(let items):
            for (index, item) in items.enumerated() {
                if let problem = check(item) { return items.count > 1 ? "item \(index + 1): \(problem)" : problem }
            }
            return nil
        case .integer, .boolean:
            return nil
        }
    }
}
