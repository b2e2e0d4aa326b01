/// A typed option value, after parsing and checking.
package enum ConfigurationValue: Equatable, Hashable, Sendable {
    case string(String)
    case integer(Int)
    case boolean(Bool)
    case list([String])

    /// The value as TOML (`"text"`, `42`, `true`, `["a", "b"]`), as `--print-config` shows it.
    package var toml: String {
        switch self {
        case .string(let text): TOMLText.quoted(text)
        case .integer(let number): String(number)
        case .boolean(let flag): flag ? "true" : "false"
        case .list(let items): "[" + items.map(TOMLText.quoted).joined(separator: ", ") + "]"
        }
    }

    /// The value as plain text for people (`9715`, `info`, `false`, `a, b`), as `--help` and
    /// docs/configuration.md show defaults.
    package var plainText: String {
        switch self {
        case .string(let text): text
        case .integer(let number): String(number)
        case .boolean(let flag): flag ? "true" : "false"
        case .list(let items): items.joined(separator: ", ")
        }
    }
}

/// TOML string quoting for output (TOML 1.0 §String, basic strings).
private enum TOMLText {
    static func quoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case "\r": out += "\\r"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7f {
                    out +=
                        "\\u" + String(repeating: "0", count: 4 - String(scalar.value, radix: 16).count)
                        + String(scalar.value, radix: 16, uppercase: true)
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }
}
