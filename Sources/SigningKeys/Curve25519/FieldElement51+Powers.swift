/// Exponentiations: inversion and the square root of a ratio (RFC 9496 §4.2 `SQRT_RATIO_M1`),
/// with curve25519-dalek's addition chains (`field.rs` `pow22501`, `invert`, `pow_p58`,
/// `sqrt_ratio_i`). Variable-time helpers for public data only.
extension FieldElement51 {
    /// a^(2^k), k ≥ 1.
    @inline(__always)
    func pow2k(_ k: Int) -> FieldElement51 {
        var r = squared()
        var i = 1
        while i < k {
            r = r.squared()
            i += 1
        }
        return r
    }

    /// (a^(2^250 − 1), a^11).
    func pow22501() -> (FieldElement51, FieldElement51) {
        let t0 = squared()  // 2
        let t1 = t0.squared().squared()  // 8
        let t2 = self * t1  // 9
        let t3 = t0 * t2  // 11
        let t4 = t3.squared()  // 22
        let t5 = t2 * t4  // 2^5 − 1
        let t7 = t5.pow2k(5) * t5  // 2^10 − 1
        let t9 = t7.pow2k(10) * t7  // 2^20 − 1
        let t11 = t9.pow2k(20) * t9  // 2^40 − 1
        let t13 = t11.pow2k(10) * t7  // 2^50 − 1
        let t15 = t13.pow2k(50) * t13  // 2^100 − 1
        let t17 = t15.pow2k(100) * t15  // 2^200 − 1
        let t19 = t17.pow2k(50) * t13  // 2^250 − 1
        return (t19, t3)
    }

    /// a^(p−2) = 1/a (0 for 0).
    func inverted() -> FieldElement51 {
        let (t19, t3) = pow22501()
        return t19.pow2k(5) * t3  // 2^255 − 21
    }

    /// a^((p−5)/8) = a^(2^252 − 3).
    func powP58() -> FieldElement51 {
        let (t19, _) = pow22501()
        return self * t19.pow2k(2)
    }

    /// RFC 9496 §4.2 `SQRT_RATIO_M1(u, v)`: `(true, +√(u/v))` when u/v is a square and v ≠ 0 (or
    /// u = 0), else `(false, +√(i·u/v))`; the root returned is the non-negative one. Same
    /// decisions as libsodium 1.0.18 `ristretto255_sqrt_ratio_m1`.
    static func sqrtRatioM1(_ u: FieldElement51, _ v: FieldElement51) -> (Bool, FieldElement51) {
        let v3 = v.squared() * v
        let v7 = v3.squared() * v
        var r = (u * v3) * (u * v7).powP58()
        let check = v * r.squared()
        let correctSign = (check - u).isZero
        let flippedSign = (check + u).isZero
        let flippedSignI = (check + u * sqrtM1).isZero
        if flippedSign || flippedSignI { r = r * sqrtM1 }
        if r.isNegative { r = r.negated() }
        return (correctSign || flippedSign, r)
    }
}
