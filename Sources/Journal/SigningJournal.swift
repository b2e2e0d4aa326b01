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
    /// Promises an entry (``JournalExpectation``); nil when the journal does not gather (no group commit).
    func expectAppend() -> JournalExpectation?
    /// `append`, keeping `expectation`'s promise.
    @discardableResult
    func append(_ content: JournalEntry.Content, fulfilling expectation: JournalExpectation?) async throws
        -> JournalEntry
    /// Entries matching `filter`, newest first.
    func entries(matching filter: JournalFilter, limit: Int) async throws -> [JournalEntry]
    /// The latest verification, if one ran.
    func lastVerification() async -> JournalVerification?
    /// Verifies the whole journal now (chain, checkpoints, mirror, key file).
    func verify() async throws -> JournalVerification
}

extension SigningJournal {
    /// A journal without group commit gathers nothing.
    package func expectAppend() -> JournalExpectation? { nil }

    /// A journal without group commit: `append`.
    @discardableResult
    package func append(_ content: JournalEntry.Content, fulfilling expectation: JournalExpectation?) async throws
        -> JournalEntry
    {
        _ = expectation?.fulfil()
        return try await append(content)
    }
}

/// Which entries `journalEntries` returns (all conditions must hold; nil matches anything).
package struct JournalFilter: Sendable, Equatable {
    /// Exact site origin.
    package var origin: String?
    /// Exact account address (as stored: SS58 with the generic prefix).
    package var account: String?
    /// Exact protocol (`polkadot`, `sigil`).
    package var protocolName: String?
    /// Exact decision (``JournalDecision`` raw value).
    package var decision: String?
    /// Appended at or after this time (ms since 1970).
    package var since: Int64?
    /// Appended before this time (ms since 1970).
    package var until: Int64?
    /// Only entries with a smaller sequence number (paging backwards).
    package var beforeSeq: UInt64?

    package init(
        origin: String? = nil, account: String? = nil, protocolName: String? = nil, decision: String? = nil,
        since: Int64? = nil, until: Int64? = nil, beforeSeq: UInt64? = nil
    ) {
        self.origin = origin
        self.account = account
        self.protocolName = protocolName
        self.decision = decision
        self.since = since
        self.until = until
        self.beforeSeq = beforeSeq
    }
}
