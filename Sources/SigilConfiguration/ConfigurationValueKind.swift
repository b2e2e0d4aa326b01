/// The type of an option and the values it accepts. Command-line and environment values arrive as
/// text and are parsed by `parse(text:)`; config-file values arrive typed (TOML) and are checked by
/// `accept(_:)`. Both apply the same rules, so a value means the same from every source.
package enum ConfigurationValueKind: Sendable {
    /// Any non-empty text.
    case string
    /// A file system path (non-empty), with what must exist there at start.
    case path(PathRequirement)
    /// A decimal integer in `range`; `noun` names it in messages ("a port number").
    case integer(ClosedRange<Int>, noun: String)
    /// `true`/`false` (text: also `1`/`0`); nothing else (`yes`, `on` are refused as ambiguous).
    case boolean
    /// One of a fixed set of words.
    case choice([String])
    /// A list of non-empty strings (environment: comma-separated; file: an array of strings).
    case list

    /// What must exist at a path option's value when the server starts.
    package enum PathRequirement: Sendable {
        /// Nothing checked (created when needed, such as the data directory).
        case none
        /// A regular file this process can read.
        case readableFile
        /// A directory.
        case directory
    }

    /// The TOML type name a file value must have, for messages.
    var expectedTOML: String {
        switch self {
        case .string, .path, .choice: "a string"
        case .integer: "an integer"
        case .boolean: "a boolean (true or false)"
        case .list: "an array of strings"
        }
    }

    /// "an integer (a port number, 0-65535)" and the like, for type errors.
    var expectedDescription: String {
        switch self {
        case .integer(let range, let noun): "an integer (\(noun), \(range.lowerBound)-\(range.upperBound))"
        case .choice(let words): "a string (one of \(words.joined(separator: ", ")))"
        default: expectedTOML
        }
    }

    /// Parses text from the command line or the environment (a list: comma-separated items).
    /// - Returns: the value, or the reason it is refused (naming the value unless `secret`).
    func parse(text: String, secret: Bool) -> Result<ConfigurationValue, Reason> {
        let shown = secret ? "the value" : "'\(text)'"
        switch self {
        case .string, .path:
            return text.isEmpty ? .failure(Reason("the value is empty")) : .success(.string(text))
        case .integer(let range, let noun):
            // Decimal digits with an optional '-' only: no '+', spaces, '0x' or '_'.
            let digits = text.hasPrefix("-") ? text.dropFirst() : Substring(text)
            guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }), let number = Int(text),
                range.contains(number)
            else {
                return .failure(Reason("\(shown) is not \(noun) (\(range.lowerBound)-\(range.upperBound))"))
            }
            return .success(.integer(number))
        case .boolean:
            switch text.lowercased() {
            case "true", "1": return .success(.boolean(true))
            case "false", "0": return .success(.boolean(false))
            default: return .failure(Reason("\(shown) is not a boolean (use true or false, or 1 or 0)"))
            }
        case .choice(let words):
            guard words.contains(text) else {
                return .failure(Reason("\(shown) is not one of \(words.joined(separator: ", "))"))
            }
            return .success(.string(text))
        case .list:
            let items = text.split(separator: ",", omittingEmptySubsequences: false).map {
                $0.trimmingCharacters(in: " \t")
            }
            if let empty = items.firstIndex(where: \.isEmpty) {
                return .failure(Reason("item \(empty + 1) of the comma-separated list is empty"))
            }
            return .success(.list(items))
        }
    }

    /// Checks a typed config-file value.
    /// - Returns: the value, or `.wrongType` / `.invalidValue` with the reason.
    func accept(_ value: ConfigurationFileValue, secret: Bool) -> Result<ConfigurationValue, Reason> {
        switch (self, value) {
        case (.string, .string(let text)), (.path, .string(let text)), (.choice, .string(let text)):
            return parse(text: text, secret: secret)
        case (.integer(let range, let noun), .integer(let number)):
            guard range.contains(number) else {
                return .failure(
                    Reason(
                        "\(secret ? "the value" : String(number)) is not \(noun) (\(range.lowerBound)-\(range.upperBound))"
                    ))
            }
            return .success(.integer(number))
        case (.boolean, .boolean(let flag)):
            return .success(.boolean(flag))
        case (.list, .array(let elements)):
            var items: [String] = []
            for (index, element) in elements.enumerated() {
                guard case .string(let text) = element else {
                    return .failure(
                        Reason(
                            "must be an array of strings; item \(index + 1) is \(element.typeName)", wrongType: true))
                }
                guard !text.isEmpty else { return .failure(Reason("item \(index + 1) of the array is empty")) }
                items.append(text)
            }
            return .success(.list(items))
        default:
            return .failure(Reason("must be \(expectedDescription), not \(value.typeName)", wrongType: true))
        }
    }

    /// A refusal: the text, and whether it is a type error (else a bad value).
    struct Reason: Error, Equatable {
        let text: String
        let wrongType: Bool
        init(_ text: String, wrongType: Bool = false) {
            self.text = text
            self.wrongType = wrongType
        }
    }
}

extension StringProtocol {
    fileprivate func trimmingCharacters(in set: String) -> String {
        var slice = Substring(self)
        while let first = slice.first, set.contains(first) { slice.removeFirst() }
        while let last = slice.last, set.contains(last) { slice.removeLast() }
        return String(slice)
    }
}
