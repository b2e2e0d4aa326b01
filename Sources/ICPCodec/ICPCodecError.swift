import Primitives

/// `ICPCodec`'s error (docs/reference/conventions.md §1; the shape, equality and security rules are
/// `CodedError`'s): a stable code naming the rule that refused the input, a reason for developers
/// and, for binary input (CBOR, Candid), the byte offset where decoding stopped (`offset`).
///
/// Security: never contains keys, signatures or argument values; principal texts are not echoed.
package typealias ICPCodecError = CodedError<ICPCodecErrorCode>

/// Why an `ICPCodecError` was thrown; the case name is what messages and logs show
/// (`ICPCodecError.<case> (offset <n>): reason`), so a case is added but never renamed.
package enum ICPCodecErrorCode: String, ErrorCode, CaseIterable {
    package static let domain = "ICPCodecError"
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
