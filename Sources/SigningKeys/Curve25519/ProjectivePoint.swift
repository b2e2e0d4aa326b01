/// An edwards25519 point in projective coordinates (X:Y:Z), the form doubling starts from
/// (dalek `ProjectivePoint`). Variable-time use only (sr25519 verification).
struct ProjectivePoint: Sendable {
    var x: FieldElement51
    var y: FieldElement51
    var z: FieldElement51

    static let identity = ProjectivePoint(x: .zero, y: .one, z: .one)

    /// 2·P (dalek `ProjectivePoint::double`, 3S + 1 squared2; "dbl-2008-hwcd").
    @inline(__always)
    func doubled() -> CompletedPoint {
        let xx = x.squared()
        let yy = y.squared()
        let zz2 = z.squared2()
        let xPlusYSq = (x + y).squared()
        let yyPlusXX = yy + xx
        let yyMinusXX = yy - xx
        return CompletedPoint(x: xPlusYSq - yyPlusXX, y: yyPlusXX, z: yyMinusXX, t: zz2 - yyMinusXX)
    }
}
