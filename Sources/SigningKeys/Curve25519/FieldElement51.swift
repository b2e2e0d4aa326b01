/// An element of GF(2^255 − 19) as five unsigned 51-bit limbs (radix 2^51), the representation of
/// curve25519-dalek's `u64` backend (`backend/serial/u64/field.rs`), whose bounds analysis this
/// follows: `*` and `squared()` accept limbs below 2^54 and return limbs below 2^52; `+` does not
/// reduce (two operands below 2^52 give limbs below 2^53); `-` and `negated()` reduce.
///
/// Security: used only by variable-time sr25519 **verification** on public data. The arithmetic is
/// branch-free, but `isZero`, `isNegative` and `==` are not meant to be constant-time, and nothing
/// here wipes memory. Never use it with secrets (signing stays on libsodium).
struct FieldElement51: Sendable {
    var l0: UInt64
    var l1: UInt64
    var l2: UInt64
    var l3: UInt64
    var l4: UInt64

    static let mask51: UInt64 = (1 << 51) - 1

    @inline(__always)
    init(_ l0: UInt64, _ l1: UInt64, _ l2: UInt64, _ l3: UInt64, _ l4: UInt64) {
        self.l0 = l0
        self.l1 = l1
        self.l2 = l2
        self.l3 = l3
        self.l4 = l4
    }

    static let zero = FieldElement51(0, 0, 0, 0, 0)
    static let one = FieldElement51(1, 0, 0, 0, 0)

    /// Edwards d = −121665/121666 (RFC 8032 §5.1).
    static let d = FieldElement51(
        bytes: hexLE("a3785913ca4deb75abd841414d0a700098e879777940c78c73fe6f2bee6c0352"))
    /// 2·d, used by the Niels forms.
    static let d2 = d + d
    /// √−1 = 2^((p−1)/4) (RFC 9496 §4.1 `SQRT_M1`).
    static let sqrtM1 = FieldElement51(
        bytes: hexLE("b0a00e4a271beec478e42fad0618432fa7d7fb3d99004d2b0bdfc14f8024832b"))
    /// 1/√(a−d) with a = −1 (RFC 9496 §4.1 `INVSQRT_A_MINUS_D`).
    static let invSqrtAMinusD = FieldElement51(
        bytes: hexLE("ea405d80aafdc899be72415a17162f9d40d801fe917bc216a2fcafcf05896c78"))

    /// Decodes 32 little-endian bytes, ignoring bit 255 (RFC 7748 §5). Does not check canonicity
    /// (values in [p, 2^255) are accepted and reduced); callers that need it compare `bytes()`.
    /// The buffer must hold at least 32 bytes.
    init(bytes b: UnsafeRawBufferPointer) {
        @inline(__always) func load(_ offset: Int) -> UInt64 {
            var v: UInt64 = 0
            for i in 0..<8 { v |= UInt64(b[offset + i]) << (8 * UInt64(i)) }
            return v
        }
        let m = Self.mask51
        self.init(
            load(0) & m,
            (load(6) >> 3) & m,
            (load(12) >> 6) & m,
            (load(19) >> 1) & m,
            (load(24) >> 12) & m)
    }

    /// Same as `init(bytes:)` from an array of exactly 32 bytes (constants and tests).
    init(bytes: [UInt8]) {
        self = bytes.withUnsafeBytes { FieldElement51(bytes: $0) }
    }

    /// The limbs fully reduced into [0, p), each below 2^51.
    @inline(__always)
    var canonicalLimbs: FieldElement51 {
        let m = Self.mask51
        var r = FieldElement51.reduce(l0, l1, l2, l3, l4)
        // q = 1 exactly when r ≥ p (r < 2p here): propagate the carry of r + 19 through the limbs.
        var q = (r.l0 &+ 19) >> 51
        q = (r.l1 &+ q) >> 51
        q = (r.l2 &+ q) >> 51
        q = (r.l3 &+ q) >> 51
        q = (r.l4 &+ q) >> 51
        r.l0 &+= 19 &* q
        r.l1 &+= r.l0 >> 51
        r.l0 &= m
        r.l2 &+= r.l1 >> 51
        r.l1 &= m
        r.l3 &+= r.l2 >> 51
        r.l2 &= m
        r.l4 &+= r.l3 >> 51
        r.l3 &= m
        r.l4 &= m  // drops 2^255 = p + 19, already added as q·19
        return r
    }

