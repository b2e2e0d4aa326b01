import CSodium
import Primitives

/// sr25519 signing and verification (schnorrkel `sign.rs`; docs/reference/crypto.md §1.4–1.7).
extension Sr25519KeyPair {
    // MARK: signing

    /// Signs `message` with the `substrate` context and fresh system randomness. Randomized.
    package func sign(_ message: [UInt8]) throws -> [UInt8] {
        // 32 fresh bytes on the stack (no heap/mlock round trip per signature), wiped afterwards.
        var random: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
        defer { withUnsafeMutableBytes(of: &random) { ConstantTime.wipe($0) } }
        return try withUnsafeMutableBytes(of: &random) { r in
            Sodium.ensureInitialized()
            randombytes_buf(r.u8, r.count)
            return try message.withUnsafeBytes { try sign($0, random32: UnsafeRawBufferPointer(r)) }
        }
    }

    /// Deterministic core of `sign` with the 32 transcript-RNG bytes given (tests reproduce
    /// upstream vectors with it; production callers use `sign(_:)`).
    func sign(_ message: UnsafeRawBufferPointer, random32: UnsafeRawBufferPointer) throws -> [UInt8] {
        guard message.count < Int(UInt32.max) else {
            throw KeyError(.badLength, "sr25519 message of \(message.count) bytes exceeds Merlin's 2^32 limit")
        }
        var t = Sr25519KeyPair.contextTranscript()
        t.append("sign-bytes", message)
        t.append("proto-name", "Schnorr-sig")
        t.append("sign:pk", publicKey)
        var signature = [UInt8](repeating: 0, count: 64)
        let ok = secret.withUnsafeBytes { sk -> Bool in
            let key = UnsafeRawBufferPointer(rebasing: sk[0..<32])
            let nonce = UnsafeRawBufferPointer(rebasing: sk[32..<64])
            var builder = t.buildRng()
            builder.rekey(withWitness: "signing", nonce)
            var rng = builder.finalize(random32: random32)
            var wide = [UInt8](repeating: 0, count: 64)
            var r = [UInt8](repeating: 0, count: 32)
            defer {
                rng.wipe()
                ConstantTime.wipe(&wide)
                ConstantTime.wipe(&r)
            }
            wide.withUnsafeMutableBytes { rng.fill($0) }
            wide.withUnsafeBytes { w in r.withUnsafeMutableBytes { Ristretto255.reduceWide(w, into: $0) } }
            let baseOK = signature.withUnsafeMutableBytes { sig in
                r.withUnsafeBytes {
                    Ristretto255.baseMul($0, into: UnsafeMutableRawBufferPointer(rebasing: sig[0..<32]))
                }
            }
            guard baseOK else { return false }
            signature.withUnsafeBytes { t.append("sign:R", UnsafeRawBufferPointer(rebasing: $0[0..<32])) }
            var c = [UInt8](repeating: 0, count: 64)
            c.withUnsafeMutableBytes { t.challengeBytes("sign:c", into: $0) }
            var k = [UInt8](repeating: 0, count: 32)
            c.withUnsafeBytes { cw in k.withUnsafeMutableBytes { Ristretto255.reduceWide(cw, into: $0) } }
            signature.withUnsafeMutableBytes { sig in
                k.withUnsafeBytes { kp in
                    r.withUnsafeBytes { rp in
                        Ristretto255.mulAdd(kp, key, rp, into: UnsafeMutableRawBufferPointer(rebasing: sig[32..<64]))
                    }
                }
            }
            return true
        }
        guard ok else { throw KeyError(.cryptoFailure, "sr25519 witness scalar was zero") }
        signature[63] |= 0x80  // schnorrkel marker bit, §1.5
        return signature
    }

    // MARK: verification

    /// `true` when `signature` is a valid schnorrkel signature by `publicKey` over `message` in the
    /// `substrate` context. Untrusted input; never throws or traps.
    package static func verify(signature: [UInt8], message: [UInt8], publicKey: [UInt8]) -> Bool {
        (try? check(signature: signature, message: message, publicKey: publicKey)) != nil
    }

    /// Like `verify`, but throws a `KeyError` whose reason says why the signature is rejected.
    ///
    /// R' = s·B − k·A is computed by the variable-time Straus double-scalar multiplication in
    /// `Curve25519/` (all inputs are public, docs/reference/crypto.md §1.6); its decisions are the same as
    /// `checkWithLibsodium`'s, which the differential tests compare it against.
    package static func check(signature: [UInt8], message: [UInt8], publicKey: [UInt8]) throws {
        let (s, k) = try parseAndChallenge(signature: signature, message: message, publicKey: publicKey)
        // Same rejections, codes and order of outcomes as `checkWithLibsodium`: libsodium's
        // scalarmult fails for an undecodable A, the identity A (all-zero encoding, the only
        // canonical one of the identity) or k ≡ 0; its base mult fails for s ≡ 0 (§1.7).
        let decoded = publicKey.withUnsafeBytes { RistrettoPoint(decoding: $0) }
        guard let a = decoded, publicKey.contains(where: { $0 != 0 }), k.contains(where: { $0 != 0 }) else {
            throw KeyError(.invalidPublicKey, "public key is not a canonical ristretto255 point (or is the identity)")
        }
        guard s.contains(where: { $0 != 0 }) else {
            throw KeyError(.invalidSignature, "signature does not verify for this public key and message")
        }
        let rPrime = k.withUnsafeBytes { kp in
            s.withUnsafeBytes { sp in VartimeDoubleBase.mul(kp, a.edwards.negated(), sp) }
        }
        var encoded: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
        let same = withUnsafeMutableBytes(of: &encoded) { e -> Bool in
            RistrettoPoint(edwards: rPrime).encode(into: e)
            for i in 0..<32 where e[i] != signature[i] { return false }
            return true
        }
        guard same else {
            throw KeyError(.invalidSignature, "signature does not verify for this public key and message")
        }
    }

