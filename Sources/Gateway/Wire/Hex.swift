/// Lower-case `0x` hex helpers for wire values. Untrusted input never traps.
enum Hex {
    static func encode(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = [0x30, 0x78]
        out.reserveCapacity(2 + bytes.count * 2)
        for b in bytes {
            out.append(digits[Int(b >> 4)])
            out.append(digits[Int(b & 0x0F)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Whether `s` is `0x` + 64 hex digits (a 32-byte hash).
    static func isHash(_ s: String) -> Bool {
        s.utf8.count == 66 && s.hasPrefix("0x") && s.utf8.dropFirst(2).allSatisfy(isDigit)
    }

    static func isDigit(_ c: UInt8) -> Bool {
        (c >= 0x30 && c <= 0x39) || (c >= 0x61 && c <= 0x66) || (c >= 0x41 && c <= 0x46)
    }
}
