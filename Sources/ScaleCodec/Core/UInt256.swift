/// An unsigned 256-bit integer as two `UInt128` halves: enough to carry SCALE `u256`/`i256`
/// values (EVM balances) through decode, display and re-encode without loss.
package struct UInt256: Hashable, Sendable, CustomStringConvertible {
    /// The upper 128 bits.
    package var high: UInt128
    /// The lower 128 bits.
    package var low: UInt128

    /// Creates a value from its halves.
    package init(high: UInt128, low: UInt128) {
        self.high = high
        self.low = low
    }

    /// Creates a value that fits 128 bits.
    package init(_ value: UInt128) {
        self.init(high: 0, low: value)
    }

    /// Decimal digits (schoolbook division by 10 over 32-bit limbs; at most 78 digits).
    package var description: String {
        if high == 0 { return String(low) }
        var limbs: [UInt32] = (0..<8).reversed().map { i in
            UInt32(truncatingIfNeeded: i >= 4 ? high >> (32 * (i - 4)) : low >> (32 * i))
        }
        var digits: [Character] = []
        while limbs.contains(where: { $0 != 0 }) {
            var rem: UInt64 = 0
            for i in limbs.indices {
                let cur = (rem << 32) | UInt64(limbs[i])
                limbs[i] = UInt32(cur / 10)
                rem = cur % 10
            }
            digits.append(Character(String(rem)))
        }
        return String(digits.reversed())
    }
}
