import CSodium
import Primitives

/// ristretto255 group and scalar operations from libsodium 1.0.18 (docs/reference/crypto.md §1.7), with the
/// canonicity checks libsodium 1.0.18 lacks.
///
/// Security: libsodium's scalar and base-point operations are constant-time; `isCanonicalScalar`
/// and `isCanonicalPointEncoding` are used only on public data.
enum Ristretto255 {
    /// The group order l, 32 bytes little-endian.
    static let order: [UInt8] = [
        0xed, 0xd3, 0xf5, 0x5c, 0x1a, 0x63, 0x12, 0x58, 0xd6, 0x9c, 0xf7, 0xa2, 0xde, 0xf9, 0xde, 0x14,
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x10,
    ]

    /// `true` when the 32 little-endian bytes encode an integer < l. Variable-time (public data).
    static func isCanonicalScalar(_ s: UnsafeRawBufferPointer) -> Bool {
        guard s.count == 32 else { return false }
        var i = 31
        while i >= 0 {
            if s[i] < order[i] { return true }
            if s[i] > order[i] { return false }
            i -= 1
        }
        return false  // equal to l
    }

    /// The check libsodium 1.0.18 lacks (§1.7): bit 255 of an encoding must be clear. The rest of
    /// canonicity is checked by every libsodium call that decodes the point.
    static func hasClearTopBit(_ p: UnsafeRawBufferPointer) -> Bool { p.count == 32 && p[31] & 0x80 == 0 }

    /// Rejects encodings with bit 255 set, which libsodium 1.0.18 ignores (§1.7), then asks
    /// libsodium whether the rest is a canonical, valid point.
    static func isCanonicalPointEncoding(_ p: UnsafeRawBufferPointer) -> Bool {
        guard p.count == 32, p[31] & 0x80 == 0 else { return false }
        Sodium.ensureInitialized()
        return crypto_core_ristretto255_is_valid_point(p.u8) == 1
    }

    /// `Scalar::from_bytes_mod_order_wide` of 64 bytes.
    static func reduceWide(_ input: UnsafeRawBufferPointer, into out: UnsafeMutableRawBufferPointer) {
        crypto_core_ristretto255_scalar_reduce(
            out.u8,
            input.u8)
    }

    /// out = a·b + c (mod l).
    static func mulAdd(
        _ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer, _ c: UnsafeRawBufferPointer,
        into out: UnsafeMutableRawBufferPointer
    ) {
        var t = [UInt8](repeating: 0, count: 32)
        t.withUnsafeMutableBytes { tp in
            crypto_core_ristretto255_scalar_mul(u8(tp), u8(a), u8(b))
            crypto_core_ristretto255_scalar_add(u8(out), u8(tp), u8(c))
        }
        ConstantTime.wipe(&t)
    }

    /// out = a + b (mod l).
    static func add(_ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer, into out: UnsafeMutableRawBufferPointer) {
        crypto_core_ristretto255_scalar_add(u8(out), u8(a), u8(b))
    }

    /// out = n·B; `false` when the result is the identity (n ≡ 0), which callers treat as an error.
    static func baseMul(_ n: UnsafeRawBufferPointer, into out: UnsafeMutableRawBufferPointer) -> Bool {
        Sodium.ensureInitialized()
        return crypto_scalarmult_ristretto255_base(u8(out), u8(n)) == 0
    }

    /// out = n·P; `false` when P does not decode or the result is the identity.
    static func mul(_ n: UnsafeRawBufferPointer, _ p: UnsafeRawBufferPointer, into out: UnsafeMutableRawBufferPointer)
        -> Bool
    {
        crypto_scalarmult_ristretto255(u8(out), u8(n), u8(p)) == 0
    }

    /// out = P − Q; `false` when an input does not decode.
    static func sub(_ p: UnsafeRawBufferPointer, _ q: UnsafeRawBufferPointer, into out: UnsafeMutableRawBufferPointer)
        -> Bool
    {
        crypto_core_ristretto255_sub(u8(out), u8(p), u8(q)) == 0
    }

    /// out = P + Q; `false` when an input does not decode.
    static func addPoints(
        _ p: UnsafeRawBufferPointer, _ q: UnsafeRawBufferPointer, into out: UnsafeMutableRawBufferPointer
    ) -> Bool {
        crypto_core_ristretto255_add(u8(out), u8(p), u8(q)) == 0
    }

    @inline(__always)
    private static func u8(_ p: UnsafeRawBufferPointer) -> UnsafePointer<UInt8> {
        p.u8
    }

    @inline(__always)
    private static func u8(_ p: UnsafeMutableRawBufferPointer) -> UnsafeMutablePointer<UInt8> {
        p.u8
    }
}
