/// An edwards25519 point as ((X:Z), (Y:T)), x = X/Z, y = Y/T: the output of doubling and addition
/// before the final multiplications (dalek `CompletedPoint`). Variable-time use only.
struct CompletedPoint: Sendable {
    var x: FieldElement51
    var y: FieldElement51
    var z: FieldElement51
    var t: FieldElement51

    /// (X·T : Y·Z : Z·T), 3M.
    @inline(__always)
    var projective: ProjectivePoint { ProjectivePoint(x: x * t, y: y * z, z: z * t) }

    /// (X·T : Y·Z : Z·T : X·Y), 4M.
    @inline(__always)
    var extended: EdwardsPoint { EdwardsPoint(x: x * t, y: y * z, z: z * t, t: x * y) }
}
