import Dispatch
import Journal
import Keystore
import Synchronization

/// Appends journal entries with group commit: callers suspend until their entry is committed, and
/// everything that arrived while one transaction was syncing goes into the next one. One sync of
/// SQLite's WAL then covers many concurrent signatures, so the journal costs little throughput
/// while no entry is acknowledged before it is committed: on disk with the store's
/// `Durability.commit`, in the OS's hands (and on disk at most 100 ms later) with `.periodic`
/// (docs/journal.md §7).
///
/// Gathering: a transaction's fixed cost (begin, the head's read, commit and its sync) is most of an
/// entry's. When entries are promised (``expectAppend()``: requests decided and being signed), the
/// writer waits for them — until none is outstanding, the batch is full, or the gathering window (4 ms) has
/// passed since the batch began — before committing. A lone client has no other promise
/// outstanding, so its entry is committed at once; under load the entries of concurrent signatures
/// share one commit (PostgreSQL's `commit_delay` with `commit_siblings`, bounded the same way).
///
/// Entries are written on one dispatch queue of their own (never a Swift concurrency thread, which
/// must not block on `fsync`), in arrival order; sequence numbers follow commit order.
package final class JournalWriter: Sendable {
    /// The store written to.
    package let store: SQLiteStateStore
    /// Most entries in one transaction.
    package static let maxBatch = 512
    /// Longest wait for promised entries before a commit (the default of `init`'s `gatherWindow`).
    package static let gatherWindow = DispatchTimeInterval.milliseconds(4)
    private let window: DispatchTimeInterval

    private typealias Continuation = CheckedContinuation<JournalEntry, any Error>
    private struct State {
        /// Entries waiting for a commit, in arrival order, and their callers (two arrays, so that a
        /// batch is taken by swapping them out, without copying an entry).
        var pending: [JournalEntry.Content] = []
        var waiting: [Continuation] = []
        var draining = false
        /// Promised entries not yet appended.
        var promised = 0
        /// The drain waits on `arrival` for a promised entry.
        var gathering = false

        /// The oldest `JournalWriter.maxBatch` pending entries (all of them, moved out, when they fit).
        mutating func takeBatch() -> ([JournalEntry.Content], [Continuation]) {
            guard pending.count > JournalWriter.maxBatch else {
                defer { pending = []; waiting = [] }
                return (pending, waiting)
            }
            let batch = (Array(pending.prefix(JournalWriter.maxBatch)), Array(waiting.prefix(JournalWriter.maxBatch)))
            pending.removeFirst(JournalWriter.maxBatch)
            waiting.removeFirst(JournalWriter.maxBatch)
            return batch
        }
    }
    private let state = Mutex(State())
    private let arrival = DispatchSemaphore(value: 0)
    private let queue = DispatchQueue(label: "sigil.journal.writer")

    /// - Parameter gatherWindow: the longest wait for promised entries (tests pass `.never` to show
    ///   that nothing but an arrival or a dropped promise ends the wait).
    package init(store: SQLiteStateStore, gatherWindow: DispatchTimeInterval = JournalWriter.gatherWindow) {
        self.store = store
        window = gatherWindow
    }

    /// Promises an entry: a commit starting before it arrives waits for it (at most the gathering window).
    package func expectAppend() -> JournalExpectation {
        state.withLock { $0.promised += 1 }
        return JournalExpectation { [weak self] in self?.ended(appending: nil, endsPromise: true) }
    }

    /// Appends one entry (keeping `expectation`'s promise) and returns once it is committed.
    /// - Throws: the store's `StateStoreError` (`.database`) when the transaction failed; the entry is not stored.
    package func append(_ content: JournalEntry.Content, fulfilling expectation: JournalExpectation? = nil)
        async throws -> JournalEntry
    {
        let kept = expectation?.fulfil() ?? false
        return try await withCheckedThrowingContinuation { continuation in
            ended(appending: (content, continuation), endsPromise: kept)
        }
    }

    /// An entry arrived (`entry`, for `continuation`) and/or a promise ended (kept by that entry, or dropped).
    private func ended(
        appending entry: (content: JournalEntry.Content, continuation: Continuation)?, endsPromise: Bool
    ) {
        let (start, wake) = state.withLock { state -> (Bool, Bool) in
            if let entry {
                state.pending.append(entry.content)
                state.waiting.append(entry.continuation)
            }
            if endsPromise { state.promised = max(0, state.promised - 1) }
            // A gathering drain is woken once there is nothing more to wait for (every promise
            // kept or dropped) or a batch is full, not at every arrival: each wake is a context
            // switch to the writer's thread, and the drain takes everything pending when it runs.
            let wake = state.gathering && (state.promised == 0 || state.pending.count >= Self.maxBatch)
            if wake { state.gathering = false }
            guard entry != nil, !state.draining else { return (false, wake) }
            state.draining = true
            return (true, wake)
        }
        if wake { arrival.signal() }
        if start { queue.async { self.drain() } }
    }

    private enum Gathered {
        /// Commit these.
        case batch([JournalEntry.Content], [Continuation])
        /// Wait for promised entries.
        case wait
        /// Nothing pending: the drain ends.
        case done
    }

    /// Commits batch after batch while entries are pending. A batch begins with the oldest pending
    /// entry; while entries are promised and the batch is not full, it waits for them — at most the
    /// window from the moment it began — and then takes everything pending at once.
    private func drain() {
        while true {
            var deadline: DispatchTime?
            var next = Gathered.wait
            while case .wait = next {
                next = state.withLock { state -> Gathered in
                    if state.pending.isEmpty {
                        state.draining = false
                        return .done
                    }
                    if state.promised > 0, state.pending.count < Self.maxBatch {
                        state.gathering = true
                        return .wait
                    }
                    let (contents, continuations) = state.takeBatch()
                    return .batch(contents, continuations)
                }
                guard case .wait = next else { break }
                let end =
                    deadline ?? (window == .never ? DispatchTime.distantFuture : DispatchTime.now() + window)
                deadline = end
                if arrival.wait(timeout: end) == .timedOut {
                    // The window has passed: everything that arrived meanwhile is this commit.
                    next = state.withLock { state -> Gathered in
                        state.gathering = false
                        let (contents, continuations) = state.takeBatch()
                        return .batch(contents, continuations)
                    }
                }
            }
            guard case .batch(let contents, let continuations) = next else { return }
            guard !contents.isEmpty else { continue }
            do {
                let entries = try store.appendJournal(contents)
                for (continuation, entry) in zip(continuations, entries) { continuation.resume(returning: entry) }
            } catch {
                for continuation in continuations { continuation.resume(throwing: error) }
            }
        }
    }
}
