import Primitives

/// An Internet Computer identity key (docs/reference/icp.md §3–§5): secp256k1 (what keysmith, quill
/// and dfx's default PEMs hold) or Ed25519. Its public key travels as a DER SubjectPublicKeyInfo
/// (`derPublicKey`, the envelope's `sender_pubkey`); the principal is SHA-224 of that DER ‖ 0x02
/// (computed by ICPCodec). Signatures are 64 bytes: secp256k1 ECDSA `r ‖ s` (low-S, RFC 6979) over
/// SHA-256 of the message, or Ed25519 over the message itself.
///
/// Security: the secret lives in `SecretBytes`; `description` shows only the algorithm and the
/// public key. `sign` signs whatever message it is given: callers (ICPCodec's envelope builder)
/// sign only `\x0Aic-request ‖ request id` of content they built and showed.
package struct IcpKeyPair: Sendable, CustomStringConvertible {
    package enum Algorithm: String, Sendable, Hashable, CaseIterable {
        case secp256k1
        case ed25519
    }

    private enum Inner: Sendable {
        case secp256k1(EcdsaKeyPair)
        case ed25519(Ed25519KeyPair)
    }

    private let inner: Inner
    package let algorithm: Algorithm
    /// The raw public key: 65-byte uncompressed SEC1 point (secp256k1) or 32 bytes (Ed25519).
    package let rawPublicKey: [UInt8]
    /// RFC 5480 / RFC 8410 SubjectPublicKeyInfo of the public key (the IC's `sender_pubkey`).
    package let derPublicKey: [UInt8]
    /// The 32-byte secret key (secp256k1) or RFC 8032 seed (Ed25519). Secret; keystore only.
    package let secretKey: SecretBytes

    /// DER prefix of a secp256k1 public key (ecPublicKey, secp256k1, BIT STRING of 66 bytes).
    package static let secp256k1DERPrefix: [UInt8] = [
        0x30, 0x56, 0x30, 0x10, 0x06, 0x07, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x02, 0x01, 0x06, 0x05, 0x2b, 0x81, 0x04,
        0x00, 0x0a, 0x03, 0x42, 0x00,
    ]
    /// DER prefix of an Ed25519 public key (id-Ed25519 1.3.101.112, BIT STRING of 33 bytes).
    package static let ed25519DERPrefix: [UInt8] = [
        0x30, 0x2a, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x70, 0x03, 0x21, 0x00,
    ]

    /// From a raw 32-byte secret (secp256k1: 0 < k < n, else `invalidSeed`; Ed25519: any seed).
    package init(secretKey: SecretBytes, algorithm: Algorithm) throws {
        guard secretKey.count == 32 else { throw KeyError(.badLength, "an ICP secret key is 32 bytes") }
        self.algorithm = algorithm
        self.secretKey = secretKey
        switch algorithm {
        case .secp256k1:
            let key = try EcdsaKeyPair(seed: secretKey)
            inner = .secp256k1(key)
            rawPublicKey = key.uncompressedPublicKey
            derPublicKey = IcpKeyPair.secp256k1DERPrefix + key.uncompressedPublicKey
        case .ed25519:
            let key = try Ed25519KeyPair(seed: secretKey)
            inner = .ed25519(key)
            rawPublicKey = key.publicKey
            derPublicKey = IcpKeyPair.ed25519DERPrefix + key.publicKey
        }
    }

    /// secp256k1 from a BIP39 mnemonic at `m/44'/223'/0'/0/index` (keysmith, quill), over the
    /// standard BIP39 seed with `passphrase`.
    package init(mnemonic: Mnemonic, passphrase: String = "", index: UInt32) throws {
        let path = try BIP32Path.icp(index: index)
        try self.init(
            secretKey: BIP32ExtendedKey(mnemonic: mnemonic, passphrase: passphrase, path: path).secretKey,
            algorithm: .secp256k1)
    }

    /// From a BIP39 mnemonic: secp256k1 (BIP32) at `m/44'/223'/0'/0/index` as keysmith and quill
    /// derive, or Ed25519 (SLIP-0010, all hardened) at `m/44'/223'/0'/0'/index'` as `@dfinity/identity`
    /// `fromMnemonicWithoutValidation` with Internet Identity's path `[44, 223, 0, 0, 0]` derives
    /// (index 0 is that path exactly). Both over the standard BIP39 seed with `passphrase`.
    package init(mnemonic: Mnemonic, passphrase: String = "", index: UInt32, algorithm: Algorithm) throws {
        switch algorithm {
        case .secp256k1:
            try self.init(mnemonic: mnemonic, passphrase: passphrase, index: index)
        case .ed25519:
            let key = try SLIP10Ed25519Key(
                mnemonic: mnemonic, passphrase: passphrase, path: try IcpKeyPair.path(index: index, algorithm: .ed25519)
            )
            try self.init(secretKey: key.secretKey, algorithm: .ed25519)
        }
    }

    /// The derivation path of a mnemonic identity: `m/44'/223'/0'/0/n` (secp256k1) or
    /// `m/44'/223'/0'/0'/n'` (Ed25519). Throws for `n` ≥ 2^31.
    package static func path(index: UInt32, algorithm: Algorithm) throws -> BIP32Path {
        switch algorithm {
        case .secp256k1: return try BIP32Path.icp(index: index)
        case .ed25519:
            guard let last = BIP32Path.Component(index: index, hardened: true) else {
                throw KeyError(.invalidDerivationPath, "address index must be below 2^31")
            }
            let prefix = [44, 223, 0, 0].compactMap { BIP32Path.Component(index: $0, hardened: true) }
            return try BIP32Path(components: prefix + [last])
        }
    }

    package var description: String { "IcpKeyPair(\(algorithm.rawValue), public: \(Hex.encode(rawPublicKey)))" }

    /// The 64-byte IC signature of `message` (for requests: `0x0A "ic-request" ‖ request id`).
    /// secp256k1: ECDSA over SHA-256(message), `r ‖ s`, low-S, deterministic. Ed25519: RFC 8032.
    package func sign(_ message: [UInt8]) throws -> [UInt8] {
        switch inner {
        case .secp256k1(let key):
            // libsecp256k1 signs low-S; the recovery id (65th byte) is not part of an IC signature.
            return Array(try key.signPrehashed(SHA256.hash(message)).prefix(64))
        case .ed25519(let key):
            return try key.sign(message)
        }
    }

    /// Whether `signature` (64 bytes) over `message` verifies for a DER public key (secp256k1 or
    /// Ed25519; anything else is `false`). High-S secp256k1 signatures are refused. Untrusted input.
    package static func verify(signature: [UInt8], message: [UInt8], derPublicKey: [UInt8]) -> Bool {
        guard signature.count == 64 else { return false }
        if derPublicKey.count == 88, derPublicKey.starts(with: secp256k1DERPrefix) {
            return Secp256k1Context.shared.verifyCompact(
                signature: signature, digest: SHA256.hash(message), publicKey: Array(derPublicKey.dropFirst(23)))
        }
        if derPublicKey.count == 44, derPublicKey.starts(with: ed25519DERPrefix) {
            return Ed25519KeyPair.verify(
                signature: signature, message: message, publicKey: Array(derPublicKey.dropFirst(12)))
        }
        return false
    }
}

extension BIP32Path {
    /// `m/44'/223'/0'/0/n`, the Internet Computer's BIP44 path (coin type 223; keysmith, quill).
    package static func icp(index: UInt32) throws -> BIP32Path {
        guard let last = Component(index: index, hardened: false) else {
            throw KeyError(.invalidDerivationPath, "address index must be below 2^31")
        }
        let prefix: [Component?] = [
            Component(index: 44, hardened: true), Component(index: 223, hardened: true),
            Component(index: 0, hardened: true), Component(index: 0, hardened: false),
        ]
        return try BIP32Path(components: prefix.compactMap { $0 } + [last])
    }
}
