/// Character classes of RFC 9110 §5.6.2 (tchar) and §5.5 (field-vchar), as 128-bit masks over
/// ASCII: constants, so a per-byte test is two shifts and an AND (no lazily initialised global,
/// whose `swift_once` check showed in the parser's profile).
enum ByteClass {
    /// tchar = "!" / "#" / "$" / "%" / "&" / "'" / "*" / "+" / "-" / "." / "^" / "_" / "`" / "|" / "~"
    ///         / DIGIT / ALPHA
    private static let tokenLow: UInt64 = 0x03FF6CFA00000000
    private static let tokenHigh: UInt64 = 0x57FFFFFFC7FFFFFE
    /// field-value octets: SP, HTAB, VCHAR and obs-text (every byte ≥ 0x80). Excludes NUL, CR, LF,
    /// DEL and the other CTLs.
    private static let fieldLow: UInt64 = 0xFFFFFFFF00000200
    private static let fieldHigh: UInt64 = 0x7FFFFFFFFFFFFFFF

    @inline(__always) static func isToken(_ byte: UInt8) -> Bool {
        byte < 64 ? tokenLow >> byte & 1 == 1 : byte < 128 ? tokenHigh >> (byte &- 64) & 1 == 1 : false
    }

    @inline(__always) static func isFieldValue(_ byte: UInt8) -> Bool {
        byte < 64 ? fieldLow >> byte & 1 == 1 : byte < 128 ? fieldHigh >> (byte &- 64) & 1 == 1 : true
    }

    /// request-target octets we accept: visible ASCII (RFC 3986 characters are a subset).
    @inline(__always) static func isTarget(_ byte: UInt8) -> Bool { byte > 0x20 && byte < 0x7F }
}
