import Foundation
import Keystore
import SigilTesting
import Testing

@testable import StateStore

/// ``CachedStateStore``: the two per-request reads from memory, written through at once, and
/// another process's changes seen after `refresh()` (docs/architecture.md, "State").
@Suite struct CachedStateStoreTests {
    static let genesis = "0x91b171bb158e2d3848fa23a9f1c25182fb8e20313b2c1eb49219da7a70ce90c3"

    static func metadata(_ spec: UInt32, genesis: String = genesis) -> ChainMetadata {
        ChainMetadata(genesisHash: genesis, specVersion: spec, chain: "Polkadot", metadata: [])
    }

    @Test func loadsWhatIsStoredAndWritesThrough() throws {
        let base = try SQLiteStateStore.inMemory()
        try base.setSetting("a", to: "1")
        try base.saveMetadata(Self.metadata(7))
        let cached = try CachedStateStore(base)
        #expect(try cached.setting("a") == "1")
        let upper = Self.genesis.uppercased().replacingOccurrences(of: "0X", with: "0x")
        #expect(try cached.metadataVersion(genesisHash: upper) == 7)
        try cached.setSetting("a", to: nil)
        try cached.setSetting("b", to: "2")
        try cached.saveMetadata(Self.metadata(8))
        // Memory and the store agree after each write.
        #expect(try cached.setting("a") == nil && base.setting("a") == nil)
        #expect(try cached.setting("b") == "2" && base.setting("b") == "2")
        #expect(try cached.metadataVersion(genesisHash: Self.genesis) == 8)
        #expect(try base.metadataVersion(genesisHash: Self.genesis) == 8)
        #expect(try cached.removeMetadata(genesisHash: Self.genesis))
        #expect(try cached.metadataVersion(genesisHash: Self.genesis) == nil)
        #expect(try cached.metadataVersion(genesisHash: "nonsense") == nil)
    }

    @Test func seesAnotherProcessAfterRefresh() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        try FileManager.default.createDirectory(atPath: dir.path, withIntermediateDirectories: true)
        let path = dir.path + "/state.sqlite"
        let cached = try CachedStateStore(try SQLiteStateStore(path: path))
        let other = try SQLiteStateStore(path: path)
        try other.setSetting("metadata-hash", to: "off")
        try other.saveMetadata(Self.metadata(3))
        #expect(try cached.setting("metadata-hash") == nil)
        #expect(try cached.metadataVersion(genesisHash: Self.genesis) == nil)
        try cached.refresh()
        #expect(try cached.setting("metadata-hash") == "off")
        #expect(try cached.metadataVersion(genesisHash: Self.genesis) == 3)
        #expect(try cached.metadataVersions() == [Self.genesis: 3])
        try other.setSetting("metadata-hash", to: nil)
        try other.removeMetadata(genesisHash: Self.genesis)
        try cached.refresh()
        #expect(try cached.allSettings().isEmpty)
        #expect(try cached.metadataVersions().isEmpty)
    }

    /// Every commit is synced (docs/journal.md §7): GRDB's pool would leave its writer at NORMAL.
    @Test func theWriterSyncsEveryCommit() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        try FileManager.default.createDirectory(atPath: dir.path, withIntermediateDirectories: true)
        let store = try SQLiteStateStore(path: dir.path + "/state.sqlite")
        #expect(try store.writerSynchronous() == 2)
    }

    @Test func metadataVersionsReadTheIndexOnly() throws {
        let store = try SQLiteStateStore.inMemory()
        #expect(try store.metadataVersions().isEmpty)
        try store.saveMetadata(Self.metadata(1))
        let other = "0x" + String(repeating: "ab", count: 32)
        try store.saveMetadata(Self.metadata(2, genesis: other))
        #expect(try store.metadataVersions() == [Self.genesis: 1, other: 2])
        let plan = try store.queryPlan(
            "SELECT genesis_hash, spec_version FROM chain_metadata INDEXED BY chain_metadata_version")
        #expect(plan.contains { $0.contains("COVERING INDEX chain_metadata_version") }, "\(plan)")
    }
}
