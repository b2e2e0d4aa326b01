/// A point of edwards25519 (−x² + y² = 1 + d·x²y²) in extended coordinates (X:Y:Z:T), x = X/Z,
/// y = Y/Z, x·y = T/Z (Hisil–Wong–Carter–Dawson 2008), as curve25519-dalek's `EdwardsPoint`.
///
/// Security: variable-time, for sr25519 verification of public data only.
struct EdwardsPoint: Sendable {
    var x: FieldElement51
    var y: FieldElement51
    var z: FieldElement51
    var t: FieldElement51

    static let identity = EdwardsPoint(x: .zero, y: .one, z: .one, t: .zero)

    @inline(__always)
    var projective: ProjectivePoint { ProjectivePoint(x: x, y: y, z: z) }

    /// (Y+X, Y−X, Z, 2d·T) for additions.
    @inline(__always)
    var projectiveNiels: ProjectiveNielsPoint {
        ProjectiveNielsPoint(yPlusX: y + x, yMinusX: y - x, z: z, t2d: t * FieldElement51.d2)
    }

    @inline(__always)
    func doubled() -> EdwardsPoint { projective.doubled().extended }

    static func + (p: EdwardsPoint, q: EdwardsPoint) -> EdwardsPoint { (p + q.projectiveNiels).extended }

    static func - (p: EdwardsPoint, q: EdwardsPoint) -> EdwardsPoint { (p - q.projectiveNiels).extended }

    /// −P = (−X : Y : Z : −T).
    func negated() -> EdwardsPoint { EdwardsPoint(x: x.negated(), y: y, z: z, t: t.negated()) }

    /// P + Q with Q in projective Niels form (dalek `Add<&ProjectiveNielsPoint>`, 4M).
    @inline(__always)
    static func + (p: EdwardsPoint, q: ProjectiveNielsPoint) -> CompletedPoint {
        let pp = (p.y + p.x) * q.yPlusX
        let mm = (p.y - p.x) * q.yMinusX
        let tt2d = p.t * q.t2d
        let zz = p.z * q.z
        let zz2 = zz + zz
        return CompletedPoint(x: pp - mm, y: pp + mm, z: zz2 + tt2d, t: zz2 - tt2d)
    }

    /// P − Q with Q in projective Niels form.
    @inline(__always)
    static func - (p: EdwardsPoint, q: ProjectiveNielsPoint) -> CompletedPoint {
        let pm = (p.y + p.x) * q.yMinusX
        let mp = (p.y - p.x) * q.yPlusX
        let tt2d = p.t * q.t2d
        let zz = p.z * q.z
        let zz2 = zz + zz
        return CompletedPoint(x: pm - mp, y: pm + mp, z: zz2 - tt2d, t: zz2 + tt2d)
    }

    /// P + Q with Q in affine Niels form (mixed addition, 3M).
    @inline(__always)
    static func + (p: EdwardsPoint, q: AffineNielsPoint) -> CompletedPoint {
        let pp = (p.y + p.x) * q.yPlusX
        let mm = (p.y - p.x) * q.yMinusX
        let txy2d = p.t * q.xy2d
        let z2 = p.z + p.z
        return CompletedPoint(x: pp - mm, y: pp + mm, z: z2 + txy2d, t: z2 - txy2d)
    }

    /// P − Q with Q in affine Niels form.
    @inline(__always)
    static func - (p: EdwardsPoint, q: AffineNielsPoint) -> CompletedPoint {
        let pm = (p.y + p.x) * q.yMinusX
        let mp = (p.y - p.x) * q.yPlusX
        let txy2d = p.t * q.xy2d
        let z2 = p.z + p.z
        return CompletedPoint(x: pm - mp, y: pm + mp, z: z2 - txy2d, t: z2 + txy2d)
    }

    /// Equality as points of edwards25519 (not as ristretto255 classes): X1·Z2 = X2·Z1 and
    /// Y1·Z2 = Y2·Z1. Variable-time.
    static func == (p: EdwardsPoint, q: EdwardsPoint) -> Bool {
        p.x * q.z == q.x * p.z && p.y * q.z == q.y * p.z
    }
}
