/// An edwards25519 point as (y+x, y−x, 2d·x·y) with Z = 1, for mixed additions from a
/// precomputed table (dalek `AffineNielsPoint`). Variable-time use only.
struct AffineNielsPoint: Sendable {
    var yPlusX: FieldElement51
    var yMinusX: FieldElement51
    var xy2d: FieldElement51
}
