/// ``JSONValue`` → JSON text. Compact by default; keys in their own order unless sorted keys are asked
/// for (deterministic output for digests and tests). Strings escape `"`, `\`, every control
/// character, and the invisible characters that can rewrite a terminal or reorder what a person reads
/// (DEL, C1 controls, U+2028/2029, bidirectional controls: Trojan Source, CVE-2021-42574) as `\uXXXX`
/// (the same value to a JSON reader). `/` is not escaped.
package struct JSONWriteOptions: OptionSet, Sendable, Hashable {
    package let rawValue: Int
    package init(rawValue: Int) { self.rawValue = rawValue }
    /// Object keys in code-unit order.
    package static let sortedKeys = JSONWriteOptions(rawValue: 1)
    /// Two-space indentation and a newline per member.
    package static let pretty = JSONWriteOptions(rawValue: 2)
}

extension JSONValue {
    /// JSON text as bytes.
    package func encoded(_ options: JSONWriteOptions = []) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(256)
        write(into: &out, options: options, level: 0)
        return out
    }

    /// JSON text.
    package func serialized(_ options: JSONWriteOptions = []) -> String {
        String(decoding: encoded(options), as: UTF8.self)
    }

    private func write(into out: inout [UInt8], options: JSONWriteOptions, level: Int) {
        let pretty = options.contains(.pretty)
        func newline(_ level: Int) {
            guard pretty else { return }
            out.append(0x0A)
            out.append(contentsOf: repeatElement(0x20, count: 2 * level))
        }
        switch self {
        case .null: out.append(contentsOf: "null".utf8)
        case .bool(let b): out.append(contentsOf: (b ? "true" : "false").utf8)
        case .number(let n): out.append(contentsOf: n.text.utf8)
        case .string(let s): Self.writeString(s, into: &out)
        case .array(let items):
            out.append(UInt8(ascii: "["))
            for (i, item) in items.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                newline(level + 1)
                item.write(into: &out, options: options, level: level + 1)
            }
            if !items.isEmpty { newline(level) }
            out.append(UInt8(ascii: "]"))
        case .object(let object):
            out.append(UInt8(ascii: "{"))
            var first = true
            func writeMember(_ member: (key: String, value: JSONValue)) {
                if !first { out.append(UInt8(ascii: ",")) }
                first = false
                newline(level + 1)
                Self.writeString(member.key, into: &out)
                out.append(UInt8(ascii: ":"))
                if pretty { out.append(0x20) }
                member.value.write(into: &out, options: options, level: level + 1)
            }
            if options.contains(.sortedKeys) {
                object.sorted { $0.key < $1.key }.forEach(writeMember)
            } else {
                object.forEach(writeMember)
            }
            if !object.isEmpty { newline(level) }
            out.append(UInt8(ascii: "}"))
        }
    }

    /// Appends `s` as a quoted JSON string.
    package static func writeString(_ s: String, into out: inout [UInt8]) {
        out.append(0x22)
        // Most strings (ids, hex, names) are printable ASCII without a quote or backslash: their
        // UTF-8 is their JSON text, copied at once instead of scalar by scalar.
        let copied = s.utf8.withContiguousStorageIfAvailable { utf8 -> Bool in
            for b in utf8 where b < 0x20 || b >= 0x7F || b == 0x22 || b == 0x5C { return false }
            out.append(contentsOf: utf8)
            return true
        }
        if copied == true {
            out.append(0x22)
            return
        }
        for u in s.unicodeScalars {
            switch u {
            case "\"": out.append(contentsOf: [0x5C, 0x22])
            case "\\": out.append(contentsOf: [0x5C, 0x5C])
            case "\n": out.append(contentsOf: [0x5C, UInt8(ascii: "n")])
            case "\r": out.append(contentsOf: [0x5C, UInt8(ascii: "r")])
            case "\t": out.append(contentsOf: [0x5C, UInt8(ascii: "t")])
            case _ where u.value < 0x20 || isInvisibleControl(u):
                out.append(contentsOf: [0x5C, UInt8(ascii: "u")])
                let v = u.value
                for shift in stride(from: 12, through: 0, by: -4) {
                    out.append(hexDigits[Int((v >> UInt32(shift)) & 0xF)])
                }
            case _ where u.isASCII: out.append(UInt8(truncatingIfNeeded: u.value))
            default: UTF8.encode(u) { out.append($0) }
            }
        }
        out.append(0x22)
    }

    /// DEL, C1 controls (0x80–0x9F), U+2028/2029 and Unicode bidirectional controls (U+061C,
    /// U+200E/F, U+202A–E, U+2066–9): invisible characters that can rewrite a terminal or reorder
    /// what a person reads.
    package static func isInvisibleControl(_ u: Unicode.Scalar) -> Bool {
        switch u.value {
        case 0x7F...0x9F, 0x061C, 0x200E, 0x200F, 0x2028...0x202E, 0x2066...0x2069: return true
        default: return false
        }
    }
}

private let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)

extension JSONValue: CustomStringConvertible {
    /// Compact JSON text.
    package var description: String { serialized() }
}
