/// An edwards25519 point as (Y+X, Y−X, Z, 2d·T), ready to be added (dalek
/// `ProjectiveNielsPoint`). Variable-time use only.
struct ProjectiveNielsPoint: Sendable {
    var yPlusX: FieldElement51
    var yMinusX: FieldElement51
    var z: FieldElement51
    var t2d: FieldElement51
}
