import CSodium

/// An sr25519 (Schnorr over ristretto255) key pair exactly as schnorrkel 0.11 with Substrate's
/// `substrate` signing context (crypto-core.md §1).
///
/// Security facts:
/// - Secret material (`key ‖ nonce`, and the mini secret when known) lives in `SecretBytes`.
/// - Key expansion from a mini secret is `ExpansionMode::Ed25519` (§1.2), as sp-core uses it.
/// - Signing is randomized: the witness comes from the transcript RNG keyed with the secret nonce
///   and 32 bytes of system randomness (`randombytes_buf`), §1.4. Scalar and base-point
///   operations are libsodium's constant-time ones.
/// - Verification (`Sr25519KeyPair.verify`) takes untrusted input and rejects unmarked signatures,
///   non-canonical scalars and non-canonical public keys (including bit 255, which libsodium 1.0.18
///   would accept), §1.5–1.7. It is variable-time (public data only).
public struct Sr25519KeyPair: SigningKeyPair {
    public static let scheme = KeyScheme.sr25519
    public static let signingContext = "substrate"

    /// Canonical schnorrkel layout: scalar (32, < l) ‖ nonce (32).
    private let secret: SecretBytes
    /// The 32-byte compressed ristretto255 public key.
    public let publicKey: [UInt8]
    /// The 32-byte mini secret this pair was expanded from, when known (`nil` after a soft
    /// junction or when created from a 64-byte secret key).
    public let seed: SecretBytes?

    /// The account id: the public key itself.
    public var accountId: [UInt8] { publicKey }

    /// Expands a 32-byte mini secret (Substrate "seed"). Deterministic.
    public init(seed: SecretBytes) throws {
        guard seed.count == 32 else {
            throw KeyError(.badLength, "sr25519 seed must be 32 bytes, got \(seed.count)")
        }
        Sodium.ensureInitialized()
        let expanded = SecretBytes(count: 64) { out in
            seed.withUnsafeBytes { s in
                crypto_hash_sha512(
                    out.u8,
                    s.u8, UInt64(s.count))
            }
            // Clamp (RFC 8032) then divide by the cofactor: schnorrkel keys.rs::expand_ed25519.
            out[0] &= 248
            out[31] &= 63
            out[31] |= 64
            Sr25519KeyPair.divideByCofactor(UnsafeMutableRawBufferPointer(rebasing: out[0..<32]))
        }
        try self.init(canonical: expanded, seed: seed)
    }

    /// Expands a 32-byte mini secret given as bytes (the caller should wipe its copy).
    public init(seed bytes: [UInt8]) throws { try self.init(seed: SecretBytes(bytes)) }

    /// The two 64-byte secret-key layouts of crypto-core.md §1.3.
    public enum SecretKeyLayout: Sendable {
        /// `key·8 ‖ nonce`: polkadot-js (`to_half_ed25519_bytes`) and polkadot-js JSON keystores.
        case ed25519
        /// `key ‖ nonce` with a canonical scalar: schnorrkel `SecretKey::to_bytes`, sp-core raw vec.
        case schnorrkel
    }

    /// Creates the pair from a 64-byte secret key (default: the polkadot-js keystore layout).
    /// Throws `badLength` for another length and `invalidSeed` for a non-canonical or zero scalar.
    public init(secretKey64: SecretBytes, layout: SecretKeyLayout = .ed25519) throws {
        guard secretKey64.count == 64 else {
            throw KeyError(.badLength, "sr25519 secret key must be 64 bytes, got \(secretKey64.count)")
        }
        var lowBitsSet = false
        let canonical = SecretBytes(count: 64) { out in
            secretKey64.withUnsafeBytes { out.copyMemory(from: $0) }
            if layout == .ed25519 {
                lowBitsSet = out[0] & 7 != 0
                Sr25519KeyPair.divideByCofactor(UnsafeMutableRawBufferPointer(rebasing: out[0..<32]))
            }
        }
        if lowBitsSet {
            throw KeyError(.invalidSeed, "sr25519 ed25519-form secret is not a multiple of the cofactor")
        }
        try self.init(canonical: canonical, seed: nil)
    }

    /// Same, from bytes (the caller should wipe its copy).
    public init(secretKey64 bytes: [UInt8], layout: SecretKeyLayout = .ed25519) throws {
        try self.init(secretKey64: SecretBytes(bytes), layout: layout)
    }

    private init(canonical: SecretBytes, seed: SecretBytes?) throws {
        var pub = [UInt8](repeating: 0, count: 32)
        let ok = canonical.withUnsafeBytes { s -> Bool in
            let key = UnsafeRawBufferPointer(rebasing: s[0..<32])
            guard Ristretto255.isCanonicalScalar(key) else { return false }
            return pub.withUnsafeMutableBytes { Ristretto255.baseMul(key, into: $0) }
        }
        guard ok else { throw KeyError(.invalidSeed, "sr25519 secret scalar is not canonical or is zero") }
        secret = canonical
        publicKey = pub
        self.seed = seed
    }

