import Journal
import Keystore

/// Everything Sigil remembers besides the keys: connected sites and the accounts each may see,
/// chain metadata per genesis hash, and settings.
///
/// `SQLiteStateStore` is the implementation; the protocol lets another backend replace it. Every
/// operation is synchronous (the command line), those the server calls from async code also have
/// an `async` overload (below); each is safe to call from any thread, and atomic: it either fully happens or, if
/// it throws (or the process dies), leaves no trace. Nothing secret is ever stored here.
///
/// Site changes are numbered: each one (authorize, account list, revoke, forgotten account) takes
/// the next revision of the store, and the latest revision of every origin is kept, a revoked
/// origin's included. `siteChanges(after:)` lets a process that keeps sites in memory (the
/// server) apply exactly the changes others made since it last looked, never an older state.
package protocol StateStore: Sendable {
    /// Connects `origin` (or replaces its account list and name when already connected), at a new
    /// revision. `authorizedAt` is kept from the first authorization. Duplicate addresses are dropped.
    /// - Returns: the site as stored, with its revision.
    /// - Throws: `.invalidInput` for an empty or over-long origin or address, `.database`.
    @discardableResult
    func authorize(origin: String, name: String, accounts: [String]) throws(StateStoreError) -> ConnectedSite
    /// Replaces the account list of a connected `origin`, at a new revision; never connects one.
    /// - Returns: the site as stored, or nil (nothing changed) when `origin` is not connected.
    /// - Throws: `.invalidInput` for an over-long address, `.database`.
    func updateAccounts(origin: String, accounts: [String]) throws(StateStoreError) -> ConnectedSite?
    /// The connected site for `origin`, or nil.
    func connectedSite(origin: String) throws(StateStoreError) -> ConnectedSite?
    /// All connected sites, ordered by origin.
    func connectedSites() throws(StateStoreError) -> [ConnectedSite]
    /// Disconnects `origin`, at a new revision (kept as the origin's tombstone).
    /// - Returns: the revocation's revision, or nil (nothing changed) when it was not connected.
    @discardableResult
    func revoke(origin: String) throws(StateStoreError) -> Int64?
    /// Removes `address` from every site's account list (when an account is deleted); each site
    /// changed gets a new revision.
    func forgetAccount(address: String) throws(StateStoreError)
    /// The latest change of every origin changed after `revision` (0: every origin ever stored),
    /// oldest first, and the store's revision, read in one transaction.
    func siteChanges(after revision: Int64) throws(StateStoreError) -> SiteChanges

    /// Stores metadata for its genesis hash, replacing what was there.
    /// - Throws: `.invalidInput` for a malformed genesis hash, `.database`.
    func saveMetadata(_ metadata: ChainMetadata) throws(StateStoreError)
    /// The stored metadata for `genesisHash` (any case), or nil.
    func metadata(genesisHash: String) throws(StateStoreError) -> ChainMetadata?
    /// The `specVersion` of the metadata stored for `genesisHash` (any case), or nil; reads an
    /// index only, never the metadata blob (for a cache keyed by genesis hash and spec version).
    func metadataVersion(genesisHash: String) throws(StateStoreError) -> UInt32?
    /// The `specVersion` of every stored metadata, by normalized genesis hash (`0x` + 64 lowercase
    /// hex); reads the index only (``CachedStateStore`` keeps it in memory).
    func metadataVersions() throws(StateStoreError) -> [String: UInt32]
    /// All stored metadata, ordered by genesis hash.
    func allMetadata() throws(StateStoreError) -> [ChainMetadata]
    /// Deletes the metadata for `genesisHash`. Returns false when none was stored.
    @discardableResult
    func removeMetadata(genesisHash: String) throws(StateStoreError) -> Bool

    /// A setting's value, or nil.
    func setting(_ key: String) throws(StateStoreError) -> String?
    /// Sets (or with nil, deletes) a setting.
    func setSetting(_ key: String, to value: String?) throws(StateStoreError)
    /// Every setting.
    func allSettings() throws(StateStoreError) -> [String: String]

    // MARK: From async code
    //
    // The same operations for callers on Swift concurrency threads (the server), as GRDB names its
    // own: `try await store.revoke(origin:)` picks these. A transaction can wait for SQLite's lock
    // (another process writing) and for the disk; these never block a concurrency thread meanwhile
    // (`SQLiteStateStore` runs them through GRDB's async access, on its writer's or a reader's
    // dispatch queue). Same contracts and errors as the synchronous ones.

    @discardableResult
    func authorize(origin: String, name: String, accounts: [String]) async throws(StateStoreError) -> ConnectedSite
    func updateAccounts(origin: String, accounts: [String]) async throws(StateStoreError) -> ConnectedSite?
    @discardableResult
    func revoke(origin: String) async throws(StateStoreError) -> Int64?
    func siteChanges(after revision: Int64) async throws(StateStoreError) -> SiteChanges
    func saveMetadata(_ metadata: ChainMetadata) async throws(StateStoreError)
    func allMetadata() async throws(StateStoreError) -> [ChainMetadata]
    func metadataVersions() async throws(StateStoreError) -> [String: UInt32]
    func allSettings() async throws(StateStoreError) -> [String: String]
    /// Sets (a nil value deletes) every setting in `values`, in one transaction: all or none.
    func setSettings(_ values: [String: String?]) async throws(StateStoreError)
}

extension StateStore {
    /// Sets (or with nil, deletes) one setting, from async code.
    package func setSetting(_ key: String, to value: String?) async throws(StateStoreError) {
        try await setSettings([key: value])
    }
}
