import Primitives

/// A BIP32 extended private key on secp256k1 (docs/reference/icon.md §6): the secret key `k`, the
/// chain code `c`, and the position in the tree (depth, parent fingerprint, child number) that the
/// `xprv`/`xpub` serialization carries. Shared by every secp256k1 key type that derives from a
/// BIP39 mnemonic (ICON now; Ethereum and ICP later).
///
/// Security: `k` and `c` live in `SecretBytes` (the chain code with the public key would let anyone
/// derive the non-hardened children's public keys and, with one child secret, the parent secret);
/// `description` shows only the depth and the fingerprint. Derivation uses libsecp256k1's
/// constant-time secret-key arithmetic and OpenSSL's HMAC-SHA512. Deterministic.
package struct BIP32ExtendedKey: Sendable, CustomStringConvertible {
    /// The 32-byte secret key `k`.
    package let secretKey: SecretBytes
    /// The 32-byte chain code `c`.
    package let chainCode: SecretBytes
    /// The 33-byte compressed public key `K`.
    package let publicKey: [UInt8]
    /// 0 for the master key.
    package let depth: UInt8
    /// The first 4 bytes of the parent's HASH160 (zeros for the master key).
    package let parentFingerprint: [UInt8]
    /// The child number this key was derived with (hardened ones include 2^31); 0 for the master.
    package let childNumber: UInt32

    /// The master key of a BIP32 seed (16…64 bytes; 64 from BIP39): `I = HMAC-SHA512("Bitcoin seed",
    /// S)`, `k = I[0..<32]`, `c = I[32..<64]`. Throws `badLength`, or `invalidSeed` when `k` is 0 or
    /// ≥ n (BIP32: the seed is then unusable).
    package init(seed: SecretBytes) throws {
        guard (16...64).contains(seed.count) else {
            throw KeyError(.badLength, "a BIP32 seed is 16 to 64 bytes, got \(seed.count)")
        }
        let key = Array("Bitcoin seed".utf8)
        let i = try key.withUnsafeBytes { k in
            try seed.withUnsafeBytes { s in try OpenSSLDigest.hmacSHA512(key: k, data: s) }
        }
        try self.init(
            secretKey: i.slice(0..<32), chainCode: i.slice(32..<64), depth: 0, parentFingerprint: [0, 0, 0, 0],
            childNumber: 0)
    }

    private init(
        secretKey: SecretBytes, chainCode: SecretBytes, depth: UInt8, parentFingerprint: [UInt8], childNumber: UInt32
    ) throws {
        let ctx = Secp256k1Context.shared
        guard let keys = secretKey.withUnsafeBytes({ s in ctx.isValidSecret(s) ? ctx.publicKey(s) : nil }) else {
            throw KeyError(.invalidSeed, "BIP32 key is zero or not below the group order")
        }
        self.secretKey = secretKey
        self.chainCode = chainCode
        self.publicKey = keys.compressed
        self.depth = depth
        self.parentFingerprint = parentFingerprint
        self.childNumber = childNumber
    }

    /// The key's identifier's first 4 bytes: HASH160(K)[0..<4].
    package var fingerprint: [UInt8] { Array(OpenSSLDigest.hash160(publicKey).prefix(4)) }

    /// CKDpriv: hardened `I = HMAC-SHA512(c, 0x00 ‖ k ‖ ser32(i))`, normal `I = HMAC-SHA512(c, K ‖
    /// ser32(i))`; `k_i = IL + k mod n`, `c_i = IR`. Throws `invalidDerivationPath` at depth 255, and
    /// when IL ≥ n or `k_i` = 0 (probability below 2^-127; BIP32 says to skip such an index).
    package func child(_ component: BIP32Path.Component) throws -> BIP32ExtendedKey {
        guard depth < UInt8.max else { throw KeyError(.invalidDerivationPath, "BIP32 depth is at most 255") }
        let n = component.childNumber
        let index: [UInt8] = [
            UInt8(n >> 24), UInt8(truncatingIfNeeded: n >> 16), UInt8(truncatingIfNeeded: n >> 8),
            UInt8(truncatingIfNeeded: n),
        ]
        let data: SecretBytes
        if component.hardened {
            data = SecretBytes.concatenating([SecretBytes([0]), secretKey, SecretBytes(index)])
        } else {
            data = SecretBytes(publicKey + index)
        }
        let i = try chainCode.withUnsafeBytes { c in
            try data.withUnsafeBytes { d in try OpenSSLDigest.hmacSHA512(key: c, data: d) }
        }
        var ok = false
        let childKey = SecretBytes(count: 32) { dst in
            secretKey.withUnsafeBytes { dst.copyMemory(from: $0) }
            i.withUnsafeBytes { il in
                ok = Secp256k1Context.shared.addTweak(to: dst, tweak: UnsafeRawBufferPointer(rebasing: il[0..<32]))
            }
        }
        guard ok else {
            throw KeyError(
                .invalidDerivationPath, "BIP32 child \(component) is invalid (IL ≥ n or zero key); use another index")
        }
        return try BIP32ExtendedKey(
            secretKey: childKey, chainCode: i.slice(32..<64), depth: depth + 1, parentFingerprint: fingerprint,
            childNumber: n)
    }

    /// Follows every component of `path` from this key (normally the master).
    package func derive(_ path: BIP32Path) throws -> BIP32ExtendedKey {
        guard Int(depth) + path.components.count <= BIP32Path.maxDepth else {
            throw KeyError(.invalidDerivationPath, "BIP32 depth is at most 255")
        }
        var key = self
        for component in path.components { key = try key.child(component) }
        return key
    }

    /// The key of `path` under the master key of a BIP39 mnemonic's standard seed
    /// (`Mnemonic.bip39Seed(passphrase:)`).
    package init(mnemonic: Mnemonic, passphrase: String = "", path: BIP32Path) throws {
        self = try BIP32ExtendedKey(seed: try mnemonic.bip39Seed(passphrase: passphrase)).derive(path)
    }

    /// The Base58Check `xpub…` (mainnet version 0x0488B21E). Public.
    package var extendedPublicKey: String {
        Base58.encodeCheck(header(version: [0x04, 0x88, 0xB2, 0x1E]) + chainCode.unsafeExposedBytes() + publicKey)
    }

    /// The Base58Check `xprv…` (mainnet version 0x0488ADE4). SECRET: the returned `String` cannot be
    /// wiped; for tests and explicit exports only.
    package func exposedExtendedPrivateKey() -> String {
        var payload = header(version: [0x04, 0x88, 0xAD, 0xE4]) + chainCode.unsafeExposedBytes() + [0]
        payload += secretKey.unsafeExposedBytes()
        defer { ConstantTime.wipe(&payload) }
        return Base58.encodeCheck(payload)
    }

    private func header(version: [UInt8]) -> [UInt8] {
        let n = childNumber
        return version + [depth] + parentFingerprint + [
            UInt8(n >> 24), UInt8(truncatingIfNeeded: n >> 16), UInt8(truncatingIfNeeded: n >> 8),
            UInt8(truncatingIfNeeded: n),
        ]
    }

    package var description: String {
        "BIP32ExtendedKey(depth: \(depth), fingerprint: \(Hex.encode(fingerprint, prefix: false)), redacted)"
    }
}

extension Base58 {
    /// Base58Check: the bytes followed by the first 4 bytes of SHA-256(SHA-256(bytes)).
    static func encodeCheck(_ bytes: [UInt8]) -> String {
        encode(bytes + OpenSSLDigest.sha256(OpenSSLDigest.sha256(bytes)).prefix(4))
    }
}
