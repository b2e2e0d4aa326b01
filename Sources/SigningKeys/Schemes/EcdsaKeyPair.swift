import Primitives

/// An ecdsa (secp256k1) key pair as sp-core `ecdsa.rs` uses it (docs/reference/crypto.md §6).
///
/// Security: signing is deterministic (RFC 6979 nonces, libsecp256k1's constant-time signing with
/// a randomized context), low-S, over BLAKE2b-256 of the message; signatures are 65 bytes
/// `r ‖ s ‖ v` with v = 0/1. Verification recovers the key and compares (untrusted input).
package struct EcdsaKeyPair: SigningKeyPair {
    package static let scheme = KeyScheme.ecdsa

    private let secret: SecretBytes
    /// 33-byte SEC1 compressed public key.
    package let publicKey: [UInt8]
    /// 65-byte uncompressed public key (0x04 ‖ x ‖ y).
    package let uncompressedPublicKey: [UInt8]
    /// BLAKE2b-256 of the compressed public key (sp-runtime `MultiSigner::Ecdsa` account).
    package var accountId: [UInt8] { Blake2b.hash256(publicKey) }
    /// The secp256k1 secret key is the seed itself.
    package var seed: SecretBytes? { secret }

    /// Creates the pair from a 32-byte secret. Throws `invalidSeed` for 0 or values ≥ n.
    package init(seed: SecretBytes) throws {
        guard seed.count == 32 else { throw KeyError(.badLength, "ecdsa seed must be 32 bytes, got \(seed.count)") }
        let ctx = Secp256k1Context.shared
        guard let keys = seed.withUnsafeBytes({ s in ctx.isValidSecret(s) ? ctx.publicKey(s) : nil }) else {
            throw KeyError(.invalidSeed, "not a valid secp256k1 secret key (zero or not below the group order)")
        }
        secret = seed
        publicKey = keys.compressed
        uncompressedPublicKey = keys.uncompressed
    }

    /// Same, from bytes (the caller should wipe its copy).
    package init(seed bytes: [UInt8]) throws { try self.init(seed: SecretBytes(bytes)) }

    package var description: String { "EcdsaKeyPair(public: \(Hex.encode(publicKey)))" }

    /// Signs BLAKE2b-256(message). Deterministic.
    package func sign(_ message: [UInt8]) throws -> [UInt8] {
        try signPrehashed(Blake2b.hash256(message))
    }

    /// Signs a 32-byte digest as is (sp-core `sign_prehashed`). Deterministic.
    package func signPrehashed(_ digest: [UInt8]) throws -> [UInt8] {
        guard digest.count == 32 else { throw KeyError(.badLength, "digest must be 32 bytes, got \(digest.count)") }
        guard let sig = secret.withUnsafeBytes({ Secp256k1Context.shared.signRecoverable(digest: digest, key: $0) })
        else {
            throw KeyError(.cryptoFailure, "secp256k1_ecdsa_sign_recoverable failed")
        }
        return sig
    }

    /// `true` when the signature over BLAKE2b-256(message) recovers to `signer` (a 33-byte
    /// compressed key, a 65-byte uncompressed key, or a 32-byte account id). Untrusted input.
    package static func verify(signature: [UInt8], message: [UInt8], signer: [UInt8]) -> Bool {
        (try? check(signature: signature, message: message, signer: signer)) != nil
    }

    /// Like `verify`, throwing a `KeyError` with the reason.
    package static func check(signature: [UInt8], message: [UInt8], signer: [UInt8]) throws {
        try checkPrehashed(signature: signature, digest: Blake2b.hash256(message), signer: signer)
    }

    /// Verification over a 32-byte digest.
    package static func checkPrehashed(signature: [UInt8], digest: [UInt8], signer: [UInt8]) throws {
        let ctx = Secp256k1Context.shared
        var pub = try ctx.recover(signature: signature, digest: digest)
        let compressed = ctx.serialize(&pub, compressed: true)
        let matches: Bool
        switch signer.count {
        case 33: matches = compressed == signer
        case 65: matches = ctx.serialize(&pub, compressed: false) == signer
        case 32: matches = Blake2b.hash256(compressed) == signer
        default:
            throw KeyError(.badLength, "ecdsa signer must be a 33/65-byte public key or a 32-byte account id")
        }
        guard matches else {
            throw KeyError(.invalidSignature, "signature recovers to a different key (wrong key or message)")
        }
    }

    /// Hard junction: `seed' = blake2b-256(0x34 ‖ "Secp256k1HDKD" ‖ seed ‖ cc)`.
    package func deriveHard(chainCode: [UInt8]) throws -> EcdsaKeyPair {
        guard chainCode.count == 32 else { throw KeyError(.badLength, "chain code must be 32 bytes") }
        let derived = secret.withUnsafeBytes {
            HardDerivation.seed(label: "Secp256k1HDKD", seed: $0, chainCode: chainCode)
        }
        return try EcdsaKeyPair(seed: derived)
    }
}
