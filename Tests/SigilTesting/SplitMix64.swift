/// SplitMix64 (Steele, Lea and Flood, "Fast splittable pseudorandom number generators", 2014): the
/// one seeded generator of every test, fuzz loop and stress tool, so that a failure replays from its
/// seed. Not for anything secret.
public struct SplitMix64: RandomNumberGenerator, Sendable {
    /// The generator's whole state; a seed is a starting state.
    public var state: UInt64

    public init(seed: UInt64) { state = seed }

    public init(state: UInt64) { self.state = state }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A value in `0..<n` (0 when `n` ≤ 0); the modulo bias is irrelevant for tests.
    public mutating func below(_ n: Int) -> Int {
        n <= 0 ? 0 : Int(truncatingIfNeeded: next() % UInt64(n))
    }

    /// `count` bytes.
    public mutating func bytes(_ count: Int) -> [UInt8] {
        (0..<max(count, 0)).map { _ in UInt8(truncatingIfNeeded: next()) }
    }
}
