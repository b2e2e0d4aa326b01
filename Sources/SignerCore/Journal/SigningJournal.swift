import Keystore

/// Where the gateway records every request that reached a person or an automatic rule
/// (docs/journal.md). ``StateStoreJournal`` is the implementation over the keystore's state database.
///
/// Contract: `append` returns only once the entry is durable; a caller that delivers a signature
/// calls it first and withholds the signature when it throws.
package protocol SigningJournal: Sendable {
    /// Bytes of shown text kept per entry (label and value text; the digest covers everything).
    var shownLimit: Int { get }
    /// Appends one entry; returns it once committed.
    /// - Throws: when it could not be stored (nothing was).
    @discardableResult
    func append(_ content: JournalEntry.Content) async throws -> JournalEntry
    /// Entries matching `filter`, newest first.
    func entries(matching filter: JournalFilter, limit: Int) async throws -> [JournalEntry]
    /// The latest verification, if one ran.
    func lastVerification() async -> JournalVerification?
    /// Verifies the whole journal now (chain, checkpoints, mirror, key file).
    func verify() async throws -> JournalVerification
}
