/// The one error type of `EthereumCodec`: why bytes or a request were refused, as a stable code,
/// the byte offset in the input when there is one (RLP, calldata, SIWE text), the field it concerns
/// (a dotted path such as `accessList[0].address` or `message.to[1].wallet`) and a reason for
/// developers.
///
/// Security: never contains values from the input (addresses, amounts, data), only offsets, field
/// names and rules; never secret material.
package struct EthereumCodecError: Error, Equatable, CustomStringConvertible, Sendable {
    package enum Code: String, Sendable, CaseIterable {
        /// The input ends before an item or value it announces.
        case truncated
        /// Bytes are left after a complete item (RLP, a transaction, calldata of a static signature).
        case trailingBytes
        /// An RLP encoding that is not the shortest one (docs/reference/ethereum.md §8.1), or an
        /// integer with a leading zero byte.
        case nonCanonical
        /// Nesting deeper than the decoder's bound.
        case tooDeep
        /// A length or count beyond the decoder's bound.
        case tooLarge
        /// An RLP list where a byte string belongs, or the reverse; a JSON value of the wrong kind.
        case wrongType
        /// Not `0x` + hex digits of the required length.
        case invalidHex
        /// A QUANTITY with leading zeros, an empty `0x`, or no `0x` (EIP-1474).
        case leadingZeros
        /// An integer beyond its field's width (gas and nonce 64 bits, values 256, `uintN`/`intN`).
        case outOfRange
        /// A required field is absent.
        case missingField
        /// Two fields that cannot go together (gasPrice and maxFeePerGas, data ≠ input, type ≠ fields).
        case conflictingFields
        /// A field this codec does not know (it would be signed without being shown).
        case unknownField
        /// Not `0x` + 40 hex digits, or another number of bytes than 20.
        case invalidAddress
        /// A mixed-case address whose case is not its EIP-55 checksum.
        case badChecksum
        /// A transaction type other than 0, 1, 2; an EIP-712 type name that is not well formed.
        case unsupportedType
        /// A signature that is malformed, high-S, or whose v does not fit the transaction.
        case invalidSignature
        /// A chain id that differs from the one expected.
        case chainMismatch
        /// An EIP-712 struct type used but not defined, or a missing `EIP712Domain` for a non-empty domain.
        case unknownType
        /// An EIP-712 struct that contains itself without an array in between (no finite value exists).
        case cyclicType
        /// A value that does not fit its declared type (EIP-712, ABI words, fee ordering).
        case invalidValue
        /// The text is not JSON (syntax, invalid UTF-8, too deep or too large for the parser).
        case invalidJSON
        /// A Sign-In with Ethereum message that does not follow ERC-4361.
        case invalidSiweMessage
    }

    package let code: Code
    /// The byte offset in the input where the problem is, when the input is bytes or text.
    package let position: Int?
    /// The dotted path of the field, when there is one.
    package let field: String?
    package let reason: String

    package init(_ code: Code, at position: Int? = nil, field: String? = nil, _ reason: String) {
        self.code = code
        self.position = position
        self.field = field
        self.reason = reason
    }

    package static func == (a: EthereumCodecError, b: EthereumCodecError) -> Bool { a.code == b.code }

    package var description: String {
        "EthereumCodecError.\(code.rawValue)" + (field.map { " at \($0)" } ?? "")
            + (position.map { " (offset \($0))" } ?? "") + ": \(reason)"
    }

    /// The same error with `field` set (prefixed to an inner field path when there is one).
    func within(_ outer: String) -> EthereumCodecError {
        EthereumCodecError(code, at: position, field: field.map { outer + "." + $0 } ?? outer, reason)
    }
}
