import SignerCore

/// What the gateway's memory knows of the store's authorization revisions, so that a stored change
/// is applied only when it is newer than what memory holds for its source (last writer by revision
/// wins, in memory as in the store):
///
/// - `cursor`: every change up to it has been applied (the revision of the last change feed read);
/// - `applied`: revisions above the cursor already applied per source (the gateway's own writes,
///   or feed entries), kept until the cursor passes them.
///
/// A feed read before a change happened cannot undo it: its entries for that source are older.
struct AuthorizationRevisions: Sendable, Equatable {
    private(set) var cursor: Int64
    private(set) var applied: [String: Int64] = [:]

    init(cursor: Int64 = 0) { self.cursor = cursor }

    /// The newest revision memory holds for `source`.
    func known(_ source: String) -> Int64 { max(cursor, applied[source] ?? 0) }

    /// Records `change` as applied when it is newer than what memory holds for its source.
    /// - Returns: whether it is newer (and so must be applied to memory).
    mutating func accept(_ change: AuthorizationChange) -> Bool {
        guard change.revision > known(change.source) else { return false }
        applied[change.source] = change.revision
        return true
    }

    /// Everything up to `revision` has been applied (a whole feed was read at that revision).
    mutating func advance(to revision: Int64) {
        guard revision > cursor else { return }
        cursor = revision
        applied = applied.filter { $0.value > revision }
    }
}
