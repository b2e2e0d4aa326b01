/// Lower-case hexadecimal encoding and strict decoding of byte strings.
///
/// Decoding accepts an optional `0x` prefix and upper- or lower-case digits, rejects odd lengths
/// and non-hex characters, and never traps on untrusted input. Not constant-time: do not use for
/// secrets where timing matters (parsing a seed from user input once is acceptable).
package enum Hex {
    /// `0x`-prefixed (by default) lower-case hex.
    package static func encode(_ bytes: some Sequence<UInt8>, prefix: Bool = true) -> String {
        let digits: [UInt8] = Array("0123456789abcdef".utf8)
        var out: [UInt8] = prefix ? [0x30, 0x78] : []
        for b in bytes {
            out.append(digits[Int(b >> 4)])
            out.append(digits[Int(b & 0x0f)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Decodes hex with an optional `0x` prefix; throws `invalidInput` on anything else.
    package static func decode(_ text: String, field: String = "hex") throws -> [UInt8] {
        var utf8 = Array(text.utf8)
        if utf8.count >= 2, utf8[0] == 0x30, utf8[1] == 0x78 || utf8[1] == 0x58 { utf8.removeFirst(2) }
        guard utf8.count % 2 == 0 else {
            throw KeyError(.invalidInput, "\(field): odd number of hex digits (\(utf8.count))")
        }
        var out = [UInt8]()
        out.reserveCapacity(utf8.count / 2)
        var i = 0
        while i < utf8.count {
            guard let hi = nibble(utf8[i]), let lo = nibble(utf8[i + 1]) else {
                throw KeyError(.invalidInput, "\(field): non-hex character at offset \(i)")
            }
            out.append(hi << 4 | lo)
            i += 2
        }
        return out
    }

    /// Decodes into secret storage without an intermediate array of the secret bytes.
    package static func decodeSecret(_ text: String, field: String = "hex") throws -> SecretBytes {
        var bytes = try decode(text, field: field)
        defer { ConstantTime.wipe(&bytes) }
        return SecretBytes(bytes)
    }

    static func nibble(_ c: UInt8) -> UInt8? {
        switch c {
        case 0x30...0x39: return c - 0x30
        case 0x61...0x66: return c - 0x61 + 10
        case 0x41...0x46: return c - 0x41 + 10
        default: return nil
        }
    }
}
