import Keystore
import StateStore

/// Connected sites kept in the keystore's SQLite state (`state.sqlite`), so `sigil origins` and a
/// later `sigil serve` see them: each change is one `StateStore` transaction with its own revision.
/// Account keys (`0x…` public keys) are stored in the `site_account.address` column. Every call goes
/// through the store's async access (GRDB's, for SQLite), never blocking a Swift concurrency thread.
package struct StateStoreAuthorizations: AuthorizationPersistence {
    let store: any StateStore

    /// Uses `store` (shared with other processes on the same file).
    package init(store: any StateStore) { self.store = store }

    package func changes(after revision: Int64) async throws -> AuthorizationChanges {
        let stored = try await store.siteChanges(after: revision)
        return AuthorizationChanges(
            changes: stored.changes.map {
                AuthorizationChange(source: $0.origin, site: $0.site.map(Self.site), revision: $0.revision)
            },
            revision: stored.revision)
    }

    package func grant(_ site: AuthorizedSite) async throws -> AuthorizationChange {
        Self.change(try await store.authorize(origin: site.source, name: site.appName, accounts: site.accounts))
    }

    package func setAccounts(_ source: String, accounts: [String]) async throws -> AuthorizationChange? {
        try await store.updateAccounts(origin: source, accounts: accounts).map(Self.change)
    }

    package func revoke(_ source: String) async throws -> AuthorizationChange? {
        try await store.revoke(origin: source).map { AuthorizationChange(source: source, site: nil, revision: $0) }
    }

    static func site(_ stored: ConnectedSite) -> AuthorizedSite {
        AuthorizedSite(source: stored.origin, appName: stored.name, accounts: stored.accounts)
    }

    static func change(_ stored: ConnectedSite) -> AuthorizationChange {
        AuthorizationChange(source: stored.origin, site: site(stored), revision: stored.revision)
    }
}
