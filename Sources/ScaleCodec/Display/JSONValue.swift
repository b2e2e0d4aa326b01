/// A JSON document with ordered object keys, for `--json` output of decoded values.
/// Serialisation escapes every control character; numbers are kept as decimal text so 128-bit
/// amounts are never rounded.
public indirect enum JSONValue: Hashable, Sendable {
    case null
    case bool(Bool)
    /// A number as decimal text (written without quotes).
    case number(String)
    case string(String)
    case array([JSONValue])
    case object([(String, JSONValue)])

    /// Compact JSON text.
    public var serialized: String {
        var out = ""
        write(to: &out, indent: nil, level: 0)
        return out
    }

    /// JSON text indented by two spaces.
    public var pretty: String {
        var out = ""
        write(to: &out, indent: "  ", level: 0)
        return out
    }

    /// The value of `key` when this is an object.
    public subscript(key: String) -> JSONValue? {
        if case .object(let pairs) = self { return pairs.first { $0.0 == key }?.1 }
        return nil
    }

    private func write(to out: inout String, indent: String?, level: Int) {
        let nl = indent == nil ? "" : "\n"
        let pad = { (n: Int) in String(repeating: indent ?? "", count: n) }
        switch self {
        case .null: out += "null"
        case .bool(let b): out += b ? "true" : "false"
        case .number(let n): out += n
        case .string(let s): Self.quote(s, into: &out)
        case .array(let items):
            if items.isEmpty {
                out += "[]"
                return
            }
            out += "[" + nl
            for (i, item) in items.enumerated() {
                out += pad(level + 1)
                item.write(to: &out, indent: indent, level: level + 1)
                out += (i == items.count - 1 ? "" : ",") + nl
            }
            out += pad(level) + "]"
        case .object(let pairs):
            if pairs.isEmpty {
                out += "{}"
                return
            }
            out += "{" + nl
            for (i, (k, v)) in pairs.enumerated() {
                out += pad(level + 1)
                Self.quote(k, into: &out)
                out += indent == nil ? ":" : ": "
                v.write(to: &out, indent: indent, level: level + 1)
                out += (i == pairs.count - 1 ? "" : ",") + nl
            }
            out += pad(level) + "}"
        }
    }

    static func quote(_ s: String, into out: inout String) {
        out += "\""
        for u in s.unicodeScalars {
            switch u {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where u.value < 0x20 || u.value == 0x7F || (0x2028...0x2029).contains(u.value):
                let hex = String(u.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(u)
            }
        }
        out += "\""
    }

    public static func == (a: JSONValue, b: JSONValue) -> Bool { a.serialized == b.serialized }
    public func hash(into h: inout Hasher) { h.combine(serialized) }
}
