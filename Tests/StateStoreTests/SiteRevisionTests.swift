import Foundation
import GRDB
import Keystore
import Primitives
import SigilTesting
import Testing

@testable import StateStore

/// Site revisions (migration `v2-site-revisions`): every site change takes the next revision in its
/// own transaction, revocations are kept as tombstones, and `siteChanges(after:)` reads what
/// changed after a revision, together with the store's revision.
@Suite struct SiteRevisionTests {
    let a = "https://a.example"
    let b = "https://b.example"

    @Test func everyChangeTakesTheNextRevisionAndRevocationsAreKept() throws {
        let store = try SQLiteStateStore.inMemory()
        #expect(try store.authorize(origin: a, name: "A", accounts: ["5A", "5B"]).revision == 1)
        #expect(try store.authorize(origin: b, name: "B", accounts: ["5B"]).revision == 2)
        #expect(try store.updateAccounts(origin: a, accounts: ["5B", "5A", "5B"])?.accounts == ["5B", "5A"])
        #expect(try store.revoke(origin: b) == 4)
        try store.forgetAccount(address: "5A")  // changes a only
        // Changing nothing takes no revision.
        #expect(try store.updateAccounts(origin: b, accounts: ["5A"]) == nil)
        #expect(try store.revoke(origin: b) == nil)
        try store.forgetAccount(address: "5Z")

        let all = try store.siteChanges(after: 0)
        #expect(all.revision == 5)
        #expect(all.changes.map(\.origin) == [b, a])
        #expect(all.changes.map(\.revision) == [4, 5])
        #expect(all.changes[0].site == nil)
        #expect(all.changes[1].site?.accounts == ["5B"] && all.changes[1].site?.revision == 5)
        #expect(try store.connectedSite(origin: a)?.revision == 5)
        #expect(try store.siteChanges(after: 4).changes.map(\.origin) == [a])
        #expect(try store.siteChanges(after: 5) == SiteChanges(changes: [], revision: 5))

        // Connecting a revoked origin again replaces its tombstone.
        #expect(try store.authorize(origin: b, name: "B", accounts: []).revision == 6)
        #expect(try store.siteChanges(after: 5).changes.map(\.site?.origin) == [b])
        #expect(try store.integrityProblems().isEmpty)
    }

    @Test func updatingAccountsNeverConnectsAndChecksAddresses() throws {
        let store = try SQLiteStateStore.inMemory()
        #expect(try store.updateAccounts(origin: a, accounts: ["5A"]) == nil)
        #expect(try store.connectedSites().isEmpty)
        try store.authorize(origin: a, name: "A", accounts: [])
        #expect(throws: StateStoreError(.invalidInput, "")) {
            try store.updateAccounts(origin: a, accounts: [String(repeating: "5", count: 129)])
        }
        #expect(try store.connectedSite(origin: a)?.accounts == [])
    }

    /// Two processes (two stores on one file) writing at once: every change has its own revision,
    /// in commit order, and a reader that follows the feed ends with exactly the database's sites.
    @Test func revisionsAreUniqueAcrossProcessesAndTheFeedReproducesTheDatabase() throws {
        let tmp = TemporaryDirectory()
        defer { tmp.remove() }
        let path = try DataDirectory.open(tmp.path).databasePath
        let stores = [try SQLiteStateStore(path: path), try SQLiteStateStore(path: path)]
        let taken = Taken()
        let reader = try SQLiteStateStore(path: path)
        var mirror: [String: ConnectedSite] = [:]
        var cursor: Int64 = 0
        func follow() throws {
            let feed = try reader.siteChanges(after: cursor)
            for change in feed.changes { mirror[change.origin] = change.site }
            cursor = feed.revision
        }
        DispatchQueue.concurrentPerform(iterations: 60) { i in
            let store = stores[i % 2]
            let origin = "https://s\(i % 7).example"
            do {
                switch i % 3 {
                case 0, 1: taken.add(try store.authorize(origin: origin, name: "S", accounts: ["5\(i)"]).revision)
                default: if let revision = try store.revoke(origin: origin) { taken.add(revision) }
                }
            } catch {
                taken.fail("\(error)")
            }
            if i % 10 == 0 { _ = try? reader.siteChanges(after: 0) }
        }
        try follow()
        #expect(taken.failures.isEmpty)
        #expect(taken.all.count == Set(taken.all).count)
        #expect(taken.all.max() == cursor)
        #expect(mirror.values.sorted { $0.origin < $1.origin } == (try reader.connectedSites()))
        #expect(try reader.integrityProblems().isEmpty)
    }

    @Test func migratingAVersion1DatabaseNumbersItsSitesInOriginOrder() throws {
        let tmp = TemporaryDirectory()
        defer { tmp.remove() }
        let path = try DataDirectory.open(tmp.path).databasePath
        do {
            let queue = try DatabaseQueue(path: path)
            try SQLiteStateStore.migrator.migrate(queue, upTo: "v1-initial")
            try queue.write { db in
                for origin in [b, a] {
                    try db.execute(
                        sql: "INSERT INTO site (origin, name, authorized_at, updated_at) VALUES (?, 'S', 1, 1)",
                        arguments: [origin])
                    try db.execute(
                        sql: "INSERT INTO site_account (origin, position, address) VALUES (?, 0, '5A')",
                        arguments: [origin])
                }
            }
        }
        let store = try SQLiteStateStore(path: path)
        #expect(try store.appliedMigrations() == ["v1-initial", "v2-site-revisions", "v3-journal"])
        let feed = try store.siteChanges(after: 0)
        #expect(feed.revision == 2)
        #expect(feed.changes.map(\.origin) == [a, b] && feed.changes.map(\.revision) == [1, 2])
        #expect(feed.changes.allSatisfy { $0.site?.accounts == ["5A"] })
        #expect(try store.revoke(origin: a) == 3)
        #expect(try store.integrityProblems().isEmpty)
    }

    final class Taken: @unchecked Sendable {
        private let lock = NSLock()
        private var revisions: [Int64] = []
        private var errors: [String] = []
        func add(_ revision: Int64) { lock.withLock { revisions.append(revision) } }
        func fail(_ error: String) { lock.withLock { errors.append(error) } }
        var all: [Int64] { lock.withLock { revisions } }
        var failures: [String] { lock.withLock { errors } }
    }
}

