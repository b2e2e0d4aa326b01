import Primitives

/// What every key pair of this module offers. Conforming types keep their secret in `SecretBytes`
/// and their `description` shows only public data.
package protocol SigningKeyPair: Sendable, CustomStringConvertible {
    /// The scheme of this pair type.
    static var scheme: KeyScheme { get }
    /// The public key (32 bytes, or 33 compressed for secp256k1).
    var publicKey: [UInt8] { get }
    /// The account id (see `KeyScheme.accountId(forPublicKey:)`).
    var accountId: [UInt8] { get }
    /// The 32-byte seed (mini secret) when known; `nil` after an sr25519 soft junction or when the
    /// pair was created from an expanded secret key.
    var seed: SecretBytes? { get }
    /// Signs the raw message with the scheme's Substrate rules (see each type for determinism).
    func sign(_ message: [UInt8]) throws -> [UInt8]
}
