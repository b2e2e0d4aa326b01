import Foundation
import Keystore
import SigilTesting
import Testing

@testable import StateStore

/// The async face of ``StateStore`` (GRDB's async access underneath): the same transactions as the
/// synchronous face, for every store the server can hold.
@Suite struct AsyncStateStoreTests {
    static let genesis = "0x91b171bb158e2d3848fa23a9f1c25182fb8e20313b2c1eb49219da7a70ce90c3"

    /// Runs `body` as synchronous code: there, the synchronous overloads are the ones called (in an
    /// async function, `store.allSettings()` would pick the async one).
    static func sync<T>(_ body: () throws -> T) rethrows -> T { try body() }

    enum Kind: String, CaseIterable, CustomTestStringConvertible {
        case file, memory, cachedFile
        var testDescription: String { rawValue }
    }

    /// The store under test and a synchronous view of the same data (another store on the file).
    static func stores(_ kind: Kind, in directory: TemporaryDirectory) throws -> (any StateStore, any StateStore) {
        let path = directory.path + "/state.sqlite"
        switch kind {
        case .file:
            try FileManager.default.createDirectory(atPath: directory.path, withIntermediateDirectories: true)
            return (try SQLiteStateStore(path: path), try SQLiteStateStore(path: path))
        case .memory:
            let store = try SQLiteStateStore.inMemory()
            return (store, store)
        case .cachedFile:
            try FileManager.default.createDirectory(atPath: directory.path, withIntermediateDirectories: true)
            return (try CachedStateStore(try SQLiteStateStore(path: path)), try SQLiteStateStore(path: path))
        }
    }

    @Test(arguments: Kind.allCases)
    func theAsyncOperationsStoreWhatTheSynchronousOnesRead(_ kind: Kind) async throws {
        let tmp = TemporaryDirectory()
        defer { tmp.remove() }
        let (store, view) = try Self.stores(kind, in: tmp)

        let site = try await store.authorize(origin: "https://a.example", name: "A", accounts: ["5A", "5B", "5A"])
        #expect(site.accounts == ["5A", "5B"])
        #expect(try view.connectedSite(origin: "https://a.example") == site)
        let updated = try await store.updateAccounts(origin: "https://a.example", accounts: ["5C"])
        #expect(updated?.accounts == ["5C"])
        #expect(try await store.updateAccounts(origin: "https://never.example", accounts: ["5C"]) == nil)
        let changes = try await store.siteChanges(after: 0)
        #expect(changes == (try Self.sync { try view.siteChanges(after: 0) }))
        #expect(changes.changes.map(\.origin) == ["https://a.example"])
        #expect(try await store.revoke(origin: "https://a.example") == changes.revision + 1)
        #expect(try await store.revoke(origin: "https://a.example") == nil)
        #expect(try view.connectedSite(origin: "https://a.example") == nil)

        let metadata = ChainMetadata(genesisHash: Self.genesis, specVersion: 7, chain: "c", metadata: [1, 2])
        try await store.saveMetadata(metadata)
        #expect(try await store.allMetadata().map(\.specVersion) == [7])
        #expect(try await store.metadataVersions() == [Self.genesis: 7])
        #expect(try view.metadataVersion(genesisHash: Self.genesis) == 7)

        try await store.setSettings(["a": "1", "b": "2"])
        try await store.setSetting("b", to: nil)
        #expect(try await store.allSettings() == ["a": "1"])
        #expect(try Self.sync { try view.allSettings() } == ["a": "1"])
        #expect(try store.setting("a") == "1")
    }

    /// Several settings are one transaction: one refused key stores none of them, in memory neither.
    @Test(arguments: Kind.allCases)
    func settingSeveralSettingsIsAllOrNothing(_ kind: Kind) async throws {
        let tmp = TemporaryDirectory()
        defer { tmp.remove() }
        let (store, view) = try Self.stores(kind, in: tmp)
        try await store.setSetting("kept", to: "v")
        let tooLong = String(repeating: "k", count: SQLiteStateStore.maxSettingKeyLength + 1)
        for values: [String: String?] in [
            ["new": "1", tooLong: "2"], ["kept": nil, "": "x"],
            ["new": String(repeating: "v", count: SQLiteStateStore.maxSettingValueLength + 1)],
        ] {
            await #expect(throws: StateStoreError.self) { try await store.setSettings(values) }
            #expect(try await store.allSettings() == ["kept": "v"])
            #expect(try Self.sync { try view.allSettings() } == ["kept": "v"])
        }
        var deletions: [String: String?] = [:]
        deletions.updateValue(nil, forKey: "kept")
        deletions.updateValue("w", forKey: "other")
        try await store.setSettings(deletions)
        #expect(try Self.sync { try view.allSettings() } == ["other": "w"])
        #expect(try store.setting("kept") == nil)
    }

    /// The server's refresh reads through the async face and sees another process's changes.
    @Test func anAsyncRefreshSeesAnotherProcess() async throws {
        let tmp = TemporaryDirectory()
        defer { tmp.remove() }
        let (store, other) = try Self.stores(.cachedFile, in: tmp)
        let cached = try #require(store as? CachedStateStore)
        try Self.sync {
            try other.setSetting("metadata-hash", to: "off")
            try other.saveMetadata(ChainMetadata(genesisHash: Self.genesis, specVersion: 3, chain: "c", metadata: []))
        }
        #expect(try cached.setting("metadata-hash") == nil)
        try await cached.refresh()
        #expect(try cached.setting("metadata-hash") == "off")
        #expect(try cached.metadataVersion(genesisHash: Self.genesis) == 3)
    }
}
