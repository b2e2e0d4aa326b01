import Primitives

/// `EthereumCodec`'s error (docs/reference/conventions.md §1; the shape, equality and security rules
/// are `CodedError`'s): why bytes or a request were refused, as a stable code, the byte offset in the
/// input when there is one (`offset`: RLP, calldata, SIWE text), the field it concerns (`field`, a
/// dotted path such as `accessList[0].address` or `message.to[1].wallet`; `within(_:)` prefixes it)
/// and a reason for developers.
///
/// Security: never contains values from the input (addresses, amounts, data), only offsets, field
/// names and rules; never secret material.
package typealias EthereumCodecError = CodedError<EthereumCodecErrorCode>

/// Why an `EthereumCodecError` was thrown; the case name is what messages and logs show
/// (`EthereumCodecError.<case> at <field> (offset <n>): reason`), so a case is added but never renamed.
package enum EthereumCodecErrorCode: String, ErrorCode, CaseIterable {
    package static let domain = "EthereumCodecError"
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
