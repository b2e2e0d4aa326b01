/// Where connected sites are kept between runs (the keystore's state store: `StateStoreAuthorizations`).
/// The gateway holds the sites in memory (an ``AuthorizationBook``) and writes each change here.
///
/// Every change is one operation of its own (one transaction in the store), never a rewrite of
/// everything, and comes back with the store's revision for it: revisions increase in commit order
/// across processes, so the gateway applies a change to memory only when it is newer than what it
/// knows of that source (``AuthorizationChange``). Errors are thrown, never swallowed.
package protocol AuthorizationPersistence: Sendable {
    /// The latest change of every source changed after `revision` (0: every source ever stored), and
    /// the store's revision, read together (`sigil origins revoke` by another process shows up here).
    func changes(after revision: Int64) async throws -> AuthorizationChanges
    /// Connects a source, or replaces its record (name and account list).
    /// - Returns: the record as stored, with its revision.
    func grant(_ site: AuthorizedSite) async throws -> AuthorizationChange
    /// Replaces the account list of a connected source; never connects one.
    /// - Returns: the record as stored, or nil (nothing changed) when the source is not connected.
    func setAccounts(_ source: String, accounts: [String]) async throws -> AuthorizationChange?
    /// Disconnects a source. - Returns: the revocation, or nil (nothing changed) when it was not connected.
    func revoke(_ source: String) async throws -> AuthorizationChange?
}

extension AuthorizationPersistence {
    /// Everything stored (connected sources and revocations) and the store's revision.
    package func load() async throws -> AuthorizationChanges { try await changes(after: 0) }
}

/// The state of one source as of a store revision: connected as `site`, or revoked (`site` nil).
package struct AuthorizationChange: Sendable, Equatable {
    /// The source (site origin or `client:NAME`).
    package var source: String
    /// The record, or nil when this change revoked the source.
    package var site: AuthorizedSite?
    /// The store's revision of the change.
    package var revision: Int64

    /// Creates a value.
    package init(source: String, site: AuthorizedSite?, revision: Int64) {
        self.source = source
        self.site = site
        self.revision = revision
    }
}

/// Changes after a revision, oldest first, and the store's revision when they were read.
package struct AuthorizationChanges: Sendable, Equatable {
    /// One entry per source changed.
    package var changes: [AuthorizationChange]
    /// Every change up to this revision is in `changes` or was already known to the reader.
    package var revision: Int64

    /// Creates a value.
    package init(changes: [AuthorizationChange], revision: Int64) {
        self.changes = changes
        self.revision = revision
    }

    /// The connected sources.
    package var sites: [AuthorizedSite] { changes.compactMap(\.site) }
}

/// Authorizations kept in memory only (tests, embedding), with the store's semantics: one revision
/// counter, the latest change of every source kept (revocations included).
package actor InMemoryAuthorizations: AuthorizationPersistence {
    private var latest: [String: AuthorizationChange] = [:]
    private var revision: Int64 = 0

    /// Creates a store holding `sites` (revisions 1…n in the given order).
    package init(_ sites: [AuthorizedSite] = []) {
        for site in sites {
            revision += 1
            latest[site.source] = AuthorizationChange(source: site.source, site: site, revision: revision)
        }
    }

    package func changes(after revision: Int64) -> AuthorizationChanges {
        let newer = latest.values.filter { $0.revision > revision }.sorted { $0.revision < $1.revision }
        return AuthorizationChanges(changes: newer, revision: self.revision)
    }

    package func grant(_ site: AuthorizedSite) -> AuthorizationChange {
        var unique: [String] = []
        for key in site.accounts where !unique.contains(key) { unique.append(key) }
        var stored = site
        stored.accounts = unique
        return record(site.source, stored)
    }

    package func setAccounts(_ source: String, accounts: [String]) -> AuthorizationChange? {
        guard var site = latest[source]?.site else { return nil }
        site.accounts = []
        for key in accounts where !site.accounts.contains(key) { site.accounts.append(key) }
        return record(source, site)
    }

    package func revoke(_ source: String) -> AuthorizationChange? {
        guard latest[source]?.site != nil else { return nil }
        return record(source, nil)
    }

    private func record(_ source: String, _ site: AuthorizedSite?) -> AuthorizationChange {
        revision += 1
        let change = AuthorizationChange(source: source, site: site, revision: revision)
        latest[source] = change
        return change
    }
}