    /// The canonical 32-byte little-endian encoding (value < p, bit 255 clear).
    func bytes() -> [UInt8] {
        var out = [UInt8](repeating: 0, count: 32)
        out.withUnsafeMutableBytes { write(to: $0) }
        return out
    }

    /// Writes the canonical encoding into the first 32 bytes of `out`.
    func write(to out: UnsafeMutableRawBufferPointer) {
        let c = canonicalLimbs
        // Pack 5×51 bits into four 64-bit words.
        let w0 = c.l0 | c.l1 << 51
        let w1 = c.l1 >> 13 | c.l2 << 38
        let w2 = c.l2 >> 26 | c.l3 << 25
        let w3 = c.l3 >> 39 | c.l4 << 12
        @inline(__always) func store(_ w: UInt64, _ offset: Int) {
            for i in 0..<8 { out[offset + i] = UInt8(truncatingIfNeeded: w >> (8 * UInt64(i))) }
        }
        store(w0, 0)
        store(w1, 8)
        store(w2, 16)
        store(w3, 24)
    }

    /// `true` when the value is 0 mod p. Variable-time.
    var isZero: Bool {
        let c = canonicalLimbs
        return c.l0 | c.l1 | c.l2 | c.l3 | c.l4 == 0
    }

    /// RFC 9496 §4.1 `IS_NEGATIVE`: the low bit of the canonical encoding. Variable-time.
    var isNegative: Bool { canonicalLimbs.l0 & 1 == 1 }

    /// Equality mod p. Variable-time.
    static func == (a: FieldElement51, b: FieldElement51) -> Bool { (a - b).isZero }

    @inline(__always)
    static func + (a: FieldElement51, b: FieldElement51) -> FieldElement51 {
        FieldElement51(a.l0 &+ b.l0, a.l1 &+ b.l1, a.l2 &+ b.l2, a.l3 &+ b.l3, a.l4 &+ b.l4)
    }

    /// a − b computed as (a + 16p) − b, then reduced (dalek `Sub`); b's limbs must be below 2^55.
    @inline(__always)
    static func - (a: FieldElement51, b: FieldElement51) -> FieldElement51 {
        reduce(
            (a.l0 &+ 36_028_797_018_963_664) &- b.l0,
            (a.l1 &+ 36_028_797_018_963_952) &- b.l1,
            (a.l2 &+ 36_028_797_018_963_952) &- b.l2,
            (a.l3 &+ 36_028_797_018_963_952) &- b.l3,
            (a.l4 &+ 36_028_797_018_963_952) &- b.l4)
    }

    /// −a, reduced.
    @inline(__always)
    func negated() -> FieldElement51 { FieldElement51.zero - self }

    @inline(__always)
    static func m(_ a: UInt64, _ b: UInt64) -> UInt128 {
        UInt128(truncatingIfNeeded: a) &* UInt128(truncatingIfNeeded: b)
    }

