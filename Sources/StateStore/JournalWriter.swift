import Dispatch
import Journal
import Keystore
import Synchronization

/// Appends journal entries with group commit: callers suspend until their entry is durable, and
/// everything that arrived while one transaction was syncing goes into the next one. One sync of
/// SQLite's WAL then covers many concurrent signatures, so the journal costs little throughput
/// while no entry is acknowledged before it is on disk (docs/journal.md §7).
///
/// Entries are written on one dispatch queue of their own (never a Swift concurrency thread, which
/// must not block on `fsync`), in arrival order; sequence numbers follow commit order.
package final class JournalWriter: Sendable {
    /// The store written to.
    package let store: SQLiteStateStore
    /// Most entries in one transaction.
    package static let maxBatch = 512

    private typealias Waiter = (
        content: JournalEntry.Content, continuation: CheckedContinuation<JournalEntry, any Error>
    )
    private struct State {
        var pending: [Waiter] = []
        var draining = false
    }
    private let state = Mutex(State())
    private let queue = DispatchQueue(label: "sigil.journal.writer")

    package init(store: SQLiteStateStore) { self.store = store }

    /// Appends one entry and returns once it is committed.
    /// - Throws: the store's `KeystoreError` (`.database`) when the transaction failed; the entry is not stored.
    package func append(_ content: JournalEntry.Content) async throws -> JournalEntry {
        try await withCheckedThrowingContinuation { continuation in
            let start = state.withLock { state -> Bool in
                state.pending.append((content, continuation))
                guard !state.draining else { return false }
                state.draining = true
                return true
            }
            if start { queue.async { self.drain() } }
        }
    }

    private func drain() {
        while true {
            let batch = state.withLock { state -> [Waiter] in
                let batch = Array(state.pending.prefix(Self.maxBatch))
                state.pending.removeFirst(batch.count)
                if batch.isEmpty { state.draining = false }
                return batch
            }
            guard !batch.isEmpty else { return }
            do {
                let entries = try store.appendJournal(batch.map(\.content))
                for (waiter, entry) in zip(batch, entries) { waiter.continuation.resume(returning: entry) }
            } catch {
                for waiter in batch { waiter.continuation.resume(throwing: error) }
            }
        }
    }
}
