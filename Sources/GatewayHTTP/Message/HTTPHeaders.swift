/// An ordered list of header fields with case-insensitive lookup by name (RFC 9110 §5.1).
///
/// Request headers come from the parser, which has already rejected names that are not tokens and
/// values with CR, LF, NUL or other control characters. Response headers are set by handlers; the
/// response writer refuses (answers 500 instead) any field that would break framing, so a handler
/// cannot inject a header by putting CR/LF in a value.
package struct HTTPHeaders: Sendable, Sequence, ExpressibleByDictionaryLiteral, CustomStringConvertible {
    /// One field line. `name` keeps the spelling it was given.
    package struct Field: Sendable, Equatable {
        package var name: String
        package var value: String
        package init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    /// The fields in order of appearance.
    package private(set) var fields: [Field]

    package init() { fields = [] }

    package init(_ pairs: [(String, String)]) {
        fields = pairs.map { Field(name: $0.0, value: $0.1) }
    }

    /// Creates headers from field lines, in order.
    package init(fields: [Field]) { self.fields = fields }

    package init(dictionaryLiteral elements: (String, String)...) {
        self.init(elements)
    }

    /// The number of field lines.
    package var count: Int { fields.count }

    package func makeIterator() -> IndexingIterator<[Field]> { fields.makeIterator() }

    /// The first value of the field `name`, compared ASCII case-insensitively.
    package subscript(name: String) -> String? {
        for field in fields where field.name.asciiCaseInsensitiveEquals(name) { return field.value }
        return nil
    }

    /// All values of the field `name`, in order.
    package func values(_ name: String) -> [String] {
        fields.filter { $0.name.asciiCaseInsensitiveEquals(name) }.map(\.value)
    }

    /// Whether a field `name` is present.
    package func contains(_ name: String) -> Bool { self[name] != nil }

    /// Appends a field line (keeps existing ones with the same name).
    package mutating func add(_ name: String, _ value: String) {
        fields.append(Field(name: name, value: value))
    }

    /// Replaces every field `name` by one field with `value`.
    package mutating func set(_ name: String, _ value: String) {
        remove(name)
        fields.append(Field(name: name, value: value))
    }

    /// Removes every field `name`.
    package mutating func remove(_ name: String) {
        fields.removeAll { $0.name.asciiCaseInsensitiveEquals(name) }
    }

    /// Whether a comma-separated list field (`Connection`, `Accept-Encoding`, …) contains `token`,
    /// compared case-insensitively and ignoring parameters after `;`.
    package func listContains(_ name: String, token: String) -> Bool {
        for value in values(name) {
            for element in value.split(separator: ",") {
                let item = element.split(separator: ";", maxSplits: 1).first ?? ""
                if item.trimmingOWS().asciiCaseInsensitiveEquals(token) { return true }
            }
        }
        return false
    }

    /// The field lines for logs and debugging, with the values of credential-carrying fields
    /// (`Authorization`, `Proxy-Authorization`, `Cookie`, `Set-Cookie`, and any name containing
    /// `token` or `session`, such as `X-Sigil-Token`) replaced by `<redacted>`: tokens are never logged.
    package var description: String {
        fields.map { "\($0.name): \(Self.isCredential($0.name) ? "<redacted>" : $0.value)" }.joined(separator: "\n")
    }

    /// Whether a field of this name carries a credential whose value must not be printed.
    package static func isCredential(_ name: String) -> Bool {
        let lower = name.lowercased()
        return ["authorization", "proxy-authorization", "cookie", "set-cookie"].contains(lower)
            || lower.contains("token") || lower.contains("session")
    }
}

extension StringProtocol {
    /// ASCII case-insensitive equality, without allocating.
    func asciiCaseInsensitiveEquals(_ other: some StringProtocol) -> Bool {
        // Most header-name comparisons differ in length: refuse those before walking any byte.
        if utf8.count != other.utf8.count { return false }
        var a = utf8.makeIterator()
        var b = other.utf8.makeIterator()
        while true {
            switch (a.next(), b.next()) {
            case (nil, nil): return true
            case let (x?, y?):
                if x == y { continue }
                let lx = (x >= 65 && x <= 90) ? x | 0x20 : x
                let ly = (y >= 65 && y <= 90) ? y | 0x20 : y
                if lx != ly { return false }
            default: return false
            }
        }
    }

    /// The string without leading and trailing SP/HTAB (RFC 9110 §5.6.3 OWS).
    func trimmingOWS() -> Substring {
        let s = Substring(self)
        guard let start = s.firstIndex(where: { $0 != " " && $0 != "\t" }) else { return s[s.endIndex...] }
        guard let end = s.lastIndex(where: { $0 != " " && $0 != "\t" }) else { return s[s.endIndex...] }
        return s[start...end]
    }
}
