import Primitives

/// sr25519 hard and soft derivation (schnorrkel `derive.rs`; docs/reference/crypto.md §3.4).
extension Sr25519KeyPair {
    // MARK: derivation (schnorrkel derive.rs; docs/reference/crypto.md §3.4)

    /// Hard junction: a new mini secret from the HDKD-hard challenge, then Ed25519-mode expansion.
    package func deriveHard(chainCode: [UInt8]) throws -> Sr25519KeyPair {
        guard chainCode.count == 32 else { throw KeyError(.badLength, "chain code must be 32 bytes") }
        var t = MerlinTranscript("SchnorrRistrettoHDKD")
        t.append("sign-bytes", [UInt8]())
        t.append("chain-code", chainCode)
        secret.withUnsafeBytes { t.append("secret-key", UnsafeRawBufferPointer(rebasing: $0[0..<32])) }
        let mini = SecretBytes(count: 32) { t.challengeBytes("HDKD-hard", into: $0) }
        return try Sr25519KeyPair(seed: mini)
    }

    /// Soft junction with fresh system randomness for the new nonce (as sp-core does).
    package func deriveSoft(chainCode: [UInt8]) throws -> Sr25519KeyPair {
        let random = SecretBytes.random(count: 32)
        return try random.withUnsafeBytes { try deriveSoft(chainCode: chainCode, random32: $0) }
    }

    /// Soft junction with the 32 witness-RNG bytes given (tests).
    func deriveSoft(chainCode: [UInt8], random32: UnsafeRawBufferPointer) throws -> Sr25519KeyPair {
        guard chainCode.count == 32 else { throw KeyError(.badLength, "chain code must be 32 bytes") }
        var (t, scalar) = Sr25519KeyPair.softScalar(publicKey: publicKey, chainCode: chainCode)
        let derived = SecretBytes(count: 64) { out in
            secret.withUnsafeBytes { sk in
                let key = UnsafeRawBufferPointer(rebasing: sk[0..<32])
                let nonce = UnsafeRawBufferPointer(rebasing: sk[32..<64])
                var builder = t.buildRng()
                builder.rekey(withWitness: "HDKD-nonce", nonce)
                builder.rekey(withWitness: "HDKD-nonce", sk)
                var rng = builder.finalize(random32: random32)
                rng.fill(UnsafeMutableRawBufferPointer(rebasing: out[32..<64]))
                rng.wipe()
                scalar.withUnsafeBytes {
                    Ristretto255.add(key, $0, into: UnsafeMutableRawBufferPointer(rebasing: out[0..<32]))
                }
            }
        }
        ConstantTime.wipe(&scalar)
        return try Sr25519KeyPair(canonical: derived, seed: nil)
    }

    /// Soft derivation of a public key alone (`Public::derive`): `pub + scalar·B`.
    package static func deriveSoft(publicKey: [UInt8], chainCode: [UInt8]) throws -> [UInt8] {
        guard chainCode.count == 32 else { throw KeyError(.badLength, "chain code must be 32 bytes") }
        guard publicKey.withUnsafeBytes({ Ristretto255.isCanonicalPointEncoding($0) }) else {
            throw KeyError(.invalidPublicKey, "public key is not a canonical ristretto255 encoding")
        }
        let (_, scalar) = softScalar(publicKey: publicKey, chainCode: chainCode)
        var sB = [UInt8](repeating: 0, count: 32)
        var out = [UInt8](repeating: 0, count: 32)
        let ok =
            scalar.withUnsafeBytes { sp in sB.withUnsafeMutableBytes { Ristretto255.baseMul(sp, into: $0) } }
            && publicKey.withUnsafeBytes { p in
                sB.withUnsafeBytes { q in out.withUnsafeMutableBytes { Ristretto255.addPoints(p, q, into: $0) } }
            }
        guard ok else { throw KeyError(.cryptoFailure, "soft derivation produced an invalid point") }
        return out
    }

    private static func softScalar(publicKey: [UInt8], chainCode: [UInt8]) -> (MerlinTranscript, [UInt8]) {
        var t = MerlinTranscript("SchnorrRistrettoHDKD")
        t.append("sign-bytes", [UInt8]())
        t.append("chain-code", chainCode)
        t.append("public-key", publicKey)
        var wide = [UInt8](repeating: 0, count: 64)
        wide.withUnsafeMutableBytes { t.challengeBytes("HDKD-scalar", into: $0) }
        var scalar = [UInt8](repeating: 0, count: 32)
        wide.withUnsafeBytes { w in scalar.withUnsafeMutableBytes { Ristretto255.reduceWide(w, into: $0) } }
        _ = t.challengeBytes("HDKD-chaincode", count: 32)
        return (t, scalar)
    }

    // MARK: cofactor shifts (schnorrkel scalars.rs)

    static func divideByCofactor(_ k: UnsafeMutableRawBufferPointer) {
        var low: UInt8 = 0
        var i = 31
        while i >= 0 {
            let r = k[i] & 7
            k[i] = (k[i] >> 3) &+ low
            low = r << 5
            i -= 1
        }
    }

    static func multiplyByCofactor(_ k: UnsafeMutableRawBufferPointer) {
        var high: UInt8 = 0
        for i in 0..<32 {
            let r = k[i] & 0xe0
            k[i] = (k[i] << 3) &+ high
            high = r >> 5
        }
    }
}
