/// The effective configuration: for every option that has a value, the value and where it came
/// from. Built by `ConfigurationResolver`, which has already checked every value and rule.
package struct ResolvedConfiguration: Sendable {
    /// A value and its source.
    package struct Entry: Equatable, Sendable {
        package let value: ConfigurationValue
        package let source: ConfigurationSource
    }

    /// The option table, in order.
    package let options: [ConfigurationOption]
    /// Option name → entry; options without a value (and no default) are absent.
    package let entries: [String: Entry]
    /// The config file read, if any.
    package let file: ConfigurationFile?

    package init(options: [ConfigurationOption], entries: [String: Entry], file: ConfigurationFile?) {
        self.options = options
        self.entries = entries
        self.file = file
    }

    package subscript(name: String) -> Entry? { entries[name] }

    package func string(_ name: String) -> String? {
        if case .string(let text)? = entries[name]?.value { return text }
        return nil
    }

    package func integer(_ name: String) -> Int? {
        if case .integer(let number)? = entries[name]?.value { return number }
        return nil
    }

    package func boolean(_ name: String) -> Bool? {
        if case .boolean(let flag)? = entries[name]?.value { return flag }
        return nil
    }

    package func list(_ name: String) -> [String]? {
        if case .list(let items)? = entries[name]?.value { return items }
        return nil
    }

    /// Where `name`'s value came from (`.defaultValue` when unset).
    package func source(of name: String) -> ConfigurationSource { entries[name]?.source ?? .defaultValue }

    /// The source label of `name` as a flag/variable/file reference, or "default".
    package func origin(of name: String) -> String { source(of: name).label }

    /// The effective configuration as TOML, each value followed by its source as a comment;
    /// secret values are replaced by `"(redacted)"`. Unset options appear as comments. The output
    /// (minus secrets) is itself a valid config file.
    package func rendered() -> String {
        var rows: [(String, String)] = []
        for option in options {
            if let entry = entries[option.name] {
                let value = option.isSecret ? "\"(redacted)\"" : entry.value.toml
                rows.append(("\(option.name) = \(value)", entry.source.label))
            } else {
                rows.append(("# \(option.name) is not set", option.unsetMeaning ?? "no default"))
            }
        }
        let width = min(48, rows.map(\.0.count).max() ?? 0)
        var out = "# sigil serve: effective configuration (value, then its source)\n"
        for (text, note) in rows {
            let padding = String(repeating: " ", count: max(1, width - text.count + 2))
            out += text + padding + "# " + note + "\n"
        }
        return out
    }
}
