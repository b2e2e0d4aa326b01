import Primitives

/// Key pairs from the secret stored in a polkadot-js keyring JSON file (docs/reference/crypto.md §7.3).
extension KeyPair {
    /// Creates the pair from the `secretKey` of a polkadot-js JSON export, in the layout polkadot-js
    /// writes for each scheme:
    /// - sr25519: 64 bytes `key·8 ‖ nonce` (the "ed25519 form");
    /// - ed25519: 64 bytes `seed ‖ public` (libsodium);
    /// - ecdsa / ethereum: the 32-byte secret (the seed).
    ///
    /// When `publicKey` is given (the key embedded in the file), it must equal the derived public
    /// key, else `invalidSeed` (polkadot-js does not check this; subxt does). Deterministic.
    package init(keystoreSecret secret: SecretBytes, scheme: KeyScheme, publicKey: [UInt8]? = nil) throws {
        switch scheme {
        case .sr25519: self = .sr25519(try Sr25519KeyPair(secretKey64: secret, layout: .ed25519))
        case .ed25519: self = .ed25519(try Ed25519KeyPair(secretKey64: secret))
        case .ecdsa: self = .ecdsa(try EcdsaKeyPair(seed: secret))
        case .ethereum: self = .ethereum(try EthereumKeyPair(seed: secret))
        }
        if let publicKey, publicKey != self.publicKey {
            throw KeyError(.invalidSeed, "\(scheme) secret key does not belong to the stored public key")
        }
    }

    /// The secret as polkadot-js stores it in JSON exports (the inverse of
    /// `init(keystoreSecret:scheme:publicKey:)`). `nil` only for an ecdsa/ethereum pair without a
    /// known seed, which cannot happen for pairs made by this module.
    package var keystoreSecret: SecretBytes? {
        switch self {
        case .sr25519(let p): p.ed25519FormSecretKey
        case .ed25519(let p): p.libsodiumSecretKey
        case .ecdsa(let p): p.seed
        case .ethereum(let p): p.seed
        }
    }
}
