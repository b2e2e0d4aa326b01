import Dispatch
import Journal
import Keystore
import Synchronization

/// Appends journal entries with group commit: callers suspend until their entry is durable, and
/// everything that arrived while one transaction was syncing goes into the next one. One sync of
/// SQLite's WAL then covers many concurrent signatures, so the journal costs little throughput
/// while no entry is acknowledged before it is on disk (docs/journal.md §7).
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
///
/// Durability follows the store's (``SQLiteStateStore/Durability``): with `.commit` an entry is on
/// disk when `append` returns; with `.periodic` it has reached the operating system (a crash of the
/// process loses nothing), and the writer syncs the WAL at most ``periodicSync`` after a commit — at
/// once after a commit when the last sync is older than that, else on a timer for the last commits
/// before the writer goes idle.
package final class JournalWriter: Sendable {
    /// The store written to.
    package let store: SQLiteStateStore
    /// Most entries in one transaction.
    package static let maxBatch = 512
    /// Longest wait for promised entries before a commit (the default of `init`'s `gatherWindow`).
    package static let gatherWindow = DispatchTimeInterval.milliseconds(4)
    private let window: DispatchTimeInterval
    /// The longest an entry stays unsynced with a `.periodic` store (the default of `init`'s `syncEvery`).
    package static let periodicSync = DispatchTimeInterval.milliseconds(100)
    /// nil: every commit is synced by SQLite (`.commit`).
    private let syncEvery: DispatchTimeInterval?

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
        /// Periodic syncs (touched on `queue` only): commits not yet synced, when the last sync
        /// was, whether a timer is set, and how many syncs ran (for tests).
        var unsynced = false
        var lastSync = DispatchTime.now()
        var syncScheduled = false
        var syncs = 0

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
    /// - Parameter syncEvery: the longest an entry stays unsynced when the store's durability is `.periodic`.
    package init(
        store: SQLiteStateStore, gatherWindow: DispatchTimeInterval = JournalWriter.gatherWindow,
        syncEvery: DispatchTimeInterval = JournalWriter.periodicSync
    ) {
        self.store = store
        window = gatherWindow
        self.syncEvery = store.durability == .periodic ? syncEvery : nil
    }

    /// How many periodic syncs of the WAL have run.
    package var periodicSyncs: Int { state.withLock { $0.syncs } }

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
                committed()
            } catch {
                for continuation in continuations { continuation.resume(throwing: error) }
            }
        }
    }

    // MARK: Periodic syncs (on `queue`)

    /// After a commit to a `.periodic` store: syncs now when the last sync is older than `syncEvery`
    /// (a writer under steady load never leaves its drain, so a timer alone would never run), else
    /// makes sure a timer syncs it by then.
    private func committed() {
        guard let syncEvery else { return }
        enum Next { case syncNow, timerSet, setTimer(DispatchTime) }
        let next = state.withLock { state -> Next in
            state.unsynced = true
            let due = state.lastSync + syncEvery
            if due <= DispatchTime.now() { return .syncNow }
            if state.syncScheduled { return .timerSet }
            state.syncScheduled = true
            return .setTimer(due)
        }
        switch next {
        case .syncNow: syncIfNeeded()
        case .timerSet: break
        case .setTimer(let due): queue.asyncAfter(deadline: due) { self.syncIfNeeded(fromTimer: true) }
        }
    }

    private func syncIfNeeded(fromTimer: Bool = false) {
        let needed = state.withLock { state -> Bool in
            if fromTimer { state.syncScheduled = false }
            return state.unsynced
        }
        guard needed else { return }
        do {
            try store.syncToDisk()
            state.withLock { state in
                state.unsynced = false
                state.lastSync = DispatchTime.now()
                state.syncs += 1
            }
        } catch {
            // Kept unsynced: the next commit, or this retry, tries again.
            let retry = state.withLock { state -> Bool in
                guard !state.syncScheduled else { return false }
                state.syncScheduled = true
                return true
            }
            if retry, let syncEvery {
                queue.asyncAfter(deadline: .now() + syncEvery) { self.syncIfNeeded(fromTimer: true) }
            }
        }
    }
}
