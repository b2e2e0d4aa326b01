import Dispatch
import Foundation
import Journal
import SigilTesting
import Testing

@testable import StateStore

/// The two durability levels (docs/journal.md §7, "What each guarantee needs"): `.commit` syncs
/// every commit through SQLite (FULL); `.periodic` commits to the OS (NORMAL) and the journal's
/// writer syncs the WAL itself, within its interval. What a SIGKILL leaves is checked for both
/// by scripts/test.d/23-journal-crash.sh.
@Suite struct JournalDurabilityTests {
    /// Waits (yielding, bounded by a minute of wall time as a hang guard) until `condition` holds.
    static func eventually(_ condition: () throws -> Bool) async rethrows -> Bool {
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: .seconds(60))
        while clock.now < deadline {
            if try condition() { return true }
            await Task.yield()
        }
        return try condition()
    }

    static func store(_ durability: SQLiteStateStore.Durability, in dir: TemporaryDirectory) throws -> SQLiteStateStore
    {
        try FileManager.default.createDirectory(atPath: dir.path, withIntermediateDirectories: true)
        return try SQLiteStateStore(path: dir.path + "/state.sqlite", durability: durability)
    }

    @Test(arguments: [(SQLiteStateStore.Durability.commit, 2), (.periodic, 1)])
    func theWriterConnectionRunsTheLevelOfItsDurability(_ durability: SQLiteStateStore.Durability, level: Int)
        throws
    {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let store = try Self.store(durability, in: dir)
        #expect(try store.writerSynchronous() == level)
        #expect(try store.pragmas().journalMode == "wal")
    }

    /// The last commit before the writer goes idle is synced by the timer; a `.commit` store's
    /// writer never syncs on its own (SQLite synced each commit).
    @Test(.timeLimit(.minutes(5)), arguments: SQLiteStateStore.Durability.allCases)
    func anIdleWritersLastCommitIsSynced(_ durability: SQLiteStateStore.Durability) async throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let store = try Self.store(durability, in: dir)
        let writer = JournalWriter(store: store, syncEvery: .milliseconds(20))
        let first = try await writer.append(JournalTests.content(1))
        #expect(first.seq == 1)
        switch durability {
        case .commit:
            #expect(writer.periodicSyncs == 0)
        case .periodic:
            #expect(await Self.eventually { writer.periodicSyncs == 1 })
        }
        #expect(try store.verifyJournal().isValid)
    }

    /// Under steady load a writer syncs at most once per interval, not once per commit: with an
    /// interval of an hour, only the first commit after start (the last sync is "now" at start,
    /// so even that one waits) — none of 200 sequential commits is synced by itself.
    @Test(.timeLimit(.minutes(5))) func steadyCommitsAreSyncedOncePerIntervalNotEach() async throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let store = try Self.store(.periodic, in: dir)
        let writer = JournalWriter(store: store, syncEvery: .seconds(3600))
        for i in 0..<200 { _ = try await writer.append(JournalTests.content(i)) }
        #expect(writer.periodicSyncs == 0)
        #expect(try store.journalCount() == 200)
        // An explicit sync works on the live WAL (and is nothing for a store in memory).
        try store.syncToDisk()
        try SQLiteStateStore.inMemory().syncToDisk()
    }
}
