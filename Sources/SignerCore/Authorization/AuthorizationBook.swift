import Primitives
/// Which sources are connected and which accounts each may use: a pure value, persisted by the
/// caller (the keystore's state store) after every change.
///
/// Site identity is the browser's `Origin` (scheme, host, port: `http://x` and `https://x` are
/// different sites, polkadot-js/extension PR #1555), never anything the page sends in a message.
package struct AuthorizationBook: Sendable, Equatable {
    private var sites: [String: AuthorizedSite] = [:]

    /// Creates a book from stored records (later records win on duplicate sources).
    package init(_ records: [AuthorizedSite] = []) {
        for record in records { sites[record.source] = record }
    }

    /// Every connected source, sorted by source for stable listings.
    package var all: [AuthorizedSite] { sites.values.sorted { $0.source < $1.source } }

    /// The record of a source, if it is connected.
    package func site(_ source: String) -> AuthorizedSite? { sites[source] }

    /// The accounts a source may use.
    /// - Throws: `SignerError.notEnabled` if the source is not connected.
    package func accounts(for source: String) throws -> [String] {
        guard let site = sites[source] else { throw SignerError(.notEnabled, "source not enabled") }
        return site.accounts
    }

    /// Whether `accountKey` is one the source may use.
    package func allows(_ source: String, accountKey: String) -> Bool {
        sites[source]?.accounts.contains(accountKey) ?? false
    }

    /// Connects a source, or replaces its account list.
    package mutating func grant(_ site: AuthorizedSite) { sites[site.source] = site }

    /// Disconnects a source. - Returns: whether it was connected.
    @discardableResult
    package mutating func revoke(_ source: String) -> Bool { sites.removeValue(forKey: source) != nil }

    /// Removes an account from every source (the account was deleted). - Returns: the sources changed.
    package mutating func forget(accountKey: String) -> [String] {
        var changed: [String] = []
        for (source, var site) in sites where site.accounts.contains(accountKey) {
            site.accounts.removeAll { $0 == accountKey }
            sites[source] = site
            changed.append(source)
        }
        return changed.sorted()
    }
}
