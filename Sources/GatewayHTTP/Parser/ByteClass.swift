/// Character classes of RFC 9110 §5.6.2 (tchar) and §5.5 (field-vchar), as lookup tables.
enum ByteClass {
    /// tchar = "!" / "#" / "$" / "%" / "&" / "'" / "*" / "+" / "-" / "." / "^" / "_" / "`" / "|" / "~"
    ///         / DIGIT / ALPHA
    static let token: [Bool] = {
        var table = [Bool](repeating: false, count: 256)
        for b in UInt8(ascii: "0")...UInt8(ascii: "9") { table[Int(b)] = true }
        for b in UInt8(ascii: "a")...UInt8(ascii: "z") { table[Int(b)] = true }
        for b in UInt8(ascii: "A")...UInt8(ascii: "Z") { table[Int(b)] = true }
        for c in "!#$%&'*+-.^_`|~".utf8 { table[Int(c)] = true }
        return table
    }()

    /// field-value octets: SP, HTAB, VCHAR and obs-text. Excludes NUL, CR, LF, DEL and other CTLs.
    static let fieldValue: [Bool] = {
        var table = [Bool](repeating: false, count: 256)
        table[0x09] = true
        for b in 0x20...0x7E { table[b] = true }
        for b in 0x80...0xFF { table[b] = true }
        return table
    }()

    @inline(__always) static func isToken(_ byte: UInt8) -> Bool { token[Int(byte)] }
    @inline(__always) static func isFieldValue(_ byte: UInt8) -> Bool { fieldValue[Int(byte)] }
    /// request-target octets we accept: visible ASCII (RFC 3986 characters are a subset).
    @inline(__always) static func isTarget(_ byte: UInt8) -> Bool { byte > 0x20 && byte < 0x7F }
}
