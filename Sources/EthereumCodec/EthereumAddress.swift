import Primitives
import SigningKeys

/// A 20-byte Ethereum address (docs/reference/ethereum.md §4.2–§4.3).
///
/// Text input follows EIP-55 as ethers' `getAddress` does: `0x` + 40 hex digits; all lower-case or
/// all upper-case carries no checksum and is accepted; mixed case must be exactly the checksum.
package struct EthereumAddress: Sendable, Hashable, CustomStringConvertible {
    /// The 20 bytes.
    package let bytes: [UInt8]

    /// From 20 bytes. - Throws: `.invalidAddress` for another length.
    package init(bytes: [UInt8]) throws(EthereumCodecError) {
        guard bytes.count == 20 else { throw EthereumCodecError(.invalidAddress, "\(bytes.count) bytes, not 20") }
        self.bytes = bytes
    }

    /// From text (EIP-55 rules above). - Throws: `.invalidAddress`, `.badChecksum`.
    package init(_ text: String, field: String? = nil) throws(EthereumCodecError) {
        let utf8 = Array(text.utf8)
        guard utf8.count == 42, utf8[0] == UInt8(ascii: "0"), utf8[1] == UInt8(ascii: "x"),
            let decoded = try? Hex.decode(text, prefix: .required, byteCount: 20)
        else { throw EthereumCodecError(.invalidAddress, field: field, "not 0x + 40 hex digits") }
        bytes = decoded
        let letters = utf8[2...].filter { $0 > 0x39 }
        let hasLower = letters.contains { $0 >= 0x61 }
        let hasUpper = letters.contains { $0 < 0x61 }
        if hasLower && hasUpper && checksummed != text {
            throw EthereumCodecError(.badChecksum, field: field, "mixed case that is not the EIP-55 checksum")
        }
    }

    /// The EIP-55 checksummed form (EIP-55: upper-case the letter at i when nibble i of
    /// keccak256(lower-case hex ASCII) ≥ 8).
    package var checksummed: String { EthereumKeyPair.checksumAddress(bytes) }

    /// `0x` + 40 lower-case hex digits (what MetaMask returns from `eth_accounts`).
    package var lowercased: String { Hex.encode(bytes) }

    package var description: String { checksummed }

    /// The address of a contract created by `sender` with `nonce` (CREATE): the last 20 bytes of
    /// keccak256(rlp([sender, nonce])).
    package static func contractAddress(sender: EthereumAddress, nonce: UInt64) -> EthereumAddress {
        let encoded = RLP.encode(.list([.bytes(sender.bytes), .uint(nonce)]))
        // The suffix of a 32-byte hash is always 20 bytes.
        return EthereumAddress(uncheckedBytes: Array(Keccak256.hash(encoded).suffix(20)))
    }

    init(uncheckedBytes: [UInt8]) { bytes = uncheckedBytes }
}
