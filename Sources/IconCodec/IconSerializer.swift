import Primitives

/// The v3 serialization for hashing (docs/reference/icon.md §3.1): objects as sorted `key.value`
/// pairs joined by `.` (in braces below the top level), arrays in brackets, strings with `\`, `.`,
/// `{`, `}`, `[`, `]` escaped by a backslash, `null` as `\0`. Works on values `IconTransaction`
/// already validated (strings, objects, arrays, null); anything else is refused, never guessed.
/// One pass over the tree plus one sort of each object's keys by UTF-8 bytes.
enum IconSerializer {
    static let prefix = Array("icx_sendTransaction".utf8)

    /// `icx_sendTransaction.` + the body of `fields`.
    static func message(_ fields: JSONObject) throws(IconCodecError) -> [UInt8] {
        var out = prefix
        out.append(UInt8(ascii: "."))
        try body(fields, into: &out)
        return out
    }

    static func body(_ object: JSONObject, into out: inout [UInt8]) throws(IconCodecError) {
        // ASCII keys (validated) sort the same by bytes as by scalars; sort by bytes anyway (§3.1).
        let keys = object.keys.sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
        for (i, key) in keys.enumerated() {
            if i > 0 { out.append(UInt8(ascii: ".")) }
            escape(key, into: &out)
            out.append(UInt8(ascii: "."))
            guard let value = object[key] else { continue }
            try serialize(value, into: &out)
        }
    }

    static func serialize(_ value: JSONValue, into out: inout [UInt8]) throws(IconCodecError) {
        switch value {
        case .string(let s): escape(s, into: &out)
        case .null:
            out.append(UInt8(ascii: "\\"))
            out.append(UInt8(ascii: "0"))
        case .object(let o):
            out.append(UInt8(ascii: "{"))
            try body(o, into: &out)
            out.append(UInt8(ascii: "}"))
        case .array(let a):
            out.append(UInt8(ascii: "["))
            for (i, element) in a.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ".")) }
                try serialize(element, into: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .number: throw IconCodecError(.numberInData, "a JSON number has no v3 serialization")
        case .bool: throw IconCodecError(.booleanInData, "a boolean has no v3 serialization")
        }
    }

    static func escape(_ s: String, into out: inout [UInt8]) {
        for byte in s.utf8 {
            switch byte {
            case UInt8(ascii: "\\"), UInt8(ascii: "."), UInt8(ascii: "{"), UInt8(ascii: "}"), UInt8(ascii: "["),
                UInt8(ascii: "]"):
                out.append(UInt8(ascii: "\\"))
            default: break
            }
            out.append(byte)
        }
    }
}
