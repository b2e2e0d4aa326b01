import Foundation
import Keystore
import Primitives
import SigilTesting
import Testing

@testable import StateStore

@Suite struct SQLiteStateStoreTests {
    static let genesis = "0x91b171bb158e2d3848fa23a9f1c25182fb8e20313b2c1eb49219da7a70ce90c3"

    final class FakeClock: @unchecked Sendable {
        private let lock = NSLock()
        private var value: Int64 = 1_000
        func now() -> Int64 { lock.withLock { value } }
        func advance() { lock.withLock { value += 1_000 } }
    }

    static let migrations = ["v1-initial", "v2-site-revisions", "v3-journal"]

    @Test func theMigrationsAreAppliedAndRecorded() throws {
        let store = try SQLiteStateStore.inMemory()
        #expect(try store.appliedMigrations() == Self.migrations)
        #expect(try store.integrityProblems().isEmpty)
    }

    @Test func authorizingConnectsAndReauthorizingReplacesAccountsButKeepsTheFirstTime() throws {
        let clock = FakeClock()
        let store = try SQLiteStateStore.inMemory(now: { clock.now() })
        let site = try store.authorize(origin: "https://app.example", name: "App", accounts: ["5A", "5B", "5A"])
        #expect(site.accounts == ["5A", "5B"])
        #expect(site.authorizedAt == 1_000)
        clock.advance()
        let again = try store.authorize(origin: "https://app.example", name: "App 2", accounts: ["5C", "5A"])
        #expect(again.accounts == ["5C", "5A"])
        #expect(again.name == "App 2")
        #expect(again.authorizedAt == 1_000)
        #expect(again.updatedAt == 2_000)
        #expect(try store.connectedSite(origin: "https://app.example") == again)
        #expect(try store.connectedSite(origin: "https://other.example") == nil)
    }

    @Test func revokingRemovesTheSiteAndItsAccountsThroughTheForeignKey() throws {
        let store = try SQLiteStateStore.inMemory()
        try store.authorize(origin: "https://b.example", name: "B", accounts: ["5A"])
        try store.authorize(origin: "https://a.example", name: "A", accounts: ["5A", "5B"])
        #expect(try store.connectedSites().map(\.origin) == ["https://a.example", "https://b.example"])
        #expect(try store.revoke(origin: "https://a.example") == 3)
        #expect(try store.revoke(origin: "https://a.example") == nil)
        #expect(try store.connectedSites().map(\.origin) == ["https://b.example"])
        #expect(try store.integrityProblems().isEmpty)
    }

    @Test func forgettingAnAccountRemovesItFromEverySite() throws {
        let store = try SQLiteStateStore.inMemory()
        try store.authorize(origin: "https://a.example", name: "A", accounts: ["5A", "5B"])
        try store.authorize(origin: "https://b.example", name: "B", accounts: ["5B"])
        try store.forgetAccount(address: "5B")
        #expect(try store.connectedSite(origin: "https://a.example")?.accounts == ["5A"])
        #expect(try store.connectedSite(origin: "https://b.example")?.accounts == [])
    }

