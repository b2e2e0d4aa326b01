import Keystore
import StateStore
import Testing

@testable import SignerCore

/// The two `AuthorizationPersistence` implementations give the same answers for the same script:
/// one revision per change, nothing taken by a change that changes nothing, revocations kept.
@Suite struct AuthorizationPersistenceTests {
    static let a = "https://a.example"
    static let b = "client:backend"

    /// Everything a script of changes answered, for comparison.
    struct Transcript: Equatable {
        var answers: [AuthorizationChange?] = []
        var all: AuthorizationChanges?
        var afterThree: AuthorizationChanges?
    }

    static func run(_ store: any AuthorizationPersistence) async throws -> Transcript {
        var t = Transcript()
        t.answers.append(
            try await store.grant(AuthorizedSite(source: a, appName: "A", accounts: ["0x01", "0x02", "0x01"])))
        t.answers.append(try await store.grant(AuthorizedSite(source: b, appName: "B", accounts: [])))
        t.answers.append(try await store.setAccounts(a, accounts: ["0x02"]))
        t.answers.append(try await store.revoke(b))
        t.answers.append(try await store.setAccounts(b, accounts: ["0x01"]))
        t.answers.append(try await store.revoke(b))
        t.answers.append(try await store.revoke("https://never.example"))
        t.all = try await store.load()
        t.afterThree = try await store.changes(after: 3)
        return t
    }

    @Test func theSQLiteAndTheInMemoryStoresAgree() async throws {
        let sqlite = try await Self.run(StateStoreAuthorizations(store: try SQLiteStateStore.inMemory()))
        let memory = try await Self.run(InMemoryAuthorizations())
        #expect(sqlite == memory)
        #expect(sqlite.answers.map { $0?.revision } == [1, 2, 3, 4, nil, nil, nil])
        #expect(sqlite.answers[0]?.site?.accounts == ["0x01", "0x02"])
        #expect(sqlite.all?.revision == 4)
        #expect(sqlite.all?.sites == [AuthorizedSite(source: Self.a, appName: "A", accounts: ["0x02"])])
        #expect(sqlite.all?.changes.map(\.source) == [Self.a, Self.b])
        #expect(sqlite.afterThree?.changes == [AuthorizationChange(source: Self.b, site: nil, revision: 4)])
    }

    @Test func storedSitesLoadInTheirRevisionOrder() async throws {
        let store = try SQLiteStateStore.inMemory()
        try await store.authorize(origin: Self.b, name: "B", accounts: [])
        try await store.authorize(origin: Self.a, name: "A", accounts: ["0x01"])
        let loaded = try await StateStoreAuthorizations(store: store).load()
        #expect(loaded.sites.map(\.source) == [Self.b, Self.a])
        #expect(loaded.revision == 2)
    }
}
