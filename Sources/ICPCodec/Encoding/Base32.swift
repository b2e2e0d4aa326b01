/// RFC 4648 Base32, lower case, without padding (principal and ICRC-1 checksum text). Decoding is
/// case-insensitive and strict: characters outside the alphabet, impossible lengths and non-zero
/// padding bits are refused (`nil`).
enum Base32 {
    private static let alphabet = Array("abcdefghijklmnopqrstuvwxyz234567".utf8)

    static func encode(_ data: [UInt8]) -> String {
        var out: [UInt8] = []
        out.reserveCapacity((data.count * 8 + 4) / 5)
        var buffer: UInt32 = 0
        var bits = 0
        for byte in data {
            buffer = (buffer << 8) | UInt32(byte)
            bits += 8
            while bits >= 5 {
                bits -= 5
                out.append(alphabet[Int((buffer >> UInt32(bits)) & 31)])
            }
            buffer &= (1 << UInt32(bits)) - 1
        }
        if bits > 0 { out.append(alphabet[Int((buffer << UInt32(5 - bits)) & 31)]) }
        return String(decoding: out, as: UTF8.self)
    }

    static func value(_ c: UInt8) -> UInt32? {
        switch c {
        case UInt8(ascii: "a")...UInt8(ascii: "z"): UInt32(c - UInt8(ascii: "a"))
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): UInt32(c - UInt8(ascii: "A"))
        case UInt8(ascii: "2")...UInt8(ascii: "7"): UInt32(c - UInt8(ascii: "2")) + 26
        default: nil
        }
    }

    static func decode(_ text: some Collection<UInt8>) -> [UInt8]? {
        // Lengths mod 8 of 1, 3 and 6 cannot come from whole bytes.
        guard ![1, 3, 6].contains(text.count % 8) else { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(text.count * 5 / 8)
        var buffer: UInt32 = 0
        var bits = 0
        for c in text {
            guard let v = value(c) else { return nil }
            buffer = (buffer << 5) | v
            bits += 5
            if bits >= 8 {
                bits -= 8
                out.append(UInt8(truncatingIfNeeded: buffer >> UInt32(bits)))
            }
            buffer &= (1 << UInt32(bits)) - 1
        }
        // Leftover bits must be zero (canonical encoding).
        guard buffer == 0 else { return nil }
        return out
    }
}
