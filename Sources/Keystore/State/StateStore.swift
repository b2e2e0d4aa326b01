/// Everything Sigil remembers besides the keys: connected sites and the accounts each may see,
/// chain metadata per genesis hash, and settings.
///
/// `SQLiteStateStore` is the implementation; the protocol lets another backend replace it. Every
/// method is synchronous, safe to call from any thread, and atomic: it either fully happens or, if
/// it throws (or the process dies), leaves no trace. Nothing secret is ever stored here.
public protocol StateStore: Sendable {
    /// Connects `origin` (or replaces its account list and name when already connected).
    /// `authorizedAt` is kept from the first authorization. Duplicate addresses are dropped.
    /// - Throws: `.invalidInput` for an empty or over-long origin or address, `.database`.
    @discardableResult
    func authorize(origin: String, name: String, accounts: [String]) throws(KeystoreError) -> ConnectedSite
    /// The connected site for `origin`, or nil.
    func connectedSite(origin: String) throws(KeystoreError) -> ConnectedSite?
    /// All connected sites, ordered by origin.
    func connectedSites() throws(KeystoreError) -> [ConnectedSite]
    /// Disconnects `origin`. Returns false when it was not connected.
    @discardableResult
    func revoke(origin: String) throws(KeystoreError) -> Bool
    /// Removes `address` from every site's account list (when an account is deleted).
    func forgetAccount(address: String) throws(KeystoreError)

    /// Stores metadata for its genesis hash, replacing what was there.
    /// - Throws: `.invalidInput` for a malformed genesis hash, `.database`.
    func saveMetadata(_ metadata: ChainMetadata) throws(KeystoreError)
    /// The stored metadata for `genesisHash` (any case), or nil.
    func metadata(genesisHash: String) throws(KeystoreError) -> ChainMetadata?
    /// All stored metadata, ordered by genesis hash.
    func allMetadata() throws(KeystoreError) -> [ChainMetadata]
    /// Deletes the metadata for `genesisHash`. Returns false when none was stored.
    @discardableResult
    func removeMetadata(genesisHash: String) throws(KeystoreError) -> Bool

    /// A setting's value, or nil.
    func setting(_ key: String) throws(KeystoreError) -> String?
    /// Sets (or with nil, deletes) a setting.
    func setSetting(_ key: String, to value: String?) throws(KeystoreError)
    /// Every setting.
    func allSettings() throws(KeystoreError) -> [String: String]
}
