import Primitives

/// Ethereum wallet keys (docs/reference/ethereum.md §4): BIP-44 derivation at `m/44'/60'/0'/0/n`,
/// the public development accounts, recoverable signatures over a 32-byte hash and recovery.
///
/// Security: signing is deterministic (RFC 6979 nonces in libsecp256k1), always low-S
/// (`s ≤ n/2`, EIP-2). `signHash` signs whatever 32 bytes it is given: callers hash what they built
/// and showed (EthereumCodec), never a hash a site supplied.
extension EthereumKeyPair {
    /// Hardhat's and Anvil's public development mnemonic (docs/reference/ethereum.md §4.4). Never
    /// for real funds: every secret derived from it is public.
    package static let devMnemonicPhrase = "test test test test test test test test test test test junk"

    /// Half the secp256k1 group order, big-endian: the largest `s` of a low-S signature (EIP-2).
    static let halfOrder: [UInt8] = [
        0x7F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
        0x5D, 0x57, 0x6E, 0x73, 0x57, 0xA4, 0x50, 0x1D, 0xDF, 0xE9, 0x2F, 0x46, 0x68, 0x1B, 0x20, 0xA0,
    ]

    /// From a BIP-39 mnemonic at `path` (BIP-32 over the standard BIP-39 seed with `passphrase`).
    /// - Throws: `KeyError` (`invalidDerivationPath`, `invalidSeed`).
    package init(mnemonic: Mnemonic, passphrase: String = "", path: BIP32Path) throws {
        try self.init(seed: BIP32ExtendedKey(mnemonic: mnemonic, passphrase: passphrase, path: path).secretKey)
    }

    /// From a BIP-39 mnemonic at `m/44'/60'/0'/0/index` (MetaMask, ethers, Hardhat, Anvil).
    package init(mnemonic: Mnemonic, passphrase: String = "", index: UInt32) throws {
        try self.init(mnemonic: mnemonic, passphrase: passphrase, path: BIP32Path.ethereum(index: index))
    }

    /// Development account `index` of `devMnemonicPhrase` (account 0 is
    /// `0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266`). Public keys: for `--dev` and tests only.
    package static func devAccount(index: UInt32) throws -> EthereumKeyPair {
        try EthereumKeyPair(mnemonic: Mnemonic(phrase: devMnemonicPhrase), index: index)
    }

    /// The EIP-55 checksummed `0x` address.
    package var address: String { EthereumKeyPair.checksumAddress(accountId) }

    /// The 65-byte uncompressed public key `04 ‖ X ‖ Y`.
    package var uncompressedPublicKey: [UInt8] { inner.uncompressedPublicKey }

    /// The 65-byte recoverable signature `r ‖ s ‖ yParity` (yParity 0/1, not +27) of a 32-byte hash,
    /// with no further hashing. Deterministic, low-S. - Throws: `badLength` unless 32 bytes.
    package func signHash(_ hash: [UInt8]) throws -> [UInt8] { try inner.signPrehashed(hash) }

    /// The 20-byte address that `r ‖ s ‖ v` over `hash` recovers to. `v` may be 0/1 or 27/28.
    /// Untrusted input, never traps. - Throws: `badLength`, `invalidSignature` (r or s out of range,
    /// v outside 0/1/27/28, or high-S when `requireLowS`, as EIP-2 requires of transactions).
    package static func recoverAddress(signature: [UInt8], hash: [UInt8], requireLowS: Bool = true) throws -> [UInt8] {
        guard signature.count == 65 else { throw KeyError(.badLength, "an Ethereum signature is 65 bytes") }
        guard [0, 1, 27, 28].contains(signature[64]) else {
            throw KeyError(.invalidSignature, "v is not 0, 1, 27 or 28")
        }
        if requireLowS && !isLowS(Array(signature[32..<64])) {
            throw KeyError(.invalidSignature, "s is above n/2 (EIP-2)")
        }
        let ctx = Secp256k1Context.shared
        var pub = try ctx.recover(signature: signature, digest: hash)
        return Array(Keccak256.hash(ctx.serialize(&pub, compressed: false).dropFirst()).suffix(20))
    }

    /// The 20-byte address of a 64-byte `X ‖ Y`, 65-byte uncompressed or 33-byte compressed key.
    package static func address(ofPublicKey key: [UInt8]) throws -> [UInt8] {
        try address(ofCompressedPublicKey: key.count == 64 ? [0x04] + key : key)
    }

    /// Whether a 32-byte big-endian `s` is at most n/2.
    package static func isLowS(_ s: [UInt8]) -> Bool {
        guard s.count == 32 else { return false }
        for (a, b) in zip(s, halfOrder) where a != b { return a < b }
        return true
    }
}

extension BIP32Path {
    /// `m/44'/60'/0'/0/n`, Ethereum's BIP-44 path (coin type 60). Throws for `n` ≥ 2^31.
    package static func ethereum(index: UInt32) throws -> BIP32Path {
        guard let last = Component(index: index, hardened: false),
            let purpose = Component(index: 44, hardened: true), let coin = Component(index: 60, hardened: true),
            let account = Component(index: 0, hardened: true), let change = Component(index: 0, hardened: false)
        else { throw KeyError(.invalidDerivationPath, "address index must be below 2^31") }
        return try BIP32Path(components: [purpose, coin, account, change, last])
    }
}