/// `metadataVersion(genesisHash:)`: the spec version without the metadata blob.
@Suite struct MetadataVersionTests {
    static let polkadot = "0x91b171bb158e2d3848fa23a9f1c25182fb8e20313b2c1eb49219da7a70ce90c3"
    static let kusama = "0xb0a8d493285c2df73290dfb7e61f870f17b41801197a149ca93654499ea3dafe"

    @Test func theVersionIsReadForAnyCaseAndFollowsReplacement() throws {
        let store = try SQLiteStateStore.inMemory()
        let blob = [UInt8](repeating: 0xA5, count: 2_000_000)
        try store.saveMetadata(
            ChainMetadata(genesisHash: Self.polkadot, specVersion: 1_002_000, chain: "Polkadot", metadata: blob))
        try store.saveMetadata(
            ChainMetadata(genesisHash: Self.kusama, specVersion: UInt32.max, chain: "Kusama", metadata: []))
        #expect(try store.metadataVersion(genesisHash: Self.polkadot) == 1_002_000)
        #expect(try store.metadataVersion(genesisHash: "0x" + Self.polkadot.dropFirst(2).uppercased()) == 1_002_000)
        #expect(try store.metadataVersion(genesisHash: Self.kusama) == UInt32.max)
        try store.saveMetadata(
            ChainMetadata(genesisHash: Self.polkadot, specVersion: 1_003_000, chain: "Polkadot", metadata: blob))
        #expect(try store.metadataVersion(genesisHash: Self.polkadot) == 1_003_000)
        try store.removeMetadata(genesisHash: Self.polkadot)
        #expect(try store.metadataVersion(genesisHash: Self.polkadot) == nil)
    }

    @Test(arguments: ["", "0x1234", "nonsense", "0x" + String(repeating: "0", count: 64)])
    func unknownOrMalformedHashesHaveNoVersion(_ hash: String) throws {
        let store = try SQLiteStateStore.inMemory()
        try store.saveMetadata(
            ChainMetadata(genesisHash: Self.polkadot, specVersion: 7, chain: "Polkadot", metadata: [1, 2, 3]))
        #expect(try store.metadataVersion(genesisHash: hash) == nil)
    }

    /// SQLite answers the query from the `chain_metadata_version` index alone: the table row,
    /// where the blob lives, is never visited (the full-row query for comparison does visit it).
    @Test func theVersionQueryReadsTheIndexOnlyNeverTheRow() throws {
        let store = try SQLiteStateStore.inMemory()
        let version = try store.queryPlan(SQLiteStateStore.metadataVersionSQL, arguments: [Self.polkadot])
        #expect(version.count == 1 && version[0].contains("USING COVERING INDEX chain_metadata_version"), "\(version)")
        let full = try store.queryPlan(
            "SELECT * FROM chain_metadata WHERE genesis_hash = ?", arguments: [Self.polkadot])
        #expect(!full.joined().contains("COVERING"), "\(full)")
    }
}
