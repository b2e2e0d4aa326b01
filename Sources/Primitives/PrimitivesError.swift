/// The one error type of the `Primitives` module: a stable `code`, where in the input it happened
/// (`offset`, a byte offset, when there is one) and a developer-facing `reason`.
///
/// Security: `reason` never contains the input itself (no echo of untrusted text, no secret bytes);
/// it names the rule that failed and the position.
package struct PrimitivesError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What went wrong. Two errors are equal when their codes are.
    package enum Code: String, Sendable, Hashable {
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

    package let code: Code
    /// Byte offset into the input, when the error has a position.
    package let offset: Int?
    /// A human explanation for developers and logs; never echoes the input.
    package let reason: String

    package init(_ code: Code, _ reason: String, offset: Int? = nil) {
        self.code = code
        self.reason = reason
        self.offset = offset
    }

    package var description: String {
        offset.map { "\(code.rawValue) at byte \($0): \(reason)" } ?? "\(code.rawValue): \(reason)"
    }

    package static func == (a: PrimitivesError, b: PrimitivesError) -> Bool { a.code == b.code }
    package func hash(into h: inout Hasher) { h.combine(code) }
}
