import CSodium
import Foundation

@testable import SigningKeys
import SigilTesting

/// Deterministic pseudo-random bytes for the Curve25519 and differential tests (SplitMix64), so a
/// failing case is reproducible from its index.
typealias TestBytes = SplitMix64

/// The number of random cases of a differential loop: `count`, or a fifth of it in the fast tier
/// (`scripts/test` runs `swift test` with SIGILTEST_TIER=fast; the full tier, `scripts/test swift` and a
/// plain `swift test` run every case), as `by_tier` scales the shell steps (docs/testing.md). The
/// seeds are the same, so the fast tier runs a prefix of the full tier's cases.
func tierScaled(_ count: Int) -> Int {
    ProcessInfo.processInfo.environment["SIGILTEST_TIER"] == "fast" ? max(count / 5, 1) : count
}

extension SplitMix64 {
    /// A uniformly random scalar mod l (`crypto_core_ristretto255_scalar_reduce` of 64 bytes).
    mutating func scalar() -> [UInt8] {
        let wide = bytes(64)
        var out = [UInt8](repeating: 0, count: 32)
        crypto_core_ristretto255_scalar_reduce(&out, wide)
        return out
    }

    /// A random valid ristretto255 encoding made by libsodium (`crypto_core_ristretto255_from_hash`).
    mutating func point() -> [UInt8] {
        let wide = bytes(64)
        var out = [UInt8](repeating: 0, count: 32)
        crypto_core_ristretto255_from_hash(&out, wide)
        return out
    }
}

/// Independent reference arithmetic mod p = 2^255 − 19 with 16 limbs of 16 bits (schoolbook), for
/// checking `FieldElement51` without sharing its code.
enum ReferenceField {
    static let p: [UInt64] = (0..<16).map { $0 == 0 ? 0xffed : ($0 == 15 ? 0x7fff : 0xffff) }

    static func limbs(_ b: [UInt8]) -> [UInt64] {
        (0..<16).map { UInt64(b[2 * $0]) | UInt64(b[2 * $0 + 1]) << 8 }
    }

    static func bytes(_ l: [UInt64]) -> [UInt8] {
        var out: [UInt8] = []
        for x in l { out += [UInt8(x & 0xff), UInt8(x >> 8 & 0xff)] }
        return out
    }

    /// Fully reduced product of two 256-bit values (any values below 2^256).
    static func mul(_ a: [UInt8], _ b: [UInt8]) -> [UInt8] {
        let x = limbs(a)
        let y = limbs(b)
        var wide = [UInt64](repeating: 0, count: 33)
        for i in 0..<16 { for j in 0..<16 { wide[i + j] += x[i] * y[j] } }
        return bytes(reduce(wide))
    }

    /// Reduces a value given as (loosely carried) 16-bit columns, fully, mod p.
    static func reduce(_ columns: [UInt64]) -> [UInt64] {
        var c = columns
        // Carry, then fold everything at or above 2^256 down (2^256 ≡ 38), until 16 limbs remain.
        while true {
            var carry: UInt64 = 0
            for i in 0..<c.count {
                let v = c[i] + carry
                c[i] = v & 0xffff
                carry = v >> 16
            }
            if carry != 0 { c.append(carry) }
            if c.count <= 16 || c[16...].allSatisfy({ $0 == 0 }) { break }
            // Limb 16 + i has weight 2^256 · 2^(16i) ≡ 38 · 2^(16i).
            let high = Array(c[16...])
            c = Array(c[0..<16]) + [UInt64](repeating: 0, count: max(0, high.count - 16))
            for (i, h) in high.enumerated() { c[i] += h * 38 }
        }
        c = Array(c[0..<16])
        // Now below 2^256 < 3p: subtract p while ≥ p.
        while !lessThanP(c) { c = subtractP(c) }
        return c
    }

    static func lessThanP(_ c: [UInt64]) -> Bool {
        for i in stride(from: 15, through: 0, by: -1) where c[i] != p[i] { return c[i] < p[i] }
        return false
    }

    static func subtractP(_ c: [UInt64]) -> [UInt64] {
        var out = c
        var borrow: Int64 = 0
        for i in 0..<16 {
            var v = Int64(c[i]) - Int64(p[i]) - borrow
            borrow = v < 0 ? 1 : 0
            if v < 0 { v += 0x10000 }
            out[i] = UInt64(v)
        }
        return out
    }

    static func add(_ a: [UInt8], _ b: [UInt8]) -> [UInt8] {
        let x = limbs(a)
        let y = limbs(b)
        return bytes(reduce((0..<16).map { x[$0] + y[$0] }))
    }

    /// a − b mod p, as a + (p − b mod p)... computed as a + 2p − b with b reduced first.
    static func sub(_ a: [UInt8], _ b: [UInt8]) -> [UInt8] {
        let y = reduce(limbs(b))
        let x = reduce(limbs(a))
        // x + p − y ≥ 0 since y < p.
        var out = [UInt64](repeating: 0, count: 16)
        var borrow: Int64 = 0
        for i in 0..<16 {
            var v = Int64(x[i]) + Int64(p[i]) - Int64(y[i]) - borrow
            borrow = v < 0 ? 1 : 0
            if v < 0 { v += 0x10000 }
            out[i] = UInt64(v)
        }
        return bytes(reduce(out))
    }

    /// The value of 32 bytes with bit 255 cleared, reduced mod p.
    static func canonical(_ a: [UInt8]) -> [UInt8] {
        var b = a
        b[31] &= 0x7f
        return bytes(reduce(limbs(b)))
    }
}
