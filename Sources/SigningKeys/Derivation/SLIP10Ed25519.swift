import Primitives

/// A SLIP-0010 extended private key on ed25519 (satoshilabs/slips `slip-0010.md`): the 32-byte
/// Ed25519 seed `k` and the chain code `c`. Only hardened children exist on ed25519 (SLIP-0010:
/// "for ed25519 only hardened key generation from private parent key to private child key is
/// supported"), so a path with a normal component is refused, never silently hardened.
///
/// This is how the Internet Computer's tools derive Ed25519 identities from a BIP39 mnemonic
/// (`@dfinity/identity` `fromSeedWithSlip0010`, Internet Identity recovery phrases at
/// `m/44'/223'/0'/0'/0'`; docs/protocol.md, ICP identities).
///
/// Security: `k` and `c` live in `SecretBytes`; `description` shows only the depth. HMAC-SHA512 is
/// OpenSSL's. Deterministic; no step can fail for a valid seed length (every 256-bit string is an
/// Ed25519 seed).
package struct SLIP10Ed25519Key: Sendable, CustomStringConvertible {
    /// The 32-byte Ed25519 seed (RFC 8032 private key) `k`.
    package let secretKey: SecretBytes
    /// The 32-byte chain code `c`.
    package let chainCode: SecretBytes
    /// 0 for the master key.
    package let depth: UInt8

    /// The master key of a seed (16…64 bytes; 64 from BIP39): `I = HMAC-SHA512("ed25519 seed", S)`,
    /// `k = I[0..<32]`, `c = I[32..<64]`. Throws `badLength`.
    package init(seed: SecretBytes) throws {
        guard (16...64).contains(seed.count) else {
            throw KeyError(.badLength, "a SLIP-0010 seed is 16 to 64 bytes, got \(seed.count)")
        }
        let key = Array("ed25519 seed".utf8)
        let i = try key.withUnsafeBytes { k in
            try seed.withUnsafeBytes { s in try OpenSSLDigest.hmacSHA512(key: k, data: s) }
        }
        self.init(secretKey: i.slice(0..<32), chainCode: i.slice(32..<64), depth: 0)
    }

    private init(secretKey: SecretBytes, chainCode: SecretBytes, depth: UInt8) {
        self.secretKey = secretKey
        self.chainCode = chainCode
        self.depth = depth
    }

    /// CKDpriv for ed25519: `I = HMAC-SHA512(c, 0x00 ‖ k ‖ ser32(i))` with `i` hardened;
    /// `k_i = I[0..<32]`, `c_i = I[32..<64]`. Throws `invalidDerivationPath` for a normal
    /// (non-hardened) component and at depth 255.
    package func child(_ component: BIP32Path.Component) throws -> SLIP10Ed25519Key {
        guard component.hardened else {
            throw KeyError(
                .invalidDerivationPath, "ed25519 (SLIP-0010) has hardened children only; \(component) is not hardened")
        }
        guard depth < UInt8.max else { throw KeyError(.invalidDerivationPath, "SLIP-0010 depth is at most 255") }
        let n = component.childNumber
        let index: [UInt8] = [
            UInt8(n >> 24), UInt8(truncatingIfNeeded: n >> 16), UInt8(truncatingIfNeeded: n >> 8),
            UInt8(truncatingIfNeeded: n),
        ]
        let data = SecretBytes.concatenating([SecretBytes([0]), secretKey, SecretBytes(index)])
        let i = try chainCode.withUnsafeBytes { c in
            try data.withUnsafeBytes { d in try OpenSSLDigest.hmacSHA512(key: c, data: d) }
        }
        return SLIP10Ed25519Key(secretKey: i.slice(0..<32), chainCode: i.slice(32..<64), depth: depth + 1)
    }

    /// Follows every component of `path` (all hardened) from this key (normally the master).
    package func derive(_ path: BIP32Path) throws -> SLIP10Ed25519Key {
        guard Int(depth) + path.components.count <= BIP32Path.maxDepth else {
            throw KeyError(.invalidDerivationPath, "SLIP-0010 depth is at most 255")
        }
        var key = self
        for component in path.components { key = try key.child(component) }
        return key
    }

    /// The key of `path` under the master key of a BIP39 mnemonic's standard seed.
    package init(mnemonic: Mnemonic, passphrase: String = "", path: BIP32Path) throws {
        self = try SLIP10Ed25519Key(seed: try mnemonic.bip39Seed(passphrase: passphrase)).derive(path)
    }

    /// The 32-byte Ed25519 public key of `k` (SLIP-0010 writes it with a leading 0x00).
    package func publicKey() throws -> [UInt8] { try Ed25519KeyPair(seed: secretKey).publicKey }

    package var description: String { "SLIP10Ed25519Key(depth: \(depth), redacted)" }
}
