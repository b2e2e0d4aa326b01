/// The subset of CBOR (RFC 8949) that IC requests and certificates use: unsigned and negative
/// integers up to 64 bits, byte and text strings, arrays, maps with text keys, tags, and the simple
/// values false/true/null. Floats and indefinite lengths are refused by the decoder.
package indirect enum CBORValue: Sendable, Hashable {
    case unsigned(UInt64)
    /// The negative integer `-1 - n`.
    case negative(UInt64)
    case bytes([UInt8])
    case text(String)
    case array([CBORValue])
    /// Entries in wire order; keys are unique.
    case map([(key: String, value: CBORValue)])
    case tag(UInt64, CBORValue)
    case bool(Bool)
    case null

    /// The CBOR self-describe tag (bytes `d9 d9 f7`) every IC request starts with.
    package static let selfDescribeTag: UInt64 = 55799

    package static func == (a: CBORValue, b: CBORValue) -> Bool {
        switch (a, b) {
        case (.unsigned(let x), .unsigned(let y)), (.negative(let x), .negative(let y)): x == y
        case (.bytes(let x), .bytes(let y)): x == y
        case (.text(let x), .text(let y)): x == y
        case (.array(let x), .array(let y)): x == y
        case (.map(let x), .map(let y)):
            x.count == y.count && zip(x, y).allSatisfy { $0.key == $1.key && $0.value == $1.value }
        case (.tag(let t, let x), .tag(let u, let y)): t == u && x == y
        case (.bool(let x), .bool(let y)): x == y
        case (.null, .null): true
        default: false
        }
    }

    package func hash(into hasher: inout Hasher) {
        switch self {
        case .unsigned(let x): hasher.combine(0); hasher.combine(x)
        case .negative(let x): hasher.combine(1); hasher.combine(x)
        case .bytes(let x): hasher.combine(2); hasher.combine(x)
        case .text(let x): hasher.combine(3); hasher.combine(x)
        case .array(let x): hasher.combine(4); hasher.combine(x)
        case .map(let x):
            hasher.combine(5)
            for entry in x {
                hasher.combine(entry.key)
                hasher.combine(entry.value)
            }
        case .tag(let t, let x): hasher.combine(6); hasher.combine(t); hasher.combine(x)
        case .bool(let x): hasher.combine(7); hasher.combine(x)
        case .null: hasher.combine(8)
        }
    }

    /// The value of `key` in a map, nil otherwise.
    package subscript(key: String) -> CBORValue? {
        guard case .map(let entries) = self else { return nil }
        return entries.first { $0.key == key }?.value
    }

    /// The value without a self-describe tag around it.
    package var untagged: CBORValue {
        if case .tag(CBORValue.selfDescribeTag, let inner) = self { return inner }
        return self
    }

    /// Encodes as definite-length CBOR with the shortest argument encodings; map entries in the
    /// given order.
    package func encoded() -> [UInt8] {
        var out: [UInt8] = []
        encode(into: &out)
        return out
    }

    func encode(into out: inout [UInt8]) {
        switch self {
        case .unsigned(let n): CBORValue.head(0, n, &out)
        case .negative(let n): CBORValue.head(1, n, &out)
        case .bytes(let b):
            CBORValue.head(2, UInt64(b.count), &out)
            out += b
        case .text(let s):
            let utf8 = Array(s.utf8)
            CBORValue.head(3, UInt64(utf8.count), &out)
            out += utf8
        case .array(let items):
            CBORValue.head(4, UInt64(items.count), &out)
            for item in items { item.encode(into: &out) }
        case .map(let entries):
            CBORValue.head(5, UInt64(entries.count), &out)
            for entry in entries {
                CBORValue.text(entry.key).encode(into: &out)
                entry.value.encode(into: &out)
            }
        case .tag(let t, let inner):
            CBORValue.head(6, t, &out)
            inner.encode(into: &out)
        case .bool(let b): out.append(b ? 0xf5 : 0xf4)
        case .null: out.append(0xf6)
        }
    }

    static func head(_ major: UInt8, _ n: UInt64, _ out: inout [UInt8]) {
        let m = major << 5
        switch n {
        case 0..<24: out.append(m | UInt8(n))
        case 24..<0x100: out += [m | 24, UInt8(n)]
        case 0x100..<0x1_0000: out += [m | 25] + bigEndian(n, 2)
        case 0x1_0000..<0x1_0000_0000: out += [m | 26] + bigEndian(n, 4)
        default: out += [m | 27] + bigEndian(n, 8)
        }
    }

    static func bigEndian(_ n: UInt64, _ count: Int) -> [UInt8] {
        (0..<count).reversed().map { UInt8(truncatingIfNeeded: n >> (8 * UInt64($0))) }
    }
}
