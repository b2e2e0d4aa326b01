/// A dapp's self-declared name (`web3Enable('My Dapp')`), sanitized for display and flagged when it
/// looks like an attempt to impersonate a site.
///
/// Copied from polkadot-js/extension `packages/extension-ui/src/util/sanitizeOrigin.ts` (PR #1554):
/// markup stripped, whitespace collapsed, at most 50 characters; suspicious when it contained `<`
/// or `>`, is empty, reached 50 characters, carries a non-http(s) scheme, or is a raw IP address.
package struct AppName: Sendable, Equatable, Codable {
    /// The sanitized name (plain text, ≤ 50 characters, no control characters).
    package let text: String
    /// Whether the person should be warned about the name.
    package let isSuspicious: Bool

    /// The longest name kept.
    package static let maxLength = 50

    /// Sanitizes an untrusted declared name.
    package init(declared: String) {
        var suspicious = declared.contains("<") || declared.contains(">")
        var stripped = ""
        var inTag = false
        for ch in declared {
            if ch == "<" { inTag = true; continue }
            if ch == ">" { inTag = false; continue }
            if inTag { continue }
            if ch.isWhitespace
                || ch.unicodeScalars.contains(where: {
                    $0.properties.generalCategory == .control
                        || $0.properties.generalCategory == .format
                })
            {
                if !stripped.hasSuffix(" ") { stripped.append(" ") }
            } else {
                stripped.append(ch)
            }
        }
        var name = stripped.trimmingSpaces()
        if name.count >= Self.maxLength {
            suspicious = true
            name = String(name.prefix(Self.maxLength))
        }
        if name.isEmpty { suspicious = true }
        let lower = name.lowercased()
        if let colon = lower.firstIndex(of: ":"), lower[..<colon].allSatisfy({ $0.isLetter }),
            lower.contains("//"), !(lower.hasPrefix("http://") || lower.hasPrefix("https://"))
        {
            suspicious = true
        }
        if Self.looksLikeIPAddress(lower) { suspicious = true }
        text = name
        isSuspicious = suspicious
    }

    private static func looksLikeIPAddress(_ s: String) -> Bool {
        var host = Substring(s)
        for scheme in ["http://", "https://"] where host.hasPrefix(scheme) { host = host.dropFirst(scheme.count) }
        host = host.prefix { $0 != "/" && $0 != ":" }
        if host.hasPrefix("[") { return true }  // IPv6 literal
        let parts = host.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts.allSatisfy { !$0.isEmpty && $0.count <= 3 && $0.allSatisfy(\.isNumber) }
    }
}

extension String {
    fileprivate func trimmingSpaces() -> String {
        var s = Substring(self)
        while s.first == " " { s = s.dropFirst() }
        while s.last == " " { s = s.dropLast() }
        return String(s)
    }
}
