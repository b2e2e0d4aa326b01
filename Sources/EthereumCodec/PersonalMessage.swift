import Primitives
import SigningKeys

/// EIP-191 version 0x45, `personal_sign` (docs/reference/ethereum.md §6.1):
/// `keccak256(0x19 ‖ "Ethereum Signed Message:\n" ‖ decimal(byte length) ‖ message)`.
package enum PersonalMessage {
    /// The message bytes of a `personal_sign` data param: a `0x` hex string is decoded (odd length
    /// or a bad digit is refused rather than padded), any other text is its UTF-8 bytes
    /// (eth-sig-util `legacyToBuffer`). - Throws: `.invalidHex`.
    package static func messageBytes(param: String) throws(EthereumCodecError) -> [UInt8] {
        guard param.utf8.starts(with: "0x".utf8) else { return Array(param.utf8) }
        return try EthereumQuantity.parseData(param, field: "params[0]")
    }

    /// The preimage `0x19 ‖ "Ethereum Signed Message:\n" ‖ len ‖ message`.
    package static func preimage(_ message: [UInt8]) -> [UInt8] {
        [0x19] + Array("Ethereum Signed Message:\n\(message.count)".utf8) + message
    }

    /// The 32-byte hash that is signed.
    package static func hash(_ message: [UInt8]) -> [UInt8] { Keccak256.hash(preimage(message)) }

    /// The 65-byte `r ‖ s ‖ v` signature (v = 27/28) `personal_sign` returns. Deterministic, low-S.
    package static func sign(_ message: [UInt8], with key: EthereumKeyPair) throws -> [UInt8] {
        try EthereumSignature(bytes65: key.signHash(hash(message))).messageSignature
    }

    /// The address a `personal_sign` signature recovers to (v 27/28 or 0/1; high-S refused).
    package static func recoverSigner(_ message: [UInt8], signature: [UInt8]) throws(EthereumCodecError)
        -> EthereumAddress
    {
        do {
            return EthereumAddress(
                uncheckedBytes: try EthereumKeyPair.recoverAddress(signature: signature, hash: hash(message)))
        } catch {
            throw EthereumCodecError(.invalidSignature, "no public key recovers from this signature")
        }
    }
}