    @Test(arguments: ["", String(repeating: "o", count: 2049)])
    func badOriginsAreRefused(_ origin: String) throws {
        let store = try SQLiteStateStore.inMemory()
        #expect(throws: StateStoreError(.invalidInput, "")) {
            try store.authorize(origin: origin, name: "x", accounts: [])
        }
        #expect(throws: StateStoreError(.invalidInput, "")) {
            try store.authorize(origin: "https://a.example", name: "x", accounts: [origin])
        }
    }

    @Test func metadataIsStoredPerGenesisHashAndReplaced() throws {
        let store = try SQLiteStateStore.inMemory()
        let blob = (0..<100_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        try store.saveMetadata(
            ChainMetadata(
                genesisHash: Self.genesis.uppercased().replacingOccurrences(of: "0X", with: "0x"),
                specVersion: 1_002_000,
                chain: "Polkadot", ss58Format: 0, tokenSymbol: "DOT", tokenDecimals: 10, metadata: blob,
                extraJSON: #"{"icon":"polkadot"}"#))
        let stored = try #require(try store.metadata(genesisHash: Self.genesis))
        #expect(stored.genesisHash == Self.genesis)
        #expect(stored.metadata == blob)
        #expect(stored.tokenDecimals == 10 && stored.tokenSymbol == "DOT" && stored.ss58Format == 0)
        #expect(stored.extraJSON == #"{"icon":"polkadot"}"#)
        try store.saveMetadata(
            ChainMetadata(genesisHash: Self.genesis, specVersion: 1_003_000, chain: "Polkadot", metadata: []))
        #expect(try store.allMetadata().map(\.specVersion) == [1_003_000])
        #expect(try store.metadata(genesisHash: "nonsense") == nil)
        #expect(try store.removeMetadata(genesisHash: Self.genesis))
        #expect(try store.allMetadata().isEmpty)
    }

    @Test(arguments: [
        "", "0x1234", "91b171bb158e2d3848fa23a9f1c25182fb8e20313b2c1eb49219da7a70ce90c3ab",
        "0x91b171bb158e2d3848fa23a9f1c25182fb8e20313b2c1eb49219da7a70ce90cz",
    ])
    func malformedGenesisHashesAreRefused(_ hash: String) throws {
        let store = try SQLiteStateStore.inMemory()
        #expect(throws: StateStoreError(.invalidInput, "")) {
            try store.saveMetadata(ChainMetadata(genesisHash: hash, specVersion: 1, chain: "x", metadata: []))
        }
    }

    @Test func settingsAreSetReadAndDeleted() throws {
        let store = try SQLiteStateStore.inMemory()
        try store.setSetting("theme", to: "dark")
        try store.setSetting("port", to: "9715")
        try store.setSetting("theme", to: "light")
        #expect(try store.setting("theme") == "light")
        #expect(try store.allSettings() == ["theme": "light", "port": "9715"])
        try store.setSetting("theme", to: nil)
        #expect(try store.setting("theme") == nil)
        #expect(throws: StateStoreError(.invalidInput, "")) { try store.setSetting("", to: "x") }
    }

    @Test func theDatabaseFileUsesWalForeignKeysAndOwnerOnlyPermissions() throws {
        let tmp = TemporaryDirectory()
        defer { tmp.remove() }
        let dir = try DataDirectory.open(tmp.path)
        let store = try SQLiteStateStore(path: dir.databasePath)
        try store.setSetting("k", to: "v")
        for suffix in ["", "-wal", "-shm", ".migration-lock"] {
            #expect(try DataDirectory.permissions(of: dir.databasePath + suffix) == 0o600, "state.sqlite\(suffix)")
        }
        let pragmas = try store.pragmas()
        #expect(pragmas.journalMode == "wal")
        #expect(pragmas.foreignKeys)
        #expect(pragmas.synchronous == 2)
    }

    /// The per-request reads (metadataVersion, setting) run one cached statement without an explicit
    /// transaction: a store that has read before still sees every later commit of another process
    /// (another store on the file), the in-memory store its own writes, each time.
    @Test func perRequestReadsSeeEveryLaterCommit() throws {
        let tmp = TemporaryDirectory()
        defer { tmp.remove() }
        let dir = try DataDirectory.open(tmp.path)
        let reader = try SQLiteStateStore(path: dir.databasePath)
        let writer = try SQLiteStateStore(path: dir.databasePath)
        let memory = try SQLiteStateStore.inMemory()
        for (read, write) in [(reader, writer), (memory, memory)] {
            #expect(try read.metadataVersion(genesisHash: Self.genesis) == nil)
            #expect(try read.setting("check") == nil)
            for spec: UInt32 in [7, 9, 8] {
                try write.saveMetadata(
                    ChainMetadata(genesisHash: Self.genesis, specVersion: spec, chain: "c", metadata: []))
                try write.setSetting("check", to: "v\(spec)")
                #expect(try read.metadataVersion(genesisHash: Self.genesis) == spec)
                #expect(try read.setting("check") == "v\(spec)")
            }
            #expect(try write.removeMetadata(genesisHash: Self.genesis))
            try write.setSetting("check", to: nil)
            #expect(try read.metadataVersion(genesisHash: Self.genesis) == nil)
            #expect(try read.setting("check") == nil)
        }
    }

    @Test func twoStoresOnOneFileSeeEachOthersCommits() throws {
        let tmp = TemporaryDirectory()
        defer { tmp.remove() }
        let dir = try DataDirectory.open(tmp.path)
        let a = try SQLiteStateStore(path: dir.databasePath)
        let b = try SQLiteStateStore(path: dir.databasePath)
        try a.authorize(origin: "https://a.example", name: "A", accounts: ["5A"])
        try b.setSetting("k", to: "v")
        #expect(try b.connectedSite(origin: "https://a.example")?.accounts == ["5A"])
        #expect(try a.setting("k") == "v")
        // Concurrent writers from several threads all land.
        DispatchQueue.concurrentPerform(iterations: 40) { i in
            let store = i % 2 == 0 ? a : b
            _ = try? store.authorize(origin: "https://s\(i).example", name: "S", accounts: ["5\(i)"])
        }
        #expect(try a.connectedSites().count == 41)
        #expect(try b.integrityProblems().isEmpty)
    }

    @Test func reopeningKeepsEverythingAndDoesNotReapplyMigrations() throws {
        let tmp = TemporaryDirectory()
        defer { tmp.remove() }
        let dir = try DataDirectory.open(tmp.path)
        do {
            let store = try SQLiteStateStore(path: dir.databasePath)
            try store.authorize(origin: "https://a.example", name: "A", accounts: ["5A"])
            try store.saveMetadata(
                ChainMetadata(genesisHash: Self.genesis, specVersion: 7, chain: "P", metadata: [1, 2, 3]))
            try store.setSetting("k", to: "v")
        }
        let again = try SQLiteStateStore(path: dir.databasePath)
        #expect(try again.appliedMigrations() == Self.migrations)
        #expect(try again.connectedSite(origin: "https://a.example")?.accounts == ["5A"])
        #expect(try again.metadata(genesisHash: Self.genesis)?.metadata == [1, 2, 3])
        #expect(try again.setting("k") == "v")
    }

    @Test func aFileThatIsNotADatabaseGivesADamagedDatabaseErrorNotACrash() throws {
        let tmp = TemporaryDirectory()
        defer { tmp.remove() }
        let dir = try DataDirectory.open(tmp.path)
        try Data(repeating: 0x41, count: 4096).write(to: URL(fileURLWithPath: dir.databasePath))
        #expect(throws: StateStoreError(.databaseDamaged, "")) { try SQLiteStateStore(path: dir.databasePath) }
    }

    @Test func manyOpenersOfANewDatabaseAtOnceAllSucceed() throws {
        for _ in 0..<25 {
            let tmp = TemporaryDirectory()
            defer { tmp.remove() }
            let dir = try DataDirectory.open(tmp.path)
            let failures = Failures()
            DispatchQueue.concurrentPerform(iterations: 6) { _ in
                do {
                    let store = try SQLiteStateStore(path: dir.databasePath)
                    try store.setSetting("k", to: "v")
                } catch {
                    failures.add("\(error)")
                }
            }
            #expect(failures.all.isEmpty)
            #expect(try SQLiteStateStore(path: dir.databasePath).appliedMigrations() == Self.migrations)
        }
    }

    final class Failures: @unchecked Sendable {
        private let lock = NSLock()
        private var items: [String] = []
        func add(_ s: String) { lock.withLock { items.append(s) } }
        var all: [String] { lock.withLock { items } }
    }
}
