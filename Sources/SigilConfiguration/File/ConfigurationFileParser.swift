/// Parses the config file: a strict subset of TOML 1.0 (https://toml.io/en/v1.0.0).
///
/// Accepted: UTF-8 text; blank lines; `#` comments; top-level `key = value` lines with bare keys
/// (`A-Za-z0-9_-`); values that are basic strings (`"…"` with TOML's escapes), literal strings
/// (`'…'`), decimal integers (`_` between digits allowed), booleans (`true`/`false`), and arrays
/// of those (over several lines, with comments and a trailing comma). Everything else TOML has —
/// tables (`[section]`), dotted or quoted keys, floats, dates, multi-line strings, inline tables,
/// hexadecimal integers — is refused with its line number rather than misread. Duplicate keys are
/// errors (TOML §Keys: "Defining a key multiple times is invalid").
///
/// Untrusted input: never traps; at most `maxBytes` bytes; arrays nest at most `maxDepth` deep.
package struct ConfigurationFileParser {
    /// Largest file read (a config file is a few hundred bytes).
    package static let maxBytes = 65_536
    /// Deepest array nesting.
    package static let maxDepth = 4

    private let path: String
    private let scalars: [Unicode.Scalar]
    private var index = 0
    private var line = 1

    /// Parses `bytes`, naming `path` in errors.
    /// - Throws: `ConfigurationError` `.syntax` (with the line) or `.duplicateKey`.
    package static func parse(_ bytes: [UInt8], path: String) throws(ConfigurationError) -> [ConfigurationFileEntry] {
        guard bytes.count <= maxBytes else {
            throw ConfigurationError(
                .syntax, source: .file(path: path, line: 0), field: nil,
                "the file is over \(maxBytes) bytes; a config file is a few lines")
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw ConfigurationError(
                .syntax, source: .file(path: path, line: 0), field: nil, "the file is not UTF-8 text")
        }
        var parser = ConfigurationFileParser(path: path, scalars: Array(text.unicodeScalars))
        return try parser.parseFile()
    }

    private init(path: String, scalars: [Unicode.Scalar]) {
        self.path = path
        self.scalars = scalars
    }

    private var current: Unicode.Scalar? { index < scalars.count ? scalars[index] : nil }

    private func peek(_ offset: Int) -> Unicode.Scalar? {
        index + offset < scalars.count ? scalars[index + offset] : nil
    }

    private func fail(_ reason: String, field: String? = nil) -> ConfigurationError {
        ConfigurationError(.syntax, source: .file(path: path, line: line), field: field, reason)
    }

    private mutating func parseFile() throws(ConfigurationError) -> [ConfigurationFileEntry] {
        if current == "\u{FEFF}" { index += 1 }  // a UTF-8 byte order mark
        var entries: [ConfigurationFileEntry] = []
        var seen: [String: Int] = [:]
        while current != nil {
            skipSpaces()
            guard let scalar = current else { break }
            if scalar == "#" || scalar == "\n" || scalar == "\r" {
                try endOfLine()
                continue
            }
            if scalar == "[" {
                throw fail("sections ([table]) are not supported; write every key at the top level")
            }
            let keyLine = line
            let key = try parseKey()
            skipSpaces()
            guard current == "=" else {
                if current == "." { throw fail("dotted keys are not supported (key '\(key)')", field: key) }
                throw fail("expected '=' after key '\(key)'", field: key)
            }
            index += 1
            skipSpaces()
            let value = try parseValue(key: key, depth: 0)
            skipSpaces()
            try endOfLine()
            if let first = seen[key] {
                throw ConfigurationError(
                    .duplicateKey, source: .file(path: path, line: keyLine), field: key,
                    "key '\(key)' is already set on line \(first)")
            }
            seen[key] = keyLine
            entries.append(ConfigurationFileEntry(key: key, value: value, line: keyLine))
        }
        return entries
    }

    private mutating func skipSpaces() {
        while let scalar = current, scalar == " " || scalar == "\t" { index += 1 }
    }

    /// An optional comment, then a newline (LF or CRLF) or the end of the file.
    private mutating func endOfLine() throws(ConfigurationError) {
        if current == "#" {
            while let scalar = current, scalar != "\n" && scalar != "\r" {
                // TOML §Comment: control characters other than tab are not permitted in comments.
                if isControl(scalar) { throw fail("control character U+\(hex(scalar)) in a comment") }
                index += 1
            }
        }
        switch current {
        case nil:
            return
        case "\n":
            index += 1
            line += 1
        case "\r" where peek(1) == "\n":
            index += 2
            line += 1
        case "\r":
            throw fail("a carriage return not followed by a line feed")
        default:
            throw fail("unexpected text after the value; one 'key = value' per line")
        }
    }

    private mutating func parseKey() throws(ConfigurationError) -> String {
        var key = ""
        while let scalar = current, isBareKey(scalar) {
            key.unicodeScalars.append(scalar)
            index += 1
        }
        if key.isEmpty {
            if current == "\"" || current == "'" { throw fail("quoted keys are not supported") }
            throw fail("expected a key (letters, digits, '-' and '_')")
        }
        return key
    }

    private func isBareKey(_ scalar: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar) || scalar == "-"
            || scalar == "_"
    }

    private func isControl(_ scalar: Unicode.Scalar) -> Bool {
        (scalar.value < 0x20 && scalar != "\t") || scalar.value == 0x7f
    }

    private func hex(_ scalar: Unicode.Scalar) -> String {
        let digits = String(scalar.value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }

    private mutating func parseValue(key: String, depth: Int) throws(ConfigurationError) -> ConfigurationFileValue {
        guard let scalar = current, scalar != "\n", scalar != "\r", scalar != "#" else {
            throw fail("key '\(key)' has no value", field: key)
        }
        switch scalar {
        case "\"":
            if peek(1) == "\"" && peek(2) == "\"" { throw fail("multi-line strings are not supported", field: key) }
            return .string(try parseBasicString(key: key))
        case "'":
            if peek(1) == "'" && peek(2) == "'" { throw fail("multi-line strings are not supported", field: key) }
            return .string(try parseLiteralString(key: key))
        case "[":
            return try parseArray(key: key, depth: depth + 1)
        case "{":
            throw fail("inline tables are not supported (key '\(key)')", field: key)
        default:
            return try parseBareValue(key: key)
        }
    }

    private mutating func parseBasicString(key: String) throws(ConfigurationError) -> String {
        index += 1
        var text = ""
        while true {
            guard let scalar = current, scalar != "\n", scalar != "\r" else {
                throw fail("unterminated string (key '\(key)')", field: key)
            }
            index += 1
            if scalar == "\"" { return text }
            if isControl(scalar) { throw fail("control character U+\(hex(scalar)) in a string", field: key) }
            if scalar != "\\" {
                text.unicodeScalars.append(scalar)
                continue
            }
            guard let escape = current else { throw fail("unterminated string (key '\(key)')", field: key) }
            index += 1
            switch escape {
            case "b": text += "\u{08}"
            case "t": text += "\t"
            case "n": text += "\n"
            case "f": text += "\u{0C}"
            case "r": text += "\r"
            case "\"": text += "\""
            case "\\": text += "\\"
            case "u": text.unicodeScalars.append(try parseUnicodeEscape(digits: 4, key: key))
            case "U": text.unicodeScalars.append(try parseUnicodeEscape(digits: 8, key: key))
            default: throw fail("unknown escape '\\\(escape)' in a string", field: key)
            }
        }
    }

    private mutating func parseUnicodeEscape(digits: Int, key: String) throws(ConfigurationError) -> Unicode.Scalar {
        var value: UInt32 = 0
        for _ in 0..<digits {
            guard let scalar = current, scalar.isASCII, let digit = Int(String(scalar), radix: 16) else {
                throw fail("\\u and \\U take \(digits) hexadecimal digits", field: key)
            }
            value = value &* 16 &+ UInt32(digit)
            index += 1
        }
        // TOML §String: "Any Unicode character may be escaped … must be a Unicode scalar value."
        guard let scalar = Unicode.Scalar(value) else {
            throw fail(
                "\\u escape U+\(String(value, radix: 16, uppercase: true)) is not a Unicode scalar value", field: key)
        }
        return scalar
    }

    private mutating func parseLiteralString(key: String) throws(ConfigurationError) -> String {
        index += 1
        var text = ""
        while true {
            guard let scalar = current, scalar != "\n", scalar != "\r" else {
                throw fail("unterminated string (key '\(key)')", field: key)
            }
            index += 1
            if scalar == "'" { return text }
            if isControl(scalar) { throw fail("control character U+\(hex(scalar)) in a string", field: key) }
            text.unicodeScalars.append(scalar)
        }
    }

    private mutating func parseArray(key: String, depth: Int) throws(ConfigurationError) -> ConfigurationFileValue {
        guard depth <= Self.maxDepth else { throw fail("arrays nested too deep (key '\(key)')", field: key) }
        index += 1
        var elements: [ConfigurationFileValue] = []
        while true {
            try skipArrayWhitespace()
            guard let scalar = current else { throw fail("unterminated array (key '\(key)')", field: key) }
            if scalar == "]" {
                index += 1
                return .array(elements)
            }
            elements.append(try parseValue(key: key, depth: depth))
            try skipArrayWhitespace()
            switch current {
            case ",": index += 1
            case "]": continue
            case nil: throw fail("unterminated array (key '\(key)')", field: key)
            default: throw fail("expected ',' or ']' in the array (key '\(key)')", field: key)
            }
        }
    }

    /// Spaces, newlines and comments between array elements (TOML §Array).
    private mutating func skipArrayWhitespace() throws(ConfigurationError) {
        while let scalar = current {
            if scalar == " " || scalar == "\t" {
                index += 1
            } else if scalar == "#" || scalar == "\n" || scalar == "\r" {
                try endOfLine()
            } else {
                return
            }
        }
    }

    /// `true`, `false` or a decimal integer; other bare words are named in the error.
    private mutating func parseBareValue(key: String) throws(ConfigurationError) -> ConfigurationFileValue {
        var word = ""
        while let scalar = current, scalar != " ", scalar != "\t", scalar != "\n", scalar != "\r", scalar != "#",
            scalar != ",", scalar != "]"
        {
            word.unicodeScalars.append(scalar)
            index += 1
        }
        switch word {
        case "true": return .boolean(true)
        case "false": return .boolean(false)
        default: break
        }
        if let number = Self.decimalInteger(word) { return .integer(number) }
        let lower = word.lowercased()
        if lower.hasPrefix("0x") || lower.hasPrefix("0o") || lower.hasPrefix("0b") {
            throw fail("only decimal integers are supported (key '\(key)')", field: key)
        }
        if word.first.map({ $0.isNumber || $0 == "+" || $0 == "-" }) ?? false
            || ["inf", "nan", "+inf", "-inf", "+nan", "-nan"].contains(word)
        {
            if word.allSatisfy({ $0.isNumber || "+-_".contains($0) }) {
                throw fail("'\(word)' is not a valid integer (key '\(key)')", field: key)
            }
            throw fail(
                "'\(word)' is not a supported value (floats and dates are not supported; key '\(key)')", field: key)
        }
        throw fail("'\(word)' is not a value; strings are quoted (key '\(key)')", field: key)
    }

    /// TOML §Integer: `[+-]?(0|[1-9](_?[0-9])*)`, within 64 bits.
    static func decimalInteger(_ word: String) -> Int? {
        var digits = Substring(word)
        var negative = false
        if let sign = digits.first, sign == "+" || sign == "-" {
            negative = sign == "-"
            digits = digits.dropFirst()
        }
        guard let first = digits.first, first.isASCII, first.isNumber else { return nil }
        if first == "0" && digits.count > 1 { return nil }  // leading zeros are invalid
        var value = 0
        var previousWasDigit = false
        for character in digits {
            if character == "_" {
                guard previousWasDigit else { return nil }
                previousWasDigit = false
                continue
            }
            guard character.isASCII, let digit = character.wholeNumberValue else { return nil }
            let (times, overflow1) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) =
                negative ? times.subtractingReportingOverflow(digit) : times.addingReportingOverflow(digit)
            guard !overflow1 && !overflow2 else { return nil }
            value = sum
            previousWasDigit = true
        }
        return previousWasDigit ? value : nil
    }
}
