/// An exact unsigned 256-bit integer (four 64-bit limbs): Ethereum values, fees, EIP-712 `uintN`
/// and the magnitude of `intN`. No operation here goes through floating point; arithmetic reports
/// overflow instead of trapping.
package struct UInt256: Sendable, Hashable, Comparable, CustomStringConvertible, ExpressibleByIntegerLiteral {
    /// Limbs, least significant first.
    var limbs: (UInt64, UInt64, UInt64, UInt64)

    package static let zero = UInt256(0)
    package static let max = UInt256(limbs: (.max, .max, .max, .max))

    init(limbs: (UInt64, UInt64, UInt64, UInt64)) { self.limbs = limbs }

    package init(_ value: UInt64) { limbs = (value, 0, 0, 0) }

    package init(integerLiteral value: UInt64) { self.init(value) }

    subscript(i: Int) -> UInt64 {
        get {
            switch i {
            case 0: limbs.0
            case 1: limbs.1
            case 2: limbs.2
            default: limbs.3
            }
        }
        set {
            switch i {
            case 0: limbs.0 = newValue
            case 1: limbs.1 = newValue
            case 2: limbs.2 = newValue
            default: limbs.3 = newValue
            }
        }
    }

    /// From big-endian bytes; `nil` when more than 32 bytes (leading zero bytes included).
    package init?(bigEndianBytes bytes: some Collection<UInt8>) {
        guard bytes.count <= 32 else { return nil }
        var value = UInt256.zero
        var shift = 0
        for byte in bytes.reversed() {
            value[shift / 64] |= UInt64(byte) << UInt64(shift % 64)
            shift += 8
        }
        self = value
    }

    /// From hex digits without prefix (either case); `nil` for another character, no digit or more
    /// than 256 bits.
    package init?(hexDigits text: some StringProtocol) {
        let digits = Array(text.utf8)
        guard !digits.isEmpty else { return nil }
        var start = 0
        while start < digits.count - 1, digits[start] == UInt8(ascii: "0") { start += 1 }
        guard digits.count - start <= 64 else { return nil }
        var value = UInt256.zero
        var shift = 0
        for c in digits[start...].reversed() {
            guard let nibble = UInt256.nibble(c) else { return nil }
            value[shift / 64] |= UInt64(nibble) << UInt64(shift % 64)
            shift += 4
        }
        self = value
    }

    /// From decimal digits (no sign, no spaces); `nil` for another character, no digit or overflow.
    package init?(decimal text: some StringProtocol) {
        guard !text.isEmpty, text.utf8.count <= 100 else { return nil }
        var value = UInt256.zero
        for c in text.utf8 {
            guard c >= 0x30, c <= 0x39 else { return nil }
            guard let next = value.multipliedReportingOverflow(by: 10)?.addingReportingOverflow(UInt64(c - 0x30))
            else { return nil }
            value = next
        }
        self = value
    }

    static func nibble(_ c: UInt8) -> UInt8? {
        switch c {
        case 0x30...0x39: c - 0x30
        case 0x61...0x66: c - 0x61 + 10
        case 0x41...0x46: c - 0x41 + 10
        default: nil
        }
    }

    package var isZero: Bool { self == .zero }

    /// The value when it fits 64 bits.
    package var uint64: UInt64? { limbs.1 == 0 && limbs.2 == 0 && limbs.3 == 0 ? limbs.0 : nil }

    /// The number of significant bits (0 for zero).
    package var bitLength: Int {
        for i in stride(from: 3, through: 0, by: -1) where self[i] != 0 {
            return i * 64 + 64 - self[i].leadingZeroBitCount
        }
        return 0
    }

    /// 32 big-endian bytes (an ABI / EIP-712 word).
    package var word: [UInt8] {
        var out = [UInt8]()
        out.reserveCapacity(32)
        for i in stride(from: 3, through: 0, by: -1) {
            for j in stride(from: 56, through: 0, by: -8) {
                out.append(UInt8(truncatingIfNeeded: self[i] >> UInt64(j)))
            }
        }
        return out
    }

    /// Big-endian bytes without leading zeros (zero is empty): the RLP integer form.
    package var minimalBytes: [UInt8] { Array(word.drop { $0 == 0 }) }

    /// `self * m`, `nil` on overflow.
    package func multipliedReportingOverflow(by m: UInt64) -> UInt256? {
        var out = UInt256.zero
        var carry: UInt64 = 0
        for i in 0..<4 {
            let (hi, lo) = self[i].multipliedFullWidth(by: m)
            let (sum, o) = lo.addingReportingOverflow(carry)
            out[i] = sum
            carry = hi &+ (o ? 1 : 0)
        }
        return carry == 0 ? out : nil
    }

    /// `self + a`, `nil` on overflow.
    package func addingReportingOverflow(_ a: UInt64) -> UInt256? { adding(UInt256(a)) }

    /// `self + other`, `nil` on overflow.
    package func adding(_ other: UInt256) -> UInt256? {
        var out = UInt256.zero
        var carry = false
        for i in 0..<4 {
            let (s1, o1) = self[i].addingReportingOverflow(other[i])
            let (s2, o2) = s1.addingReportingOverflow(carry ? 1 : 0)
            out[i] = s2
            carry = o1 || o2
        }
        return carry ? nil : out
    }

    /// `self - other`, `nil` when negative.
    package func subtracting(_ other: UInt256) -> UInt256? {
        guard self >= other else { return nil }
        var out = UInt256.zero
        var borrow = false
        for i in 0..<4 {
            let (d1, o1) = self[i].subtractingReportingOverflow(other[i])
            let (d2, o2) = d1.subtractingReportingOverflow(borrow ? 1 : 0)
            out[i] = d2
            borrow = o1 || o2
        }
        return out
    }

    /// Quotient and remainder by a non-zero 64-bit divisor.
    package func quotientAndRemainder(dividingBy d: UInt64) -> (quotient: UInt256, remainder: UInt64) {
        guard d != 0 else { return (.zero, 0) }
        var q = UInt256.zero
        var r: UInt64 = 0
        for i in stride(from: 3, through: 0, by: -1) {
            let (qi, ri) = d.dividingFullWidth((high: r, low: self[i]))
            q[i] = qi
            r = ri
        }
        return (q, r)
    }

    /// 2^256 − self (mod 2^256): the two's-complement word of −self.
    package var twosComplementNegated: UInt256 {
        var inverted = UInt256(limbs: (~limbs.0, ~limbs.1, ~limbs.2, ~limbs.3))
        var i = 0
        while i < 4 {
            let (s, o) = inverted[i].addingReportingOverflow(1)
            inverted[i] = s
            if !o { break }
            i += 1
        }
        return inverted
    }

    /// 2^bits (bits < 256).
    static func power(of bits: Int) -> UInt256 {
        var v = UInt256.zero
        v[bits / 64] = 1 << UInt64(bits % 64)
        return v
    }

    package static func < (a: UInt256, b: UInt256) -> Bool {
        for i in stride(from: 3, through: 0, by: -1) where a[i] != b[i] { return a[i] < b[i] }
        return false
    }

    package static func == (a: UInt256, b: UInt256) -> Bool {
        a.limbs.0 == b.limbs.0 && a.limbs.1 == b.limbs.1 && a.limbs.2 == b.limbs.2 && a.limbs.3 == b.limbs.3
    }

    package func hash(into h: inout Hasher) {
        h.combine(limbs.0)
        h.combine(limbs.1)
        h.combine(limbs.2)
        h.combine(limbs.3)
    }

    /// Decimal digits.
    package var description: String {
        if isZero { return "0" }
        var chunks: [UInt64] = []
        var v = self
        while !v.isZero {
            let (q, r) = v.quotientAndRemainder(dividingBy: 10_000_000_000_000_000_000)
            chunks.append(r)
            v = q
        }
        var text = String(chunks.removeLast())
        for chunk in chunks.reversed() {
            let digits = String(chunk)
            text += String(repeating: "0", count: 19 - digits.count) + digits
        }
        return text
    }

    /// `0x` + minimal lower-case hex digits (`0x0` for zero): an EIP-1474 QUANTITY.
    package var quantity: String {
        let bytes = minimalBytes
        guard let first = bytes.first else { return "0x0" }
        let digits = "0123456789abcdef".utf8.map { Character(Unicode.Scalar($0)) }
        var text = "0x"
        if first >= 0x10 { text.append(digits[Int(first >> 4)]) }
        text.append(digits[Int(first & 0x0f)])
        for b in bytes.dropFirst() {
            text.append(digits[Int(b >> 4)])
            text.append(digits[Int(b & 0x0f)])
        }
        return text
    }
}
