import Primitives

/// A key pair of any scheme, created from a seed or a secret URI with sp-core's derivation rules.
///
/// Security: holds its secrets in `SecretBytes` through the wrapped pair; `description` shows the
/// scheme and public key only.
package enum KeyPair: Sendable, CustomStringConvertible {
    case sr25519(Sr25519KeyPair)
    case ed25519(Ed25519KeyPair)
    case ecdsa(EcdsaKeyPair)
    case ethereum(EthereumKeyPair)

    /// Creates the pair for a 32-byte seed (mini secret). Deterministic.
    package init(seed: SecretBytes, scheme: KeyScheme) throws {
        switch scheme {
        case .sr25519: self = .sr25519(try Sr25519KeyPair(seed: seed))
        case .ed25519: self = .ed25519(try Ed25519KeyPair(seed: seed))
        case .ecdsa: self = .ecdsa(try EcdsaKeyPair(seed: seed))
        case .ethereum: self = .ethereum(try EthereumKeyPair(seed: seed))
        }
    }

    /// Parses `uri` (see `SecretURI`) and derives the pair.
    package init(uri: String, scheme: KeyScheme) throws {
        try self.init(uri: try SecretURI(uri), scheme: scheme)
    }

    /// Derives the pair for a parsed URI, as sp-core `Pair::from_string_with_seed` does. Soft
    /// junctions are only valid for sr25519 (`softKeyInPath` otherwise) and make its nonce random.
    /// `ethereum` supports only `0x` seeds without a path (`unsupported` otherwise).
    package init(uri: SecretURI, scheme: KeyScheme) throws {
        if scheme == .ethereum {
            guard case .seed = uri.root, uri.junctions.isEmpty else {
                throw KeyError(
                    .unsupported,
                    "ethereum keys are supported only from a 0x seed without a path (polkadot-js uses BIP32 there)")
            }
        }
        if !scheme.supportsSoftDerivation, uri.junctions.contains(where: { !$0.isHard }) {
            throw KeyError(.softKeyInPath, "\(scheme) supports only hard (//) junctions")
        }
        var pair = try KeyPair(seed: try uri.rootSeed(), scheme: scheme)
        var sawSoft = false
        for junction in uri.junctions {
            pair = try pair.derive(junction)
            sawSoft = sawSoft || !junction.isHard
            // sp-core keeps a seed only while every junction so far was hard.
            if sawSoft, case .sr25519(let p) = pair { pair = .sr25519(p.forgettingSeed()) }
        }
        self = pair
    }

    /// Applies one junction.
    package func derive(_ junction: DeriveJunction) throws -> KeyPair {
        switch self {
        case .sr25519(let p):
            return .sr25519(
                junction.isHard
                    ? try p.deriveHard(chainCode: junction.chainCode) : try p.deriveSoft(chainCode: junction.chainCode))
        case .ed25519(let p):
            guard junction.isHard else { throw KeyError(.softKeyInPath, "ed25519 supports only hard (//) junctions") }
            return .ed25519(try p.deriveHard(chainCode: junction.chainCode))
        case .ecdsa(let p):
            guard junction.isHard else { throw KeyError(.softKeyInPath, "ecdsa supports only hard (//) junctions") }
            return .ecdsa(try p.deriveHard(chainCode: junction.chainCode))
        case .ethereum:
            throw KeyError(.unsupported, "ethereum derivation paths are not supported")
        }
    }

    /// The wrapped pair.
    package var pair: any SigningKeyPair {
        switch self {
        case .sr25519(let p): p
        case .ed25519(let p): p
        case .ecdsa(let p): p
        case .ethereum(let p): p
        }
    }

    /// The signature scheme.
    package var scheme: KeyScheme { type(of: pair).scheme }
    /// The public key (not secret).
    package var publicKey: [UInt8] { pair.publicKey }
    /// The account id (the public key, or its hash for ecdsa/ethereum).
    package var accountId: [UInt8] { pair.accountId }
    /// The 32-byte seed when known (see `SigningKeyPair.seed`).
    package var seed: SecretBytes? { pair.seed }

    /// Signs the raw message (sr25519 randomized; ed25519/ecdsa/ethereum deterministic).
    package func sign(_ message: [UInt8]) throws -> [UInt8] { try pair.sign(message) }

    /// SCALE `MultiSignature` bytes: the variant index then the raw signature. Throws
    /// `unsupported` for ethereum.
    package func signMultiSignature(_ message: [UInt8]) throws -> [UInt8] {
        guard let index = scheme.multiSignatureIndex else {
            throw KeyError(.unsupported, "\(scheme) has no MultiSignature variant")
        }
        return [index] + (try sign(message))
    }

    package var description: String { "KeyPair(\(scheme), public: \(Hex.encode(publicKey)))" }
}
