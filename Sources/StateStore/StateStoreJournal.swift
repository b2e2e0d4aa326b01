import Dispatch
import Journal
import Keystore
import Logging
import Primitives
import Synchronization

/// The signing journal in the keystore's state database: appends through ``JournalWriter`` (group
/// commit), checkpoints signed with the journal key (stored, and appended to the mirror when one
/// is configured), verification on demand with its last result kept for the approval page.
///
/// Blocking work (checkpoint, verification, reads) runs on a dispatch queue, never on a Swift
/// concurrency thread.
package final class StateStoreJournal: SigningJournal {
    package let store: SQLiteStateStore
    package let shownLimit: Int
    private let writer: JournalWriter
    private let key: JournalKey?
    private let mirror: JournalMirror?
    private let keyFilePath: String?
    private let logger: Logger
    private struct Latest {
        var result: JournalVerification?
        var at: ContinuousClock.Instant?
        var duration: Duration = .zero
        var running = false
    }
    private let latest = Mutex(Latest())
    private let work = DispatchQueue(label: "sigil.journal.work", attributes: .concurrent)

    /// - Parameters:
    ///   - key: the checkpoint key, or nil (no checkpoints: no password was available to open it).
    ///   - mirror: where each checkpoint is also appended, or nil.
    ///   - keyFilePath: `journal-key.json`, whose public key verification compares, or nil.
    ///   - shownLimit: bytes of shown text kept per entry.
    package init(
        store: SQLiteStateStore, key: JournalKey?, mirror: JournalMirror?, keyFilePath: String?, shownLimit: Int,
        logger: Logger = Logger(label: "sigil.journal")
    ) {
        self.store = store
        self.key = key
        self.mirror = mirror
        self.keyFilePath = keyFilePath
        self.shownLimit = shownLimit
        self.logger = logger
        writer = JournalWriter(store: store)
    }

    /// Whether checkpoints can be signed.
    package var hasKey: Bool { key != nil }

    private func offload<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            work.async { continuation.resume(with: Result { try body() }) }
        }
    }

    @discardableResult
    package func append(_ content: JournalEntry.Content) async throws -> JournalEntry {
        try await writer.append(content)
    }

    package func expectAppend() -> JournalExpectation? { writer.expectAppend() }

    @discardableResult
    package func append(_ content: JournalEntry.Content, fulfilling expectation: JournalExpectation?) async throws
        -> JournalEntry
    {
        try await writer.append(content, fulfilling: expectation)
    }

    package func entries(matching filter: JournalFilter, limit: Int) async throws -> [JournalEntry] {
        let store = store
        return try await offload { try store.journalEntries(matching: filter, limit: limit) }
    }

    /// Introduces the key in the journal when the journal has no key yet (first use, or a journal
    /// that began before any password was available). A journal whose key differs is left alone:
    /// verification reports it.
    /// - Returns: the key entry appended, if any.
    package func introduceKey() async throws -> JournalEntry? {
        guard let key else { return nil }
        let store = store
        let existing = try await offload { try store.journalKey() }
        if let existing {
            if existing != key.publicKey {
                logger.error(
                    "the journal key file does not hold the journal's key: verification will report it",
                    metadata: ["journal_key": "\(Hex.encode(existing))", "file_key": "\(Hex.encode(key.publicKey))"])
            }
            return nil
        }
        return try await append(JournalEntry.Content.keyIntroduction(key.publicKey))
    }

    /// Signs and stores a checkpoint of the current head (nothing when it is already checkpointed),
    /// then appends it to the mirror. A mirror failure is logged and thrown after the checkpoint is
    /// stored.
    @discardableResult
    package func checkpoint() async throws -> JournalCheckpoint? {
        guard let key else { return nil }
        let store = store
        let checkpoint = try await offload {
            let checkpoint = try store.checkpointJournal(key: key)
            // A mirror line must never be on disk before what it covers (a `.periodic` store has
            // not synced the last entries, nor the checkpoint itself, yet): after a power cut the
            // database would have lost a checkpoint the mirror keeps, and verification would
            // call that tampering.
            if checkpoint != nil { try store.syncToDisk() }
            return checkpoint
        }
        guard let checkpoint else { return nil }
        logger.info("journal checkpoint", metadata: ["number": "\(checkpoint.number)", "seq": "\(checkpoint.seq)"])
        if let mirror {
            do {
                try await offload { try mirror.append(checkpoint) }
            } catch {
                logger.error("journal mirror not written", metadata: ["path": "\(mirror.path)", "reason": "\(error)"])
                throw error
            }
        }
        return checkpoint
    }

    /// The latest verification, renewed when older than 20 times what it took (at least 2 s): a
    /// quick one (under 200 ms) is redone before answering, a long one in the background (the next
    /// call sees it), so a journal of a million entries is verified about every 80 s while the
    /// History view is open.
    package func lastVerification() async -> JournalVerification? {
        let (result, stale, quick) = latest.withLock { latest -> (JournalVerification?, Bool, Bool) in
            guard let at = latest.at, !latest.running else { return (latest.result, false, false) }
            let stale = ContinuousClock.now - at > max(.seconds(2), latest.duration * 20)
            if stale { latest.running = true }
            return (latest.result, stale, latest.duration < .milliseconds(200))
        }
        guard stale else { return result }
        if quick { return (try? await verify()) ?? result }
        Task { _ = try? await self.verify() }
        return result
    }

    package func verify() async throws -> JournalVerification {
        let started = ContinuousClock.now
        defer { latest.withLock { $0.running = false } }
        let store = store
        let mirror = mirror
        let keyFilePath = keyFilePath
        let result = try await offload {
            let external = try mirror.map { try JournalMirror.checkpoints(at: $0.path) } ?? []
            let fileKey = try keyFilePath.flatMap { try JournalKey.publicKey(inFileAt: $0) }
            return try store.verifyJournal(external: external, keyFileKey: fileKey)
        }
        var stamped = result
        stamped.checkedAt = store.now()
        let report = stamped
        latest.withLock { $0 = Latest(result: report, at: .now, duration: .now - started, running: false) }
        if let problem = report.firstProblem {
            logger.error("the journal does not verify", metadata: ["problem": "\(problem)"])
        }
        return report
    }
}
