import Primitives
/// The signature schemes of Substrate accounts (sp-core `sr25519`, `ed25519`, `ecdsa`) plus the
/// polkadot-js `ethereum` key type (secp256k1 with Keccak-256 and 20-byte addresses).
package enum KeyScheme: String, Sendable, CaseIterable, Codable, CustomStringConvertible {
    case sr25519
    case ed25519
    case ecdsa
    case ethereum

    /// The SCALE `MultiSignature` / `MultiSigner` variant index (sp-runtime `lib.rs`; polkadot-js
    /// `pair.sign(…, {withType: true})`): ed25519 0, sr25519 1, ecdsa 2. `nil` for `ethereum`,
    /// which plain Substrate `MultiSignature` does not carry.
    package var multiSignatureIndex: UInt8? {
        switch self {
        case .ed25519: 0
        case .sr25519: 1
        case .ecdsa: 2
        case .ethereum: nil
        }
    }

    /// Length of the public key in bytes (33 = SEC1 compressed for the secp256k1 schemes).
    package var publicKeyLength: Int {
        switch self {
        case .sr25519, .ed25519: 32
        case .ecdsa, .ethereum: 33
        }
    }

    /// Length of a raw signature in bytes (65 = `r ‖ s ‖ v` for the secp256k1 schemes).
    package var signatureLength: Int {
        switch self {
        case .sr25519, .ed25519: 64
        case .ecdsa, .ethereum: 65
        }
    }

    /// Length of the account id: 32 (AccountId32), 20 for `ethereum` addresses.
    package var accountIdLength: Int { self == .ethereum ? 20 : 32 }

    /// `true` when the scheme supports soft (`/soft`) junctions (only sr25519).
    package var supportsSoftDerivation: Bool { self == .sr25519 }

    package var description: String { rawValue }

    /// The account id of a public key: the key itself (sr25519, ed25519), BLAKE2b-256 of the
    /// compressed key (ecdsa, sp-runtime `MultiSigner::into_account`), or the Keccak-256 address
    /// (ethereum). Throws `badLength` or `invalidPublicKey` for a malformed key.
    package func accountId(forPublicKey publicKey: [UInt8]) throws -> [UInt8] {
        guard publicKey.count == publicKeyLength else {
            throw KeyError(
                .badLength, "\(rawValue) public key must be \(publicKeyLength) bytes, got \(publicKey.count)")
        }
        switch self {
        case .sr25519, .ed25519: return publicKey
        case .ecdsa: return Blake2b.hash256(publicKey)
        case .ethereum: return try EthereumKeyPair.address(ofCompressedPublicKey: publicKey)
        }
    }

    /// Verifies a raw signature. `signer` is the public key, or (ecdsa/ethereum, whose signatures
    /// recover the key) the account id. Untrusted input: never traps; returns `false` for anything
    /// malformed.
    package func verify(signature: [UInt8], message: [UInt8], signer: [UInt8]) -> Bool {
        (try? check(signature: signature, message: message, signer: signer)) != nil
    }

    /// Like `verify`, throwing a `KeyError` with a one-line reason when the signature is rejected.
    package func check(signature: [UInt8], message: [UInt8], signer: [UInt8]) throws {
        switch self {
        case .sr25519: try Sr25519KeyPair.check(signature: signature, message: message, publicKey: signer)
        case .ed25519: try Ed25519KeyPair.check(signature: signature, message: message, publicKey: signer)
        case .ecdsa: try EcdsaKeyPair.check(signature: signature, message: message, signer: signer)
        case .ethereum: try EthereumKeyPair.check(signature: signature, message: message, signer: signer)
        }
    }
}
