import Primitives

/// The two hex encodings of Ethereum JSON-RPC (EIP-1474; docs/reference/ethereum.md §9 item 2).
///
/// QUANTITY: `0x` + minimal hex digits, zero is `0x0`; `0x`, `0x00`, `0x0400`, `400` are refused.
/// DATA: `0x` + two hex digits per byte, `0x` is empty.
package enum EthereumQuantity {
    /// Parses a QUANTITY of at most 256 bits.
    /// - Throws: `.leadingZeros` (no `0x`, empty, leading zero), `.invalidHex`, `.outOfRange`.
    package static func parse(_ text: String, field: String? = nil) throws(EthereumCodecError) -> UInt256 {
        let u = Array(text.utf8)
        guard u.count >= 3, u[0] == UInt8(ascii: "0"), u[1] == UInt8(ascii: "x") else {
            throw EthereumCodecError(.leadingZeros, field: field, "a QUANTITY is 0x + at least one hex digit")
        }
        guard u.count == 3 || u[2] != UInt8(ascii: "0") else {
            throw EthereumCodecError(.leadingZeros, field: field, "a QUANTITY has no leading zeros (EIP-1474)")
        }
        guard u[2...].allSatisfy({ UInt256.nibble($0) != nil }) else {
            throw EthereumCodecError(.invalidHex, field: field, "not a hex digit")
        }
        guard let value = UInt256(hexDigits: text.dropFirst(2)) else {
            throw EthereumCodecError(.outOfRange, field: field, "wider than 256 bits")
        }
        return value
    }

    /// Parses a QUANTITY that must fit 64 bits (nonce, gas, chain id).
    package static func parse64(_ text: String, field: String? = nil) throws(EthereumCodecError) -> UInt64 {
        guard let v = try parse(text, field: field).uint64 else {
            throw EthereumCodecError(.outOfRange, field: field, "wider than 64 bits")
        }
        return v
    }

    /// Parses DATA: `0x` + an even number of hex digits.
    package static func parseData(_ text: String, field: String? = nil) throws(EthereumCodecError) -> [UInt8] {
        do { return try Hex.decode(text, prefix: .required) } catch {
            throw EthereumCodecError(.invalidHex, field: field, "DATA is 0x + two hex digits per byte")
        }
    }

    /// Encodes a QUANTITY.
    package static func encode(_ value: UInt256) -> String { value.quantity }
}
