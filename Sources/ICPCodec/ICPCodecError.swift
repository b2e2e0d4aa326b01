/// The one error type of `ICPCodec`: a stable code naming the rule that refused the input, a reason
/// for developers and, for binary input (CBOR, Candid), the byte offset where decoding stopped.
///
/// Security: never contains keys, signatures or argument values; principal texts are not echoed.
package struct ICPCodecError: Error, Equatable, CustomStringConvertible, Sendable {
    package enum Code: String, Sendable, CaseIterable {
        /// Principal text that is not the IC's textual form (length, characters, grouping, padding
        /// bits, checksum) or principal bytes longer than 29.
        case invalidPrincipal
        /// An account identifier or ICRC-1 account text that does not decode or whose checksum fails.
        case invalidAccount
        /// CBOR that is malformed, truncated, has trailing bytes or uses a feature requests never use
        /// (indefinite lengths, floats, non-text map keys, duplicate keys).
        case invalidCBOR
        /// A request content that is not a well-formed call/query/read_state (missing or mistyped
        /// field, unknown request type).
        case invalidRequest
        /// `ingress_expiry` in the past or more than five minutes ahead of the clock.
        case expiryOutOfRange
        /// A nonce longer than 32 bytes.
        case nonceTooLong
        /// Candid binary that is malformed, truncated or has trailing bytes.
        case invalidCandid
        /// Input nested deeper, longer or costlier than the decoder's bounds allow.
        case limitExceeded
        /// Candid arguments that are well formed but not of the type a known method declares.
        case typeMismatch
        /// A signature that does not verify, or a key that cannot sign.
        case signature
    }

    package let code: Code
    package let reason: String
    /// Byte offset into the decoded input, when the input is binary.
    package let offset: Int?

    package init(_ code: Code, _ reason: String, offset: Int? = nil) {
        self.code = code
        self.reason = reason
        self.offset = offset
    }

    package static func == (a: ICPCodecError, b: ICPCodecError) -> Bool { a.code == b.code }

    package var description: String {
        "ICPCodecError.\(code.rawValue)" + (offset.map { " at byte \($0)" } ?? "") + ": \(reason)"
    }
}
