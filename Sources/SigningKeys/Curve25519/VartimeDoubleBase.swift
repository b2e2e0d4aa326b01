/// R = a·A + b·B for a public point A and the ristretto255/ed25519 base point B, in variable time:
/// Straus–Shamir interleaving with a width-5 NAF of a over the odd multiples A, 3A, …, 15A and a
/// width-8 NAF of b over a table of the odd multiples B, 3B, …, 127B in affine Niels form
/// (curve25519-dalek `backend/serial/scalar_mul/vartime_double_base.rs`).
///
/// Security: variable-time in both scalars and A. Only for verification, where every input is
/// public (docs/reference/crypto.md §1.6: `vartime_double_scalar_mul_basepoint`). Signing uses libsodium.
enum VartimeDoubleBase {
    /// B, 3B, 5B, …, 127B in affine Niels form, computed at first use (one inversion, batched).
    static let baseOddMultiples: [AffineNielsPoint] = oddMultiplesAffine(
        of: RistrettoPoint.generator.edwards, count: 64)

    /// a·A + b·B. `a` and `b`: 32 little-endian bytes each, values below 2^255 (bit 255 ignored).
    static func mul(
        _ a: UnsafeRawBufferPointer, _ point: EdwardsPoint, _ b: UnsafeRawBufferPointer
    ) -> EdwardsPoint {
        let aNAF = NonAdjacentForm(scalar: a, width: 5)
        let bNAF = NonAdjacentForm(scalar: b, width: 8)
        var top = 255
        while top >= 0 && aNAF.digits[top] == 0 && bNAF.digits[top] == 0 { top -= 1 }
        if top < 0 { return .identity }
        // A, 3A, …, 15A.
        var tableA: InlineArray<8, ProjectiveNielsPoint> = .init(repeating: point.projectiveNiels)
        let a2 = point.doubled()
        var multiple = point
        for i in 1..<8 {
            multiple = (a2 + tableA[i - 1]).extended
            tableA[i] = multiple.projectiveNiels
        }
        return baseOddMultiples.withUnsafeBufferPointer { tableB in
            var r = ProjectivePoint.identity
            var i = top
            while true {
                var t = r.doubled()
                let da = aNAF.digits[i]
                if da > 0 {
                    t = t.extended + tableA[Int(da) / 2]
                } else if da < 0 {
                    t = t.extended - tableA[-Int(da) / 2]
                }
                let db = bNAF.digits[i]
                if db > 0 {
                    t = t.extended + tableB[Int(db) / 2]
                } else if db < 0 {
                    t = t.extended - tableB[-Int(db) / 2]
                }
                if i == 0 { return t.extended }
                r = t.projective
                i -= 1
            }
        }
    }

    /// P, 3P, …, (2·count − 1)·P as affine Niels points, normalised with one batched inversion
    /// (Montgomery's trick).
    static func oddMultiplesAffine(of p: EdwardsPoint, count: Int) -> [AffineNielsPoint] {
        var points = [p]
        let p2 = p.doubled()
        for i in 1..<count { points.append(points[i - 1] + p2) }
        // prefix[i] = z0·…·z(i−1)
        var prefix = [FieldElement51.one]
        for q in points { prefix.append(prefix[prefix.count - 1] * q.z) }
        var inv = prefix[count].inverted()
        var result = [AffineNielsPoint](
            repeating: AffineNielsPoint(yPlusX: .zero, yMinusX: .zero, xy2d: .zero), count: count)
        var i = count - 1
        while i >= 0 {
            let zInv = inv * prefix[i]
            inv = inv * points[i].z
            let x = points[i].x * zInv
            let y = points[i].y * zInv
            result[i] = AffineNielsPoint(yPlusX: y + x, yMinusX: y - x, xy2d: x * y * FieldElement51.d2)
            i -= 1
        }
        return result
    }
}
