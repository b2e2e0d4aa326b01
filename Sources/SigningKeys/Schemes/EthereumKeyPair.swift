import Primitives

/// A polkadot-js `ethereum` key pair: a secp256k1 key whose signatures are over Keccak-256 of
/// the message and whose account is the 20-byte Ethereum address (Keccak-256 of the uncompressed
/// key without its 0x04 byte, last 20 bytes).
///
/// Security: as `EcdsaKeyPair` (deterministic RFC 6979, low-S, `r ‖ s ‖ v` with v = 0/1). As a
/// polkadot-js `KeyPair` scheme only raw 32-byte secrets are supported; Ethereum wallets' BIP-44
/// keys (`m/44'/60'/0'/0/n`), hash signing and recovery are in `EthereumKeyPair+Wallet.swift`
/// (docs/reference/ethereum.md §4).
package struct EthereumKeyPair: SigningKeyPair {
    /// `.ethereum` (MultiSignature index 2, 20-byte accounts).
    package static let scheme = KeyScheme.ethereum

    let inner: EcdsaKeyPair
    /// The 33-byte compressed secp256k1 public key (not secret).
    package var publicKey: [UInt8] { inner.publicKey }
    /// The 20-byte address.
    package let accountId: [UInt8]
    /// The 32-byte secret key (secret; wiped on release, never printed).
    package var seed: SecretBytes? { inner.seed }

    /// Creates the pair from a 32-byte secp256k1 secret. Throws `invalidSeed` for 0 or ≥ n.
    package init(seed: SecretBytes) throws {
        inner = try EcdsaKeyPair(seed: seed)
        accountId = Array(Keccak256.hash(inner.uncompressedPublicKey.dropFirst()).suffix(20))
    }

    package var description: String { "EthereumKeyPair(address: \(EthereumKeyPair.checksumAddress(accountId)))" }

    /// Signs Keccak-256(message). Deterministic.
    package func sign(_ message: [UInt8]) throws -> [UInt8] { try inner.signPrehashed(Keccak256.hash(message)) }

    /// Verifies against a 33/65-byte public key or the 20-byte address. Untrusted input.
    package static func check(signature: [UInt8], message: [UInt8], signer: [UInt8]) throws {
        let digest = Keccak256.hash(message)
        if signer.count == 20 {
            let ctx = Secp256k1Context.shared
            var pub = try ctx.recover(signature: signature, digest: digest)
            let full = ctx.serialize(&pub, compressed: false)
            guard Array(Keccak256.hash(full.dropFirst()).suffix(20)) == signer else {
                throw KeyError(.invalidSignature, "signature recovers to a different address")
            }
            return
        }
        try EcdsaKeyPair.checkPrehashed(signature: signature, digest: digest, signer: signer)
    }

    /// The 20-byte address of a 33-byte compressed (or 65-byte uncompressed) public key.
    package static func address(ofCompressedPublicKey key: [UInt8]) throws -> [UInt8] {
        let ctx = Secp256k1Context.shared
        guard var pub = ctx.parsePublicKey(key) else {
            throw KeyError(.invalidPublicKey, "not a valid secp256k1 public key")
        }
        let full = ctx.serialize(&pub, compressed: false)
        return Array(Keccak256.hash(full.dropFirst()).suffix(20))
    }

    /// EIP-55 mixed-case checksummed `0x` address.
    package static func checksumAddress(_ address: [UInt8]) -> String {
        let lower = Array(Hex.encode(address, prefix: false).utf8)
        let hash = Keccak256.hash(lower)
        var out = "0x"
        for (i, c) in lower.enumerated() {
            let nibble = (hash[i / 2] >> (i % 2 == 0 ? 4 : 0)) & 0x0f
            if c >= 0x61, nibble >= 8 {
                out.unicodeScalars.append(Unicode.Scalar(c - 32))
            } else {
                out.unicodeScalars.append(Unicode.Scalar(c))
            }
        }
        return out
    }
}
