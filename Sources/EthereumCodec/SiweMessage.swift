import Primitives

/// A Sign-In with Ethereum message (ERC-4361; docs/reference/ethereum.md §7.7), parsed strictly from
/// the text a `personal_sign` request carries:
///
/// ```
/// [scheme://]domain wants you to sign in with your Ethereum account:
/// 0xEIP55Address
///
/// [statement]          (this line and the blank line after it are absent without a statement)
///
/// URI: …
/// Version: 1
/// Chain ID: …
/// Nonce: …             (at least 8 ASCII letters and digits)
/// Issued At: …         (RFC 3339)
/// [Expiration Time: …] [Not Before: …] [Request ID: …] [Resources:\n- uri …]
/// ```
///
/// LF line ends, labels exact and in this order, the address EIP-55 checksummed. Comparing `domain`
/// and `scheme` with the requesting origin, the address with the signing account and the times
/// with the clock is the caller's job. Linear in the text; errors carry the line's byte offset.
package struct SiweMessage: Sendable, Hashable {
    /// The scheme before `://`, when given (default `https` when comparing with the origin).
    package let scheme: String?
    /// The RFC 3986 authority that asks for the sign-in.
    package let domain: String
    package let address: EthereumAddress
    package let statement: String?
    package let uri: String
    package let version: String
    package let chainId: UInt64
    package let nonce: String
    package let issuedAt: String
    package let expirationTime: String?
    package let notBefore: String?
    package let requestId: String?
    package let resources: [String]

    static let preamble = " wants you to sign in with your Ethereum account:"

    /// Whether the text claims to be a SIWE message (so that a parse failure deserves a loud warning).
    package static func looksLikeSiwe(_ text: String) -> Bool {
        text.contains("wants you to sign in with your Ethereum account")
    }

    /// Parses the message. - Throws: `.invalidSiweMessage` with the byte offset and the field,
    /// `.invalidAddress`/`.badChecksum` for the address line.
    package init(_ text: String) throws(EthereumCodecError) {
        guard text.utf8.count <= 64 * 1024 else { throw EthereumCodecError(.tooLarge, "longer than 64 KiB") }
        var lines: [(offset: Int, text: Substring)] = []
        var offset = 0
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            lines.append((offset, line))
            offset += line.utf8.count + 1
        }
        var i = 0
        func bad(_ field: String, _ reason: String) -> EthereumCodecError {
            EthereumCodecError(
                .invalidSiweMessage, at: i < lines.count ? lines[i].offset : text.utf8.count, field: field, reason)
        }
        func next() -> Substring? {
            guard i < lines.count else { return nil }
            defer { i += 1 }
            return lines[i].text
        }
        func field(_ label: String, optional: Bool = false) throws(EthereumCodecError) -> String? {
            guard i < lines.count, lines[i].text.hasPrefix(label + ": ") else {
                if optional { return nil }
                throw bad(label, "expected \"\(label): \"")
            }
            let value = String(lines[i].text.dropFirst(label.count + 2))
            i += 1
            return value
        }
        guard let first = next(), first.hasSuffix(Self.preamble) else { throw bad("domain", "no SIWE preamble") }
        var authority = first.dropLast(Self.preamble.count)
        if let colon = authority.firstIndex(of: ":"), authority[colon...].hasPrefix("://") {
            let s = authority[..<colon]
            guard Self.isScheme(s) else {
                i -= 1
                throw bad("scheme", "not an RFC 3986 scheme")
            }
            scheme = String(s)
            authority = authority[colon...].dropFirst(3)
        } else {
            scheme = nil
        }
        guard Self.isAuthority(authority) else { i -= 1; throw bad("domain", "not an RFC 3986 authority") }
        domain = String(authority)
        guard let addressLine = next() else { throw bad("address", "missing") }
        do { address = try EthereumAddress(String(addressLine), field: "address") } catch { throw error }
        guard address.checksummed == addressLine else {
            i -= 1
            throw bad("address", "the address is not EIP-55 checksummed")
        }
        guard next() == "" else { i -= 1; throw bad("statement", "a blank line follows the address") }
        if i < lines.count, !lines[i].text.hasPrefix("URI: ") {
            let s = lines[i].text
            guard !s.isEmpty else { throw bad("statement", "an empty statement line") }
            statement = String(s)
            i += 1
            guard next() == "" else { i -= 1; throw bad("statement", "a blank line follows the statement") }
        } else {
            statement = nil
        }
        guard let uri = try field("URI"), Self.isURI(uri) else { i -= 1; throw bad("URI", "not an RFC 3986 URI") }
        self.uri = uri
        guard let version = try field("Version"), version == "1" else { i -= 1; throw bad("Version", "must be 1") }
        self.version = version
        guard let chain = try field("Chain ID"), chain.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
            chain.first != "0" || chain == "0", let chainId = UInt64(chain)
        else { i -= 1; throw bad("Chain ID", "a decimal integer") }
        self.chainId = chainId
        guard let nonce = try field("Nonce"), nonce.utf8.count >= 8,
            nonce.utf8.allSatisfy({ ($0 >= 0x30 && $0 <= 0x39) || ($0 | 0x20 >= 0x61 && $0 | 0x20 <= 0x7a) })
        else { i -= 1; throw bad("Nonce", "at least 8 ASCII letters and digits") }
        self.nonce = nonce
        guard let issued = try field("Issued At"), Self.isRFC3339(issued) else {
            i -= 1; throw bad("Issued At", "RFC 3339")
        }
        issuedAt = issued
        if let e = try field("Expiration Time", optional: true) {
            guard Self.isRFC3339(e) else { i -= 1; throw bad("Expiration Time", "RFC 3339") }
            expirationTime = e
        } else {
            expirationTime = nil
        }
        if let n = try field("Not Before", optional: true) {
            guard Self.isRFC3339(n) else { i -= 1; throw bad("Not Before", "RFC 3339") }
            notBefore = n
        } else {
            notBefore = nil
        }
        if let r = try field("Request ID", optional: true) {
            guard !r.contains(where: { $0 == " " || $0 == "\r" }) else { i -= 1; throw bad("Request ID", "pchar only") }
            requestId = r
        } else {
            requestId = nil
        }
        var resources: [String] = []
        if i < lines.count, lines[i].text == "Resources:" {
            i += 1
            while i < lines.count, lines[i].text.hasPrefix("- ") {
                let r = String(lines[i].text.dropFirst(2))
                guard Self.isURI(r) else { throw bad("Resources", "not an RFC 3986 URI") }
                resources.append(r)
                i += 1
            }
        }
        self.resources = resources
        guard i == lines.count else { throw bad("message", "unexpected text after the fields") }
    }

    static func isScheme(_ s: Substring) -> Bool {
        guard let f = s.utf8.first, (f | 0x20) >= 0x61 && (f | 0x20) <= 0x7a else { return false }
        return s.utf8.allSatisfy {
            ($0 | 0x20 >= 0x61 && $0 | 0x20 <= 0x7a) || ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2b || $0 == 0x2d
                || $0 == 0x2e
        }
    }

    /// host[:port] with optional userinfo: printable ASCII without space, `/`, `?`, `#`.
    static func isAuthority(_ s: Substring) -> Bool {
        !s.isEmpty && s.utf8.allSatisfy { $0 > 0x20 && $0 < 0x7f && $0 != 0x2f && $0 != 0x3f && $0 != 0x23 }
    }

    /// scheme ":" then printable ASCII without spaces (a syntax check, not a full RFC 3986 parser).
    static func isURI(_ s: String) -> Bool {
        guard let colon = s.firstIndex(of: ":"), isScheme(s[..<colon]) else { return false }
        return s.utf8.allSatisfy { $0 > 0x20 && $0 < 0x7f }
    }

    /// RFC 3339 date-time: YYYY-MM-DDTHH:MM:SS[.frac](Z|±HH:MM), `T` and `Z` in either case.
    static func isRFC3339(_ s: String) -> Bool {
        let u = Array(s.utf8)
        func digits(_ r: Range<Int>) -> Int? {
            guard r.upperBound <= u.count, u[r].allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
            return u[r].reduce(0) { $0 * 10 + Int($1 - 0x30) }
        }
        guard u.count >= 20, let _ = digits(0..<4), u[4] == 0x2d, let mo = digits(5..<7), u[7] == 0x2d,
            let d = digits(8..<10), u[10] | 0x20 == 0x74, let h = digits(11..<13), u[13] == 0x3a,
            let mi = digits(14..<16), u[16] == 0x3a, let se = digits(17..<19),
            (1...12).contains(mo), (1...31).contains(d), h <= 23, mi <= 59, se <= 60
        else { return false }
        var k = 19
        if u[k] == 0x2e {
            k += 1
            let start = k
            while k < u.count, u[k] >= 0x30, u[k] <= 0x39 { k += 1 }
            guard k > start else { return false }
        }
        guard k < u.count else { return false }
        if u[k] | 0x20 == 0x7a { return k + 1 == u.count }
        guard u[k] == 0x2b || u[k] == 0x2d, k + 6 == u.count, let oh = digits((k + 1)..<(k + 3)), u[k + 3] == 0x3a,
            let om = digits((k + 4)..<(k + 6))
        else { return false }
        return oh <= 23 && om <= 59
    }
}