    @inline(__always)
    static func * (a: FieldElement51, b: FieldElement51) -> FieldElement51 {
        // 2^255 ≡ 19: the limb products that land at weight ≥ 2^255 are folded in times 19.
        let b1 = b.l1 &* 19
        let b2 = b.l2 &* 19
        let b3 = b.l3 &* 19
        let b4 = b.l4 &* 19
        let c0 = m(a.l0, b.l0) &+ m(a.l4, b1) &+ m(a.l3, b2) &+ m(a.l2, b3) &+ m(a.l1, b4)
        let c1 = m(a.l1, b.l0) &+ m(a.l0, b.l1) &+ m(a.l4, b2) &+ m(a.l3, b3) &+ m(a.l2, b4)
        let c2 = m(a.l2, b.l0) &+ m(a.l1, b.l1) &+ m(a.l0, b.l2) &+ m(a.l4, b3) &+ m(a.l3, b4)
        let c3 = m(a.l3, b.l0) &+ m(a.l2, b.l1) &+ m(a.l1, b.l2) &+ m(a.l0, b.l3) &+ m(a.l4, b4)
        let c4 = m(a.l4, b.l0) &+ m(a.l3, b.l1) &+ m(a.l2, b.l2) &+ m(a.l1, b.l3) &+ m(a.l0, b.l4)
        return carry(c0, c1, c2, c3, c4)
    }

    @inline(__always)
    func squared() -> FieldElement51 {
        let a3 = l3 &* 19
        let a4 = l4 &* 19
        let m = FieldElement51.m
        let c0 = m(l0, l0) &+ ((m(l1, a4) &+ m(l2, a3)) << 1)
        let c1 = m(l3, a3) &+ ((m(l0, l1) &+ m(l2, a4)) << 1)
        let c2 = m(l1, l1) &+ ((m(l0, l2) &+ m(l4, a3)) << 1)
        let c3 = m(l4, a4) &+ ((m(l0, l3) &+ m(l1, l2)) << 1)
        let c4 = m(l2, l2) &+ ((m(l0, l4) &+ m(l1, l3)) << 1)
        return FieldElement51.carry(c0, c1, c2, c3, c4)
    }

    /// 2·a², as one reduction (dalek `square2`).
    @inline(__always)
    func squared2() -> FieldElement51 {
        let s = squared()
        return s + s
    }

    /// Carries 128-bit column sums (each below 2^117) into 51-bit limbs.
    @inline(__always)
    static func carry(_ c0: UInt128, _ c1: UInt128, _ c2: UInt128, _ c3: UInt128, _ c4: UInt128) -> FieldElement51 {
        let m = mask51
        let c1 = c1 &+ (c0 >> 51)
        let c2 = c2 &+ (c1 >> 51)
        let c3 = c3 &+ (c2 >> 51)
        let c4 = c4 &+ (c3 >> 51)
        var r0 = UInt64(truncatingIfNeeded: c0) & m
        var r1 = UInt64(truncatingIfNeeded: c1) & m
        r0 &+= UInt64(truncatingIfNeeded: c4 >> 51) &* 19
        r1 &+= r0 >> 51
        r0 &= m
        return FieldElement51(
            r0, r1, UInt64(truncatingIfNeeded: c2) & m, UInt64(truncatingIfNeeded: c3) & m,
            UInt64(truncatingIfNeeded: c4) & m)
    }

    /// Folds each limb's bits above 51 into the next limb (the top one times 19).
    @inline(__always)
    static func reduce(_ a0: UInt64, _ a1: UInt64, _ a2: UInt64, _ a3: UInt64, _ a4: UInt64) -> FieldElement51 {
        let m = mask51
        return FieldElement51(
            (a0 & m) &+ (a4 >> 51) &* 19, (a1 & m) &+ (a0 >> 51), (a2 & m) &+ (a1 >> 51),
            (a3 & m) &+ (a2 >> 51), (a4 & m) &+ (a3 >> 51))
    }
}

/// 64 hex digits → 32 bytes, for the constants above (trusted literals only).
private func hexLE(_ s: StaticString) -> [UInt8] {
    var out: [UInt8] = []
    var hi: UInt8 = 0
    var odd = false
    s.withUTF8Buffer { buf in
        for c in buf {
            let v: UInt8 = c >= 0x61 ? c - 0x61 + 10 : c - 0x30
            if odd { out.append(hi << 4 | v) } else { hi = v }
            odd.toggle()
        }
    }
    return out
}
