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

    /// 58^5, the base of the limbs `encode` works in (five digits per step, and below 2^30).
    private static let limbBase: UInt64 = 656_356_768
    private static let powers: [UInt64] = [1, 58, 3364, 195_112, 11_316_496, 656_356_768]

    static func encode(_ bytes: [UInt8]) -> String {
        let zeros = bytes.prefix { $0 == 0 }.count
        // The number in base-58^5 limbs, little-endian: a fifth of the inner steps of a digit-by-
        // digit conversion (SS58 addresses are encoded for every payload summary).
        var limbs: [UInt32] = []
        limbs.reserveCapacity(bytes.count * 3 / 10 + 2)
        for byte in bytes[zeros...] {
            var carry = UInt64(byte)
            for i in limbs.indices {
                let x = UInt64(limbs[i]) << 8 + carry
                limbs[i] = UInt32(truncatingIfNeeded: x % limbBase)
                carry = x / limbBase
            }
            while carry > 0 {
                limbs.append(UInt32(truncatingIfNeeded: carry % limbBase))
                carry /= limbBase
            }
        }
        var digits: [UInt8] = []  // base-58 digits, little-endian
        digits.reserveCapacity(limbs.count * 5)
        for limb in limbs {
            var value = limb
            for _ in 0..<5 {
                digits.append(UInt8(truncatingIfNeeded: value % 58))
                value /= 58
            }
        }
        while digits.last == 0 { digits.removeLast() }  // the top limb's unused digits
        var out = [UInt8](repeating: alphabet[0], count: zeros)
        out.reserveCapacity(zeros + digits.count)
        for d in digits.reversed() { out.append(alphabet[Int(d)]) }
        return String(decoding: out, as: UTF8.self)
    }

    /// `nil` when a character is not in the alphabet.
    static func decode(_ text: String) -> [UInt8]? {
        let chars = Array(text.utf8)
        let zeros = chars.prefix { $0 == alphabet[0] }.count
        // The number in base-2^32 limbs, little-endian, taking up to five characters per step.
        var limbs: [UInt32] = []
        limbs.reserveCapacity(chars.count * 3 / 16 + 2)
        var next = 0
        while next < chars.count {
            var value: UInt64 = 0
            var count = 0
            while count < 5 && next < chars.count {
                let digit = reverse[Int(chars[next])]
                guard digit >= 0 else { return nil }
                value = value * 58 + UInt64(digit)
                count += 1
                next += 1
            }
            let multiplier = powers[count]
            var carry = value
            for i in limbs.indices {
                let x = UInt64(limbs[i]) * multiplier + carry  // < 2^32 · 58^5 + 2^32 · 58^5 < 2^63
                limbs[i] = UInt32(truncatingIfNeeded: x)
                carry = x >> 32
            }
            while carry > 0 {
                limbs.append(UInt32(truncatingIfNeeded: carry))
                carry >>= 32
            }
        }
        var bytes: [UInt8] = []  // little-endian
        bytes.reserveCapacity(limbs.count * 4 + zeros)
        for limb in limbs {
            for shift in stride(from: 0, to: 32, by: 8) { bytes.append(UInt8(truncatingIfNeeded: limb >> shift)) }
        }
        while bytes.last == 0 { bytes.removeLast() }  // the top limb's unused bytes
        // Leading '1's were counted above as zero digits that add no bytes.
        return [UInt8](repeating: 0, count: zeros) + bytes.reversed()
    }
}
