import Journal
import Keystore
import Synchronization

/// A ``StateStore`` that answers the two reads of every signing request from memory: `setting(_:)`
/// (the metadata-hash switch, blind signing, ICRC scopes) and `metadataVersion(genesisHash:)` (the
/// decoded-metadata cache's key). Everything else goes to the store underneath.
///
/// Why: each of those reads took a reader connection, a read transaction and GRDB's schema check,
/// about a fifth of the server's CPU per signature (`scripts/bench-sign` with `BENCH_PERF`,
/// docs/journal.md §7), for values a person changes a few times a year.
///
/// Freshness (docs/architecture.md, "State"): a change through this store is seen at once (written
/// through once stored). A change by another process (`sigil metadata add-hash`, `sigil origins`) is
/// seen after the next ``refresh()``, which `sigil serve` calls every second with the authorizations'
/// reconcile: the same delay as a revocation from the command line. A refresh that raced a write
/// through this store is discarded (the next one is current), so a refresh never undoes a change.
package final class CachedStateStore: StateStore {
    /// The store underneath (every call that is not one of the two cached reads goes here).
    package let base: any StateStore

    private struct Snapshot {
        var settings: [String: String]
        /// Normalized genesis hash (`0x` + 64 lowercase hex) → spec version.
        var versions: [String: UInt32]
        /// Bumped by every write through this store (a refresh read before it is stale).
        var generation: UInt64 = 0
    }
    private let snapshot: Mutex<Snapshot>

    /// Loads the settings and metadata versions from `base`.
    /// - Throws: `base`'s `StateStoreError` when they cannot be read.
    package init(_ base: any StateStore) throws(StateStoreError) {
        self.base = base
        snapshot = Mutex(Snapshot(settings: try base.allSettings(), versions: try base.metadataVersions()))
    }

    /// Reads the settings and metadata versions again (changes other processes made).
    /// - Throws: `base`'s `StateStoreError`; memory keeps what it had then.
    package func refresh() throws(StateStoreError) {
        let generation = snapshot.withLock { $0.generation }
        let settings = try base.allSettings()
        let versions = try base.metadataVersions()
        snapshot.withLock { current in
            // A write through this store after the read began: what was read may predate it.
            guard current.generation == generation else { return }
            current.settings = settings
            current.versions = versions
        }
    }

    /// ``refresh()`` from async code (the server's ticker): the reads run through the store's async access.
    package func refresh() async throws(StateStoreError) {
        let generation = snapshot.withLock { $0.generation }
        let settings = try await base.allSettings()
        let versions = try await base.metadataVersions()
        snapshot.withLock { current in
            guard current.generation == generation else { return }
            current.settings = settings
            current.versions = versions
        }
    }

    private func wrote(_ change: (inout Snapshot) -> Void) {
        snapshot.withLock { current in
            change(&current)
            current.generation &+= 1
        }
    }

    // MARK: The cached reads

    package func setting(_ key: String) throws(StateStoreError) -> String? {
        snapshot.withLock { $0.settings[key] }
    }

    package func allSettings() throws(StateStoreError) -> [String: String] {
        snapshot.withLock { $0.settings }
    }

    package func metadataVersion(genesisHash: String) throws(StateStoreError) -> UInt32? {
        guard let key = try? GenesisHash.normalized(genesisHash) else { return nil }
        return snapshot.withLock { $0.versions[key] }
    }

    package func metadataVersions() throws(StateStoreError) -> [String: UInt32] {
        snapshot.withLock { $0.versions }
    }

    // MARK: Writes of cached values (stored first, then memory)

    package func setSetting(_ key: String, to value: String?) throws(StateStoreError) {
        try base.setSetting(key, to: value)
        wrote { $0.settings[key] = value }
    }

    package func setSettings(_ values: [String: String?]) async throws(StateStoreError) {
        try await base.setSettings(values)
        wrote { current in
            for (key, value) in values { current.settings[key] = value }
        }
    }

    package func saveMetadata(_ metadata: ChainMetadata) throws(StateStoreError) {
        try base.saveMetadata(metadata)
        savedMetadata(metadata)
    }

    package func saveMetadata(_ metadata: ChainMetadata) async throws(StateStoreError) {
        try await base.saveMetadata(metadata)
        savedMetadata(metadata)
    }

    private func savedMetadata(_ metadata: ChainMetadata) {
        let key = try? GenesisHash.normalized(metadata.genesisHash)
        wrote { current in
            if let key { current.versions[key] = metadata.specVersion }
        }
    }

    @discardableResult
    package func removeMetadata(genesisHash: String) throws(StateStoreError) -> Bool {
        let removed = try base.removeMetadata(genesisHash: genesisHash)
        let key = try? GenesisHash.normalized(genesisHash)
        wrote { current in
            if let key { current.versions[key] = nil }
        }
        return removed
    }

    // MARK: Everything else, unchanged

    @discardableResult
    package func authorize(origin: String, name: String, accounts: [String]) throws(StateStoreError) -> ConnectedSite {
        try base.authorize(origin: origin, name: name, accounts: accounts)
    }

    package func updateAccounts(origin: String, accounts: [String]) throws(StateStoreError) -> ConnectedSite? {
        try base.updateAccounts(origin: origin, accounts: accounts)
    }

    package func connectedSite(origin: String) throws(StateStoreError) -> ConnectedSite? {
        try base.connectedSite(origin: origin)
    }

    package func connectedSites() throws(StateStoreError) -> [ConnectedSite] { try base.connectedSites() }

    @discardableResult
    package func revoke(origin: String) throws(StateStoreError) -> Int64? { try base.revoke(origin: origin) }

    package func forgetAccount(address: String) throws(StateStoreError) { try base.forgetAccount(address: address) }

    package func siteChanges(after revision: Int64) throws(StateStoreError) -> SiteChanges {
        try base.siteChanges(after: revision)
    }

    package func metadata(genesisHash: String) throws(StateStoreError) -> ChainMetadata? {
        try base.metadata(genesisHash: genesisHash)
    }

    package func allMetadata() throws(StateStoreError) -> [ChainMetadata] { try base.allMetadata() }

    // MARK: From async code: the cached reads from memory, everything else through `base`'s async access

    package func allSettings() async throws(StateStoreError) -> [String: String] { snapshot.withLock { $0.settings } }

    package func metadataVersions() async throws(StateStoreError) -> [String: UInt32] {
        snapshot.withLock { $0.versions }
    }

    @discardableResult
    package func authorize(origin: String, name: String, accounts: [String]) async throws(StateStoreError)
        -> ConnectedSite
    {
        try await base.authorize(origin: origin, name: name, accounts: accounts)
    }

    package func updateAccounts(origin: String, accounts: [String]) async throws(StateStoreError) -> ConnectedSite? {
        try await base.updateAccounts(origin: origin, accounts: accounts)
    }

    @discardableResult
    package func revoke(origin: String) async throws(StateStoreError) -> Int64? {
        try await base.revoke(origin: origin)
    }

    package func siteChanges(after revision: Int64) async throws(StateStoreError) -> SiteChanges {
        try await base.siteChanges(after: revision)
    }

    package func allMetadata() async throws(StateStoreError) -> [ChainMetadata] { try await base.allMetadata() }
}
