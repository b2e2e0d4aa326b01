/// `Primitives`' error: JSON and hex text refused (docs/reference/conventions.md §1; the shape,
/// equality and security rules are `CodedError`'s), with the byte offset into the input where the
/// problem is (`offset`) when there is one.
///
/// Security: `reason` never contains the input itself (no echo of untrusted text, no secret bytes);
/// it names the rule that failed, and `offset` the position.
package typealias PrimitivesError = CodedError<PrimitivesErrorCode>

/// Why a `PrimitivesError` was thrown; the case name is what messages and logs show
/// (`PrimitivesError.<case> (offset <n>): reason`), so a case is added but never renamed.
package enum PrimitivesErrorCode: String, ErrorCode, CaseIterable {
    package static let domain = "PrimitivesError"
    /// JSON text that does not follow RFC 8259's grammar.
    case jsonSyntax
    /// JSON containers nested deeper than the limit.
    case jsonTooDeep
    /// An object with the same key twice.
    case jsonDuplicateKey
    /// Bytes that are not UTF-8, or a `\u` escape of an unpaired surrogate.
    case jsonInvalidUTF8
    /// More bytes than the limit allows.
    case jsonTooLarge
    /// A JSON value that does not have the shape a typed decoder expects.
    case jsonTypeMismatch
    /// Hex text without the required `0x` prefix, or with one where none is allowed.
    case hexPrefix
    /// Hex text with an odd number of digits.
    case hexOddLength
    /// A character that is not a hex digit.
    case hexInvalidDigit
    /// Hex of the wrong byte length for a fixed-size value.
    case hexWrongLength
}
