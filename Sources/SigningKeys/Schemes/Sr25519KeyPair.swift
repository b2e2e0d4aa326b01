import CSodium
import Primitives

/// An sr25519 (Schnorr over ristretto255) key pair exactly as schnorrkel 0.11 with Substrate's
/// `substrate` signing context (docs/reference/crypto.md §1).
///
/// Security facts:
/// - Secret material (`key ‖ nonce`, and the mini secret when known) lives in `SecretBytes`.
/// - Key expansion from a mini secret is `ExpansionMode::Ed25519` (§1.2), as sp-core uses it.
/// - Signing is randomized: the witness comes from the transcript RNG keyed with the secret nonce
///   and 32 bytes of system randomness (`randombytes_buf`), §1.4. Scalar and base-point
///   operations are libsodium's constant-time ones.
/// - Verification (`Sr25519KeyPair.verify`) takes untrusted input and rejects unmarked signatures,
///   non-canonical scalars and non-canonical public keys (including bit 255, which libsodium 1.0.18
///   would accept), §1.5–1.7. It is variable-time (public data only): s·B − k·A is computed by
///   the Swift `VartimeDoubleBase` (Curve25519/), never used with secrets.
package struct Sr25519KeyPair: SigningKeyPair {
    /// `.sr25519` (MultiSignature index 1).
    package static let scheme = KeyScheme.sr25519
    /// The schnorrkel signing context Substrate uses for every signature.
    package static let signingContext = "substrate"

    /// Canonical schnorrkel layout: scalar (32, < l) ‖ nonce (32).
    let secret: SecretBytes
    /// The 32-byte compressed ristretto255 public key.
    package let publicKey: [UInt8]
    /// The 32-byte mini secret this pair was expanded from, when known (`nil` after a soft
    /// junction or when created from a 64-byte secret key).
    package let seed: SecretBytes?

    /// The account id: the public key itself.
    package var accountId: [UInt8] { publicKey }

    /// Expands a 32-byte mini secret (Substrate "seed"). Deterministic.
    package init(seed: SecretBytes) throws {
        guard seed.count == 32 else {
            throw KeyError(.badLength, "sr25519 seed must be 32 bytes, got \(seed.count)")
        }
        Sodium.ensureInitialized()
        let expanded = SecretBytes(count: 64) { out in
            // crypto_hash_sha512 always returns 0 (libsodium crypto_hash_sha512.c).
            _ = seed.withUnsafeBytes { s in
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
    package init(seed bytes: [UInt8]) throws { try self.init(seed: SecretBytes(bytes)) }

    /// The two 64-byte secret-key layouts of docs/reference/crypto.md §1.3.
    package enum SecretKeyLayout: Sendable {
        /// `key·8 ‖ nonce`: polkadot-js (`to_half_ed25519_bytes`) and polkadot-js JSON keystores.
        case ed25519
        /// `key ‖ nonce` with a canonical scalar: schnorrkel `SecretKey::to_bytes`, sp-core raw vec.
        case schnorrkel
    }

    /// Creates the pair from a 64-byte secret key (default: the polkadot-js keystore layout).
    /// Throws `badLength` for another length and `invalidSeed` for a non-canonical or zero scalar.
    package init(secretKey64: SecretBytes, layout: SecretKeyLayout = .ed25519) throws {
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
    package init(secretKey64 bytes: [UInt8], layout: SecretKeyLayout = .ed25519) throws {
        try self.init(secretKey64: SecretBytes(bytes), layout: layout)
    }

    init(canonical: SecretBytes, seed: SecretBytes?) throws {
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
    package var ed25519FormSecretKey: SecretBytes {
        SecretBytes(count: 64) { out in
            secret.withUnsafeBytes { out.copyMemory(from: $0) }
            Sr25519KeyPair.multiplyByCofactor(UnsafeMutableRawBufferPointer(rebasing: out[0..<32]))
        }
    }

    /// The secret key in schnorrkel's canonical layout (`key ‖ nonce`).
    package var schnorrkelSecretKey: SecretBytes { secret }

    package var description: String { "Sr25519KeyPair(public: \(Hex.encode(publicKey)))" }
}
