import Foundation

/// Who stands behind a site, for fairness budgets: one party can open many origins cheaply (ports of
/// one host, subdomains of one domain), so budgets also count per owner. The owner of
/// `scheme://host[:port]` is the host without its port, reduced to its last two labels for names
/// (`a.b.evil.example` → `evil.example`; a public-suffix list would be finer, two labels is the
/// conservative approximation: it can only group more, never let one party count as several) and
/// the whole address for IP literals; a source without `://` (a token client) is its own owner.
/// Untrusted input: never traps.
package enum SiteOwner {
    package static func key(of source: String) -> String {
        var rest = Substring(source)
        // Token clients (`client:NAME`, named by the person at start) are each their own owner.
        guard let scheme = rest.range(of: "://") else { return source }
        rest = rest[scheme.upperBound...]
        if let slash = rest.firstIndex(of: "/") { rest = rest[..<slash] }
        let host: Substring
        if rest.hasPrefix("[") {
            // IPv6 literal: everything up to the closing bracket.
            host = rest.firstIndex(of: "]").map { rest[...$0] } ?? rest
            return String(host).lowercased()
        } else if let colon = rest.lastIndex(of: ":") {
            host = rest[..<colon]
        } else {
            host = rest
        }
        let labels = host.lowercased().split(separator: ".", omittingEmptySubsequences: false)
        if labels.count == 4, labels.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isNumber) }) {
            return labels.joined(separator: ".")  // IPv4
        }
        return labels.suffix(2).joined(separator: ".")
    }
}
