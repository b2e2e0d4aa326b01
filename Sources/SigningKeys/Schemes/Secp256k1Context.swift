import CSecp256k1
import Primitives

/// The process-wide libsecp256k1 context, created once and randomized once (side-channel
/// hardening recommended by `secp256k1.h`). After creation it is only read, which libsecp256k1
/// documents as thread-safe; hence `@unchecked Sendable`.
final class Secp256k1Context: @unchecked Sendable {
    static let shared = Secp256k1Context()

    let context: OpaquePointer

    private init() {
        // SECP256K1_CONTEXT_NONE (libsecp256k1 0.2.0 deprecates the SIGN/VERIFY flags).
        // secp256k1_context_create aborts rather than return NULL (secp256k1.h), so the pointer is
        // never nil here.
        guard let ctx = secp256k1_context_create(UInt32(SECP256K1_CONTEXT_NONE)) else {
            preconditionFailure("secp256k1_context_create returned NULL")
        }
        var seed = SecretBytes.random(count: 32).unsafeExposedBytes()
        _ = secp256k1_context_randomize(ctx, seed)
        ConstantTime.wipe(&seed)
        context = ctx
    }

    deinit { secp256k1_context_destroy(context) }

    /// `true` when the 32 bytes are a valid secret key (0 < k < n).
    func isValidSecret(_ key: UnsafeRawBufferPointer) -> Bool {
        key.count == 32 && secp256k1_ec_seckey_verify(context, key.u8) == 1
    }

    /// Compressed (33) and uncompressed (65) SEC1 encodings of the public key for `key`.
    func publicKey(_ key: UnsafeRawBufferPointer) -> (compressed: [UInt8], uncompressed: [UInt8])? {
        var pub = secp256k1_pubkey()
        guard secp256k1_ec_pubkey_create(context, &pub, key.u8) == 1 else {
            return nil
        }
        return (serialize(&pub, compressed: true), serialize(&pub, compressed: false))
    }

    func serialize(_ pub: inout secp256k1_pubkey, compressed: Bool) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: compressed ? 33 : 65)
        var len = out.count
        _ = secp256k1_ec_pubkey_serialize(
            context, &out, &len, &pub,
            UInt32(compressed ? SECP256K1_EC_COMPRESSED : SECP256K1_EC_UNCOMPRESSED))
        return Array(out.prefix(len))
    }

    /// Parses a SEC1 public key (33 or 65 bytes); `nil` when invalid.
    func parsePublicKey(_ bytes: [UInt8]) -> secp256k1_pubkey? {
        var pub = secp256k1_pubkey()
        guard secp256k1_ec_pubkey_parse(context, &pub, bytes, bytes.count) == 1 else { return nil }
        return pub
    }

    /// `key + tweak mod n` into `out` (BIP32 CKDpriv). `false` when the tweak is ≥ n or the sum is
    /// zero (BIP32: the child is invalid).
    func addTweak(to out: UnsafeMutableRawBufferPointer, tweak: UnsafeRawBufferPointer) -> Bool {
        out.count == 32 && tweak.count == 32 && secp256k1_ec_seckey_tweak_add(context, out.u8, tweak.u8) == 1
    }

    /// RFC 6979, low-S recoverable signature over a 32-byte digest: `r ‖ s ‖ v` with v = 0/1.
    func signRecoverable(digest: [UInt8], key: UnsafeRawBufferPointer) -> [UInt8]? {
        guard digest.count == 32 else { return nil }
        var sig = secp256k1_ecdsa_recoverable_signature()
        guard
            secp256k1_ecdsa_sign_recoverable(
                context, &sig, digest,
                key.u8, nil, nil) == 1
        else { return nil }
        var out = [UInt8](repeating: 0, count: 64)
        var recid: Int32 = 0
        _ = secp256k1_ecdsa_recoverable_signature_serialize_compact(context, &out, &recid, &sig)
        out.append(UInt8(truncatingIfNeeded: recid))
        return out
    }

    /// Recovers the public key from `r ‖ s ‖ v` (v = 0…3 or 27…30, as sp-io accepts) over a digest.
    func recover(signature: [UInt8], digest: [UInt8]) throws -> secp256k1_pubkey {
        guard signature.count == 65 else {
            throw KeyError(.badLength, "secp256k1 signature must be 65 bytes, got \(signature.count)")
        }
        guard digest.count == 32 else { throw KeyError(.badLength, "digest must be 32 bytes") }
        var v = Int32(signature[64])
        if v >= 27 { v -= 27 }
        guard (0...3).contains(v) else {
            throw KeyError(.invalidSignature, "recovery id \(signature[64]) is not 0…3 or 27…30")
        }
        var sig = secp256k1_ecdsa_recoverable_signature()
        guard secp256k1_ecdsa_recoverable_signature_parse_compact(context, &sig, signature, v) == 1 else {
            throw KeyError(.invalidSignature, "r or s is out of range")
        }
        var pub = secp256k1_pubkey()
        guard secp256k1_ecdsa_recover(context, &pub, &sig, digest) == 1 else {
            throw KeyError(.invalidSignature, "no public key recovers from this signature")
        }
        return pub
    }
}