    /// The libsodium-only verification (s·B and k·A by libsodium's constant-time multiplications,
    /// then `crypto_core_ristretto255_sub`), docs/reference/crypto.md §1.7. Kept as the reference that the
    /// differential tests compare `check` against; slower (about 2.5× the instructions).
    static func checkWithLibsodium(signature: [UInt8], message: [UInt8], publicKey: [UInt8]) throws {
        let (s, k) = try parseAndChallenge(signature: signature, message: message, publicKey: publicKey)
        var sB = [UInt8](repeating: 0, count: 32)
        var kA = [UInt8](repeating: 0, count: 32)
        var rPrime = [UInt8](repeating: 0, count: 32)
        // k·A first: it also decodes A, so an invalid key is reported as such.
        guard
            k.withUnsafeBytes({ kp in
                publicKey.withUnsafeBytes { pp in kA.withUnsafeMutableBytes { Ristretto255.mul(kp, pp, into: $0) } }
            })
        else {
            throw KeyError(.invalidPublicKey, "public key is not a canonical ristretto255 point (or is the identity)")
        }
        let ok =
            s.withUnsafeBytes { sp in sB.withUnsafeMutableBytes { Ristretto255.baseMul(sp, into: $0) } }
            && sB.withUnsafeBytes { a in
                kA.withUnsafeBytes { b in rPrime.withUnsafeMutableBytes { Ristretto255.sub(a, b, into: $0) } }
            }
        guard ok, rPrime[...] == signature[0..<32] else {
            throw KeyError(.invalidSignature, "signature does not verify for this public key and message")
        }
    }

    /// Checks lengths, the marker bit, `s < l` and bit 255 of the key (§1.5, §1.7), then runs the
    /// transcript (§1.6); returns (s without the marker, k = challenge mod l).
    private static func parseAndChallenge(
        signature: [UInt8], message: [UInt8], publicKey: [UInt8]
    ) throws -> (s: [UInt8], k: [UInt8]) {
        guard signature.count == 64 else {
            throw KeyError(.badLength, "sr25519 signature must be 64 bytes, got \(signature.count)")
        }
        guard publicKey.count == 32 else {
            throw KeyError(.badLength, "sr25519 public key must be 32 bytes, got \(publicKey.count)")
        }
        guard message.count < Int(UInt32.max) else {
            throw KeyError(.badLength, "message exceeds Merlin's 2^32-byte limit")
        }
        guard signature[63] & 0x80 != 0 else {
            throw KeyError(
                .invalidSignature, "signature lacks the schnorrkel marker bit (pre-0.8 or ed25519 signature)")
        }
        var s = Array(signature[32..<64])
        s[31] &= 0x7f
        guard s.withUnsafeBytes({ Ristretto255.isCanonicalScalar($0) }) else {
            throw KeyError(.invalidSignature, "signature scalar is not canonical (s >= l)")
        }
        // Bit 255 here; the rest of canonical decoding happens when A is decoded (libsodium
        // 1.0.18 ignores bit 255, §1.7).
        guard publicKey.withUnsafeBytes({ Ristretto255.hasClearTopBit($0) }) else {
            throw KeyError(.invalidPublicKey, "public key is not a canonical ristretto255 encoding (bit 255 set)")
        }
        var t = contextTranscript()
        t.append("sign-bytes", message)
        t.append("proto-name", "Schnorr-sig")
        t.append("sign:pk", publicKey)
        signature.withUnsafeBytes { t.append("sign:R", UnsafeRawBufferPointer(rebasing: $0[0..<32])) }
        var c = [UInt8](repeating: 0, count: 64)
        c.withUnsafeMutableBytes { t.challengeBytes("sign:c", into: $0) }
        var k = [UInt8](repeating: 0, count: 32)
        c.withUnsafeBytes { cw in k.withUnsafeMutableBytes { Ristretto255.reduceWide(cw, into: $0) } }
        return (s, k)
    }

    /// `SigningContext::new(b"substrate")`: `Transcript("SigningContext")` then
    /// `append_message("", "substrate")`, computed once (§1.4 steps 0–1).
    private static let substrateContext: Strobe128 = {
        var t = MerlinTranscript("SigningContext")
        t.append("", signingContext)
        return t.strobe
    }()

    @inline(__always)
    static func contextTranscript() -> MerlinTranscript { MerlinTranscript(resuming: substrateContext) }
}
