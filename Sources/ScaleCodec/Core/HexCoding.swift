/// Strict `0x` hexadecimal conversion for bytes that arrive as JSON strings.
///
/// Untrusted input: decoding accepts only `0x` followed by an even number of `[0-9a-fA-F]`
/// digits and throws ``ScaleError/Code/invalidHex`` otherwise (never treats text as bytes).
public enum HexCoding {
    /// Decodes `0x`-prefixed hex. - Throws: `invalidHex` for a missing prefix, odd length or a bad digit.
    public static func decode(_ text: String) throws -> [UInt8] {
        let utf8 = Array(text.utf8)
        guard utf8.count >= 2, utf8[0] == UInt8(ascii: "0"),
            utf8[1] == UInt8(ascii: "x") || utf8[1] == UInt8(ascii: "X")
        else {
            throw ScaleError(.invalidHex, "hex must start with 0x")
        }
        let digits = utf8.count - 2
        guard digits % 2 == 0 else { throw ScaleError(.invalidHex, "odd number of hex digits (\(digits))") }
        var out: [UInt8] = []
        out.reserveCapacity(digits / 2)
        var i = 2
        while i < utf8.count {
            guard let hi = nibble(utf8[i]), let lo = nibble(utf8[i + 1]) else {
                throw ScaleError(.invalidHex, "invalid hex digit at position \(i)")
            }
            out.append(hi << 4 | lo)
            i += 2
        }
        return out
    }

    /// Encodes bytes as lowercase `0x` hex.
    public static func encode<S: Sequence>(_ bytes: S) -> String where S.Element == UInt8 {
        let table = Array("0123456789abcdef".utf8)
        var out: [UInt8] = [UInt8(ascii: "0"), UInt8(ascii: "x")]
        for b in bytes {
            out.append(table[Int(b >> 4)])
            out.append(table[Int(b & 0xF)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    private static func nibble(_ c: UInt8) -> UInt8? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return c - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return c - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return c - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}
