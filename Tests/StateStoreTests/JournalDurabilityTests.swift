import Dispatch
import Foundation
import Journal
import SigilTesting
import Testing

@testable import StateStore

/// The two durability levels (docs/journal.md §7, "What each guarantee needs"): `.commit` syncs
/// every commit through SQLite (FULL); `.periodic` commits to the OS (NORMAL) and the store's own
/// syncer syncs the WAL within its interval after every commit of any kind. What a SIGKILL leaves is checked for both
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

    static func store(
        _ durability: SQLiteStateStore.Durability, in dir: TemporaryDirectory,
        syncInterval: DispatchTimeInterval = SQLiteStateStore.periodicSyncInterval
    ) throws -> SQLiteStateStore {
        try FileManager.default.createDirectory(atPath: dir.path, withIntermediateDirectories: true)
        return try SQLiteStateStore(
            path: dir.path + "/state.sqlite", durability: durability, syncInterval: syncInterval)
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

    /// One commit of each kind the server makes.
    enum Commit: String, CaseIterable, CustomTestStringConvertible {
        case journalEntry, checkpoint, setting, grantFromAsyncCode, revocationFromAsyncCode
        var testDescription: String { rawValue }

        func run(_ store: SQLiteStateStore) async throws {
            switch self {
            case .journalEntry: _ = try await JournalWriter(store: store).append(JournalTests.content(1))
            case .checkpoint:
                try store.appendJournal([JournalTests.content(1)])
                _ = try store.checkpointJournal(key: try JournalTests.testKey(1))
            case .setting: try JournalDurabilityTests.sync { try store.setSetting("k", to: "v") }
            case .grantFromAsyncCode: try await store.authorize(origin: "https://a.example", name: "A", accounts: [])
            case .revocationFromAsyncCode:
                try JournalDurabilityTests.sync {
                    _ = try store.authorize(origin: "https://a.example", name: "A", accounts: [])
                }
                try await store.revoke(origin: "https://a.example")
            }
        }
    }

    /// Every commit of a `.periodic` store, not only the journal's, is synced by the store's own
    /// syncer (within its interval; the wait is bounded by a minute as a hang guard); a `.commit`
    /// store never runs one (SQLite synced each commit).
    @Test(.timeLimit(.minutes(5)), arguments: Commit.allCases)
    func everyKindOfCommitIsSynced(_ commit: Commit) async throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        try FileManager.default.createDirectory(atPath: dir.path, withIntermediateDirectories: true)
        let periodic = try SQLiteStateStore(
            path: dir.path + "/periodic.sqlite", durability: .periodic, syncInterval: .milliseconds(20))
        let before = periodic.periodicSyncCounts.syncs
        try await commit.run(periodic)
        #expect(await Self.eventually { periodic.periodicSyncCounts.syncs > before })
        #expect(periodic.periodicSyncCounts.failures == 0)

        let synced = try SQLiteStateStore(path: dir.path + "/commit.sqlite", durability: .commit)
        try await commit.run(synced)
        try synced.syncToDisk()
        #expect(synced.periodicSyncCounts == (0, 0))
    }

    /// A checkpoint is synced before the journal returns it (and so before its mirror line is
    /// written): with the timer an hour away, only the checkpoint's own sync can have run.
    @Test func aCheckpointIsOnDiskBeforeItsMirrorLine() async throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let store = try Self.store(.periodic, in: dir, syncInterval: .seconds(3600))
        let journal = StateStoreJournal(
            store: store, key: try JournalTests.testKey(1), mirror: nil, keyFilePath: nil, shownLimit: 4096)
        _ = try await journal.append(JournalTests.content(1))
        #expect(store.periodicSyncCounts.syncs == 0)
        #expect(try await journal.checkpoint() != nil)
        #expect(store.periodicSyncCounts.syncs == 1)
    }

    /// A write from async code runs to its end in a cancelled task: a grant a person approved is not
    /// dropped because the dapp's HTTP client went away meanwhile (GRDB's async access alone would
    /// interrupt it with `CancellationError`).
    @Test(.timeLimit(.minutes(5))) func aCancelledTasksWriteIsStoredAllTheSame() async throws {
        let store = try SQLiteStateStore.inMemory()
        let task = Task {
            while !Task.isCancelled { await Task.yield() }
            return try await store.authorize(origin: "https://a.example", name: "A", accounts: ["5A"])
        }
        task.cancel()
        let site = try await task.value
        #expect(site.accounts == ["5A"])
        #expect(try Self.sync { try store.connectedSite(origin: "https://a.example") } == site)
        let settings = Task {
            while !Task.isCancelled { await Task.yield() }
            try await store.setSettings(["k": "v"])
        }
        settings.cancel()
        try await settings.value
        #expect(try store.setting("k") == "v")
    }

    static func sync<T>(_ body: () throws -> T) rethrows -> T { try body() }
}