    /// The same pair without its mini secret: sp-core forgets the seed at the first soft junction
    /// and does not recover one from later hard junctions (`sr25519.rs` `Pair::derive`).
    func forgettingSeed() -> Sr25519KeyPair {
        // The canonical secret was validated when this pair was made.
        (try? Sr25519KeyPair(canonical: secret, seed: nil)) ?? self
    }

    /// The secret key in the polkadot-js / keystore layout (`key·8 ‖ nonce`).
    public var ed25519FormSecretKey: SecretBytes {
        SecretBytes(count: 64) { out in
            secret.withUnsafeBytes { out.copyMemory(from: $0) }
            Sr25519KeyPair.multiplyByCofactor(UnsafeMutableRawBufferPointer(rebasing: out[0..<32]))
        }
    }

    /// The secret key in schnorrkel's canonical layout (`key ‖ nonce`).
    public var schnorrkelSecretKey: SecretBytes { secret }

    public var description: String { "Sr25519KeyPair(public: \(Hex.encode(publicKey)))" }

    // MARK: signing

    /// Signs `message` with the `substrate` context and fresh system randomness. Randomized.
    public func sign(_ message: [UInt8]) throws -> [UInt8] {
        let random = SecretBytes.random(count: 32)
        return try random.withUnsafeBytes { r in try message.withUnsafeBytes { try sign($0, random32: r) } }
    }

    /// Deterministic core of `sign` with the 32 transcript-RNG bytes given (tests reproduce
    /// upstream vectors with it; production callers use `sign(_:)`).
    func sign(_ message: UnsafeRawBufferPointer, random32: UnsafeRawBufferPointer) throws -> [UInt8] {
        guard message.count < Int(UInt32.max) else {
            throw KeyError(.badLength, "sr25519 message of \(message.count) bytes exceeds Merlin's 2^32 limit")
        }
        var t = MerlinTranscript("SigningContext")
        t.append("", Sr25519KeyPair.signingContext)
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
    public static func verify(signature: [UInt8], message: [UInt8], publicKey: [UInt8]) -> Bool {
        (try? check(signature: signature, message: message, publicKey: publicKey)) != nil
    }

    /// Like `verify`, but throws a `KeyError` whose reason says why the signature is rejected.
    public static func check(signature: [UInt8], message: [UInt8], publicKey: [UInt8]) throws {
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
        guard publicKey.withUnsafeBytes({ Ristretto255.isCanonicalPointEncoding($0) }) else {
            throw KeyError(.invalidPublicKey, "public key is not a canonical ristretto255 encoding")
        }
        var t = MerlinTranscript("SigningContext")
        t.append("", signingContext)
        t.append("sign-bytes", message)
        t.append("proto-name", "Schnorr-sig")
        t.append("sign:pk", publicKey)
        signature.withUnsafeBytes { t.append("sign:R", UnsafeRawBufferPointer(rebasing: $0[0..<32])) }
        var c = [UInt8](repeating: 0, count: 64)
        c.withUnsafeMutableBytes { t.challengeBytes("sign:c", into: $0) }
        var k = [UInt8](repeating: 0, count: 32)
        c.withUnsafeBytes { cw in k.withUnsafeMutableBytes { Ristretto255.reduceWide(cw, into: $0) } }
        var sB = [UInt8](repeating: 0, count: 32)
        var kA = [UInt8](repeating: 0, count: 32)
        var rPrime = [UInt8](repeating: 0, count: 32)
        let ok =
            s.withUnsafeBytes { sp in sB.withUnsafeMutableBytes { Ristretto255.baseMul(sp, into: $0) } }
            && k.withUnsafeBytes { kp in
                publicKey.withUnsafeBytes { pp in kA.withUnsafeMutableBytes { Ristretto255.mul(kp, pp, into: $0) } }
            }
            && sB.withUnsafeBytes { a in
                kA.withUnsafeBytes { b in rPrime.withUnsafeMutableBytes { Ristretto255.sub(a, b, into: $0) } }
            }
        guard ok, rPrime[...] == signature[0..<32] else {
            throw KeyError(.invalidSignature, "signature does not verify for this public key and message")
        }
    }

    // MARK: derivation (schnorrkel derive.rs; crypto-core.md §3.4)

    /// Hard junction: a new mini secret from the HDKD-hard challenge, then Ed25519-mode expansion.
    public func deriveHard(chainCode: [UInt8]) throws -> Sr25519KeyPair {
        guard chainCode.count == 32 else { throw KeyError(.badLength, "chain code must be 32 bytes") }
        var t = MerlinTranscript("SchnorrRistrettoHDKD")
        t.append("sign-bytes", [UInt8]())
        t.append("chain-code", chainCode)
        secret.withUnsafeBytes { t.append("secret-key", UnsafeRawBufferPointer(rebasing: $0[0..<32])) }
        let mini = SecretBytes(count: 32) { t.challengeBytes("HDKD-hard", into: $0) }
        return try Sr25519KeyPair(seed: mini)
    }

    /// Soft junction with fresh system randomness for the new nonce (as sp-core does).
    public func deriveSoft(chainCode: [UInt8]) throws -> Sr25519KeyPair {
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
    public static func deriveSoft(publicKey: [UInt8], chainCode: [UInt8]) throws -> [UInt8] {
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
