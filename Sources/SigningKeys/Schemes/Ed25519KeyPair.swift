import CSodium
import Primitives

/// An ed25519 key pair (RFC 8032, libsodium) with Substrate's `//hard` derivation
/// (sp-core `ed25519.rs`; docs/reference/crypto.md §3.5).
///
/// Security: signing is deterministic (RFC 8032) and constant-time (libsodium); verification uses
/// libsodium's strict rules (rejects non-canonical and small-order points), which accepts every
/// signature an honest signer makes. Secrets live in `SecretBytes`.
package struct Ed25519KeyPair: SigningKeyPair {
    /// `.ed25519` (MultiSignature index 0).
    package static let scheme = KeyScheme.ed25519

    private let seedBytes: SecretBytes
    /// libsodium secret key: seed ‖ public (64 bytes).
    private let libsodiumSecret: SecretBytes
    /// The 32-byte public key (not secret).
    package let publicKey: [UInt8]
    /// The account id: the public key itself.
    package var accountId: [UInt8] { publicKey }
    /// The 32-byte seed (secret; wiped on release, never printed).
    package var seed: SecretBytes? { seedBytes }

    /// Creates the pair from a 32-byte RFC 8032 seed. Deterministic.
    package init(seed: SecretBytes) throws {
        guard seed.count == 32 else { throw KeyError(.badLength, "ed25519 seed must be 32 bytes, got \(seed.count)") }
        Sodium.ensureInitialized()
        var pub = [UInt8](repeating: 0, count: 32)
        var rc: Int32 = -1
        let sk = SecretBytes(count: 64) { out in
            seed.withUnsafeBytes { s in
                pub.withUnsafeMutableBytes { p in
                    rc = crypto_sign_seed_keypair(p.u8, out.u8, s.u8)
                }
            }
        }
        guard rc == 0 else { throw KeyError(.cryptoFailure, "crypto_sign_seed_keypair failed") }
        seedBytes = seed
        libsodiumSecret = sk
        publicKey = pub
    }

    /// Creates the pair from a 32-byte seed given as bytes (the caller should wipe its copy).
    package init(seed bytes: [UInt8]) throws { try self.init(seed: SecretBytes(bytes)) }

    /// Creates the pair from libsodium's 64-byte secret key `seed ‖ public` (the polkadot-js JSON
    /// layout, docs/reference/crypto.md §7.3). Throws `invalidSeed` when the embedded public key does not
    /// belong to the seed.
    package init(secretKey64: SecretBytes) throws {
        guard secretKey64.count == 64 else {
            throw KeyError(.badLength, "ed25519 secret key must be 64 bytes, got \(secretKey64.count)")
        }
        try self.init(seed: secretKey64.slice(0..<32))
        let embedded = secretKey64.withUnsafeBytes { Array($0[32..<64]) }
        guard ConstantTime.equals(embedded, publicKey) else {
            throw KeyError(.invalidSeed, "ed25519 secret key: embedded public key does not match the seed")
        }
    }

    /// libsodium's 64-byte secret key (`seed ‖ public`), for export.
    package var libsodiumSecretKey: SecretBytes { libsodiumSecret }

    package var description: String { "Ed25519KeyPair(public: \(Hex.encode(publicKey)))" }

    /// RFC 8032 signature over the raw message (no context, no pre-hash). Deterministic.
    package func sign(_ message: [UInt8]) throws -> [UInt8] {
        var sig = [UInt8](repeating: 0, count: 64)
        let rc = libsodiumSecret.withUnsafeBytes { sk in
            message.withNonNullPointer { m, n in
                sig.withUnsafeMutableBytes { s in crypto_sign_detached(s.u8, nil, m, UInt64(n), sk.u8) }
            }
        }
        guard rc == 0 else { throw KeyError(.cryptoFailure, "crypto_sign_detached failed") }
        return sig
    }

    /// `true` when the signature verifies. Untrusted input; never traps.
    package static func verify(signature: [UInt8], message: [UInt8], publicKey: [UInt8]) -> Bool {
        (try? check(signature: signature, message: message, publicKey: publicKey)) != nil
    }

    /// Like `verify`, throwing a `KeyError` with the reason.
    package static func check(signature: [UInt8], message: [UInt8], publicKey: [UInt8]) throws {
        guard signature.count == 64 else {
            throw KeyError(.badLength, "ed25519 signature must be 64 bytes, got \(signature.count)")
        }
        guard publicKey.count == 32 else {
            throw KeyError(.badLength, "ed25519 public key must be 32 bytes, got \(publicKey.count)")
        }
        Sodium.ensureInitialized()
        let rc = signature.withUnsafeBytes { s in
            message.withNonNullPointer { m, n in
                publicKey.withUnsafeBytes { p in crypto_sign_verify_detached(s.u8, m, UInt64(n), p.u8) }
            }
        }
        guard rc == 0 else {
            throw KeyError(.invalidSignature, "signature does not verify for this public key and message")
        }
    }

    /// Hard junction: `seed' = blake2b-256(0x2c ‖ "Ed25519HDKD" ‖ seed ‖ cc)` (SCALE of the tuple).
    package func deriveHard(chainCode: [UInt8]) throws -> Ed25519KeyPair {
        guard chainCode.count == 32 else { throw KeyError(.badLength, "chain code must be 32 bytes") }
        let derived = seedBytes.withUnsafeBytes { s in
            HardDerivation.seed(label: "Ed25519HDKD", seed: s, chainCode: chainCode)
        }
        return try Ed25519KeyPair(seed: derived)
    }
}
