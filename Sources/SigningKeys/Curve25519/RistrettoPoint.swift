/// A ristretto255 group element (RFC 9496), held as one edwards25519 representative of its class,
/// with the decoding and encoding of RFC 9496 §4.3.1 / §4.3.2 as curve25519-dalek's
/// `CompressedRistretto::decompress` and `RistrettoPoint::compress` and libsodium 1.0.18's
/// `ristretto255_frombytes` / `ristretto255_p3_tobytes` do them.
///
/// Security: variable-time; for sr25519 verification of public data only.
struct RistrettoPoint: Sendable {
    var edwards: EdwardsPoint

    /// The ristretto255 generator (RFC 9496 §4.4), decoded from its standard encoding.
    static let generator: RistrettoPoint = {
        let encoding: [UInt8] = [
            0xe2, 0xf2, 0xae, 0x0a, 0x6a, 0xbc, 0x4e, 0x71, 0xa8, 0x84, 0xa9, 0x61, 0xc5, 0x00, 0x51, 0x5f,
            0x58, 0xe3, 0x0b, 0x6a, 0xa5, 0x82, 0xdd, 0x8d, 0xb6, 0xa6, 0x59, 0x45, 0xe0, 0x8d, 0x2d, 0x76,
        ]
        // The literal is a valid encoding (unit-tested against libsodium); identity is unreachable.
        return encoding.withUnsafeBytes { RistrettoPoint(decoding: $0) } ?? RistrettoPoint(edwards: .identity)
    }()

    init(edwards: EdwardsPoint) { self.edwards = edwards }

    /// Decodes a 32-byte encoding; `nil` unless it is canonical and valid. Rejects, exactly as
    /// libsodium's `crypto_core_ristretto255_is_valid_point` (plus bit 255, which libsodium
    /// 1.0.18 ignores, docs/reference/crypto.md §1.7) and dalek do: a field element ≥ p, bit 255 set, a
    /// negative (odd) s, a non-square, a negative t, or y = 0. Untrusted input: never traps;
    /// `nil` for a buffer that is not exactly 32 bytes.
    init?(decoding b: UnsafeRawBufferPointer) {
        guard b.count == 32 else { return nil }
        let s = FieldElement51(bytes: b)
        // Canonical: re-encoding gives the same 32 bytes (catches s ≥ p and bit 255).
        var canonical: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
        let same = withUnsafeMutableBytes(of: &canonical) { c -> Bool in
            s.write(to: c)
            for i in 0..<32 where c[i] != b[i] { return false }
            return true
        }
        guard same, !s.isNegative else { return nil }
        let one = FieldElement51.one
        let ss = s.squared()
        let u1 = one - ss  // 1 + a·s²
        let u2 = one + ss  // 1 − a·s²
        let u2Sq = u2.squared()
        let v = FieldElement51.d.negated() * u1.squared() - u2Sq  // a·d·u1² − u2²
        let (wasSquare, invSqrt) = FieldElement51.sqrtRatioM1(one, v * u2Sq)
        let denX = invSqrt * u2
        let denY = invSqrt * denX * v
        var x = (s + s) * denX
        if x.isNegative { x = x.negated() }
        let y = u1 * denY
        let t = x * y
        guard wasSquare, !t.isNegative, !y.isZero else { return nil }
        edwards = EdwardsPoint(x: x, y: y, z: one, t: t)
    }

    /// Decodes a byte array (tests and constants).
    init?(decoding bytes: [UInt8]) {
        guard let p = bytes.withUnsafeBytes({ RistrettoPoint(decoding: $0) }) else { return nil }
        self = p
    }

    /// Writes the canonical 32-byte encoding into `out` (at least 32 bytes).
    func encode(into out: UnsafeMutableRawBufferPointer) {
        var x = edwards.x
        var y = edwards.y
        let z = edwards.z
        let t = edwards.t
        let u1 = (z + y) * (z - y)
        let u2 = x * y
        // Always a square for a valid representative (RFC 9496 §4.3.2).
        let (_, invSqrt) = FieldElement51.sqrtRatioM1(.one, u1 * u2.squared())
        let den1 = invSqrt * u1
        let den2 = invSqrt * u2
        let zInv = den1 * (den2 * t)
        var denInv = den2
        if (t * zInv).isNegative {
            let ix = x * FieldElement51.sqrtM1
            x = y * FieldElement51.sqrtM1
            y = ix
            denInv = den1 * FieldElement51.invSqrtAMinusD
        }
        if (x * zInv).isNegative { y = y.negated() }
        var s = denInv * (z - y)
        if s.isNegative { s = s.negated() }
        s.write(to: out)
    }

    /// The canonical 32-byte encoding.
    func encoded() -> [UInt8] {
        var out = [UInt8](repeating: 0, count: 32)
        out.withUnsafeMutableBytes { encode(into: $0) }
        return out
    }

    static func + (p: RistrettoPoint, q: RistrettoPoint) -> RistrettoPoint {
        RistrettoPoint(edwards: p.edwards + q.edwards)
    }

    static func - (p: RistrettoPoint, q: RistrettoPoint) -> RistrettoPoint {
        RistrettoPoint(edwards: p.edwards - q.edwards)
    }

    /// Equality of ristretto255 classes (RFC 9496 §4.3.3): X1·Y2 = Y1·X2 or Y1·Y2 = X1·X2.
    static func == (p: RistrettoPoint, q: RistrettoPoint) -> Bool {
        let a = p.edwards
        let b = q.edwards
        return a.x * b.y == a.y * b.x || a.y * b.y == a.x * b.x
    }
}
