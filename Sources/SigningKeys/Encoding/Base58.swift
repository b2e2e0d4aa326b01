/// Base58 with the Bitcoin alphabet (leading zero bytes ↔ leading `1`s), as SS58 uses it.
///
/// Not constant-time (addresses are public). Decoding rejects characters outside the alphabet;
/// callers bound the input length first (quadratic time).
enum Base58 {
    static let alphabet: [UInt8] = Array("123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz".utf8)
    static let reverse: [Int8] = {
        var table = [Int8](repeating: -1, count: 256)
        for (i, c) in alphabet.enumerated() { table[Int(c)] = Int8(i) }
        return table
    }()

    static func encode(_ bytes: [UInt8]) -> String {
        let zeros = bytes.prefix { $0 == 0 }.count
        var digits = [UInt8]()  // base-58 digits, little-endian
        for byte in bytes[zeros...] {
            var carry = Int(byte)
            for i in digits.indices {
                carry += Int(digits[i]) << 8
                digits[i] = UInt8(carry % 58)
                carry /= 58
            }
            while carry > 0 {
                digits.append(UInt8(carry % 58))
                carry /= 58
            }
        }
        var out = [UInt8](repeating: alphabet[0], count: zeros)
        for d in digits.reversed() { out.append(alphabet[Int(d)]) }
        return String(decoding: out, as: UTF8.self)
    }

    /// `nil` when a character is not in the alphabet.
    static func decode(_ text: String) -> [UInt8]? {
        let chars = Array(text.utf8)
        let zeros = chars.prefix { $0 == alphabet[0] }.count
        var bytes = [UInt8]()  // little-endian
        for c in chars {
            let value = reverse[Int(c)]
            guard value >= 0 else { return nil }
            var carry = Int(value)
            for i in bytes.indices {
                carry += Int(bytes[i]) * 58
                bytes[i] = UInt8(carry & 0xff)
                carry >>= 8
            }
            while carry > 0 {
                bytes.append(UInt8(carry & 0xff))
                carry >>= 8
            }
        }
        // Leading '1's were counted above as zero digits that add no bytes.
        return [UInt8](repeating: 0, count: zeros) + bytes.reversed()
    }
}
