import Primitives

/// Turns decoded values into words for a person (text) and into JSON.
///
/// This module knows no address format: accounts are rendered by the injected
/// ``accountFormatter`` (SignerCore passes SS58 in the chain's prefix; the default is hex).
/// Balances use ``token`` when known, else the raw integer with "(planck)". Byte strings show
/// as text when they are printable UTF-8, else hex.
///
/// Security: names (pallet, call, field, variant) come from untrusted metadata and strings from
/// untrusted call bytes; control characters and bidirectional overrides in them never reach the
/// text (names get U+FFFD in their place, strings and chars are quoted with escapes), so a call
/// cannot rewrite a terminal prompt or make an approval page read differently from what is signed.
package struct ValueRenderer: Sendable {
    /// Renders an account id (20 or 32 bytes).
    package var accountFormatter: @Sendable ([UInt8]) -> String
    /// The chain token, when known.
    package var token: TokenFormat?

    package init(
        accountFormatter: @escaping @Sendable ([UInt8]) -> String = { Hex.encode($0) }, token: TokenFormat? = nil
    ) {
        self.accountFormatter = accountFormatter
        self.token = token
    }

    // MARK: text

    /// Multi-line text: `Balances.transfer_keep_alive` then one indented line per argument.
    package func text(_ call: DecodedCall, indent: Int = 0) -> String {
        var lines: [String] = []
        appendCall(call, indent: indent, into: &lines)
        return lines.joined(separator: "\n")
    }

    func appendCall(_ call: DecodedCall, indent: Int, into lines: inout [String]) {
        let pad = String(repeating: "  ", count: indent)
        lines.append(pad + "\(Self.safeName(call.pallet)).\(Self.safeName(call.name))")
        for arg in call.args {
            let name = Self.safeName(arg.name ?? "_")
            switch arg.value {
            case .call(let inner):
                lines.append(pad + "  \(name):")
                appendCall(inner, indent: indent + 2, into: &lines)
            case .sequence(let items)
            where items.contains(where: { if case .call = $0 { return true } else { return false } }):
                lines.append(pad + "  \(name): \(items.count) call(s)")
                for (i, item) in items.enumerated() {
                    if case .call(let inner) = item {
                        lines.append(pad + "    [\(i)]")
                        appendCall(inner, indent: indent + 3, into: &lines)
                    } else {
                        lines.append(pad + "    [\(i)] " + inline(item))
                    }
                }
            default:
                lines.append(pad + "  \(name): " + inline(arg.value))
            }
        }
    }

    /// One-line text for a value.
    package func inline(_ value: ScaleValue) -> String {
        switch value {
        case .bool(let b): return b ? "true" : "false"
        case .char(let c): return Unicode.Scalar(c).map { Self.quoted(String(Character($0))) } ?? "?"
        case .string(let s): return Self.quoted(s)
        case .unsigned(let n): return String(n)
        case .signed(let n): return String(n)
        case .wide(let n): return n.description
        case .bytes(let b): return Self.bytesText(b)
        case .account(let b): return accountFormatter(b)
        case .balance(let n): return balanceText(n)
        case .bitSequence(let bits, let bytes): return "bits(\(bits)) \(Hex.encode(bytes))"
        case .sequence(let items):
            let shown = items.prefix(Self.maxTextItems).map(inline).joined(separator: ", ")
            let more = items.count > Self.maxTextItems ? ", … (\(items.count) items in all)" : ""
            return "[" + shown + more + "]"
        case .composite(let fields): return fieldsText(fields, braces: true)
        case .variant(let v):
            if v.fields.isEmpty { return Self.safeName(v.name) }
            return Self.safeName(v.name) + fieldsText(v.fields, braces: false)
        case .call(let c):
            return "\(Self.safeName(c.pallet)).\(Self.safeName(c.name))" + fieldsText(c.args, braces: false)
        }
    }

    func fieldsText(_ fields: [ScaleField], braces: Bool) -> String {
        if fields.allSatisfy({ $0.name == nil }) {
            let inner = fields.map { inline($0.value) }.joined(separator: ", ")
            return braces && fields.count != 1 ? "(" + inner + ")" : (braces ? inner : "(" + inner + ")")
        }
        return (braces ? "{ " : "{ ")
            + fields.map { "\(Self.safeName($0.name ?? "_")): \(inline($0.value))" }.joined(separator: ", ")
            + " }"
    }

    /// An amount with decimals and symbol when known.
    package func balanceText(_ n: UInt128) -> String {
        guard let token else { return "\(TokenFormat.grouped(String(n))) (planck)" }
        return token.format(n)
    }

    /// Longest byte string shown in full in text (JSON is always complete).
    package static let maxTextBytes = 512
    /// Most sequence items shown in text (JSON is always complete).
    package static let maxTextItems = 64

    /// Printable UTF-8 as quoted text, anything else as hex; beyond ``maxTextBytes`` the start
    /// and the full length.
    package static func bytesText(_ b: [UInt8]) -> String {
        let suffix = b.count > maxTextBytes ? "… (\(b.count) bytes in all)" : ""
        if let s = printableText(b) { return quoted(String(s.prefix(maxTextBytes))) + suffix }
        return Hex.encode(b.prefix(maxTextBytes)) + suffix
    }

    /// The bytes as a string when they are non-empty, valid UTF-8 without control characters
    /// (other than newline and tab).
    package static func printableText(_ b: [UInt8]) -> String? {
        guard !b.isEmpty, let s = String(validating: b, as: UTF8.self) else { return nil }
        for u in s.unicodeScalars where (u.value < 0x20 && u != "\n" && u != "\t") || (0x7F...0x9F).contains(u.value) {
            return nil
        }
        return s
    }

    /// A metadata name for text: control characters, DEL, C1 controls and bidirectional controls
    /// replaced by U+FFFD.
    package static func safeName(_ name: String) -> String {
        // Printable ASCII holds none of them: checked on the UTF-8 bytes, without decoding scalars
        // (every summary row goes through here).
        let printableASCII = name.utf8.withContiguousStorageIfAvailable { utf8 in
            !utf8.contains { $0 < 0x20 || $0 >= 0x7F }
        }
        if printableASCII == true { return name }
        guard name.unicodeScalars.contains(where: { $0.value < 0x20 || JSONValue.isInvisibleControl($0) }) else {
            return name
        }
        var out = String.UnicodeScalarView()
        for u in name.unicodeScalars {
            out.append(u.value < 0x20 || JSONValue.isInvisibleControl(u) ? "\u{FFFD}" : u)
        }
        return String(out)
    }

    static func quoted(_ s: String) -> String {
        var out: [UInt8] = []
        JSONValue.writeString(s, into: &out)
        return String(decoding: out, as: UTF8.self)
    }

    // MARK: JSON

    /// `{"pallet": …, "call": …, "args": {…}}` with names as the metadata spells them.
    package func json(_ call: DecodedCall) -> JSONValue {
        ["pallet": .string(call.pallet), "call": .string(call.name), "args": fieldsJSON(call.args)]
    }

    func fieldsJSON(_ fields: [ScaleField]) -> JSONValue {
        if !fields.isEmpty && fields.allSatisfy({ $0.name == nil }) {
            return fields.count == 1 ? json(fields[0].value) : .array(fields.map { json($0.value) })
        }
        return .object(JSONObject(fields.enumerated().map { i, f in (f.name ?? String(i), json(f.value)) }))
    }

    /// A value as JSON: integers as numbers (decimal text), accounts via the formatter, balances
    /// as `{"amount": "…", "display": "…"}`, enums as `"Name"` or `{"Name": fields}`, bytes as
    /// hex (plus `text` when printable), nested calls as call objects.
    package func json(_ value: ScaleValue) -> JSONValue {
        switch value {
        case .bool(let b): return .bool(b)
        case .char(let c): return .string(Unicode.Scalar(c).map { String(Character($0)) } ?? "")
        case .string(let s): return .string(s)
        case .unsigned(let n): return .integer(n)
        case .signed(let n): return .integer(n)
        case .wide(let n): return .number(JSONNumber(n.description) ?? 0)
        case .bytes(let b):
            if let s = Self.printableText(b) {
                return ["hex": .string(Hex.encode(b)), "text": .string(s)]
            }
            return .string(Hex.encode(b))
        case .account(let b): return .string(accountFormatter(b))
        case .balance(let n): return ["amount": .string(String(n)), "display": .string(balanceText(n))]
        case .bitSequence(let bits, let bytes):
            return ["bits": .integer(bits), "bytes": .string(Hex.encode(bytes))]
        case .sequence(let items): return .array(items.map(json))
        case .composite(let fields): return fieldsJSON(fields)
        case .variant(let v):
            if v.fields.isEmpty { return .string(v.name) }
            return .object(JSONObject([(v.name, fieldsJSON(v.fields))]))
        case .call(let c): return json(c)
        }
    }
}
