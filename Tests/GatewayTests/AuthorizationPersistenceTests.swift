import Gateway
import Keystore
import Logging
import SignerCore
import Testing

// PRE-CHANGE VERSION (run against today's code to show the races; replaced by the real file).

/// Verbatim copy of today's sigil `StateStoreAuthorizations` (executable target, not importable).
struct TodayStateStoreAuthorizations: AuthorizationPersistence {
    let store: any StateStore
    func load() async throws -> [AuthorizedSite] {
        try store.connectedSites().map { AuthorizedSite(source: $0.origin, appName: $0.name, accounts: $0.accounts) }
    }
    func save(_ sites: [AuthorizedSite]) async throws {
        let wanted = Dictionary(sites.map { ($0.source, $0) }, uniquingKeysWith: { _, last in last })
        for stored in try store.connectedSites() where wanted[stored.origin] == nil {
            _ = try store.revoke(origin: stored.origin)
        }
        for site in sites {
            let current = try store.connectedSite(origin: site.source)
            if current?.accounts != site.accounts || current?.name != site.appName {
                _ = try store.authorize(origin: site.source, name: site.appName, accounts: site.accounts)
            }
        }
    }
}

struct ThrowingAuthorizations: AuthorizationPersistence {
    struct Failure: Error {}
    func load() async throws -> [AuthorizedSite] { [] }
    func save(_ sites: [AuthorizedSite]) async throws { throw Failure() }
}

func makeService(_ persistence: any AuthorizationPersistence) async throws -> GatewayService {
    try await GatewayService(
        options: GatewayOptions(), accounts: TestAccounts(), signer: RecordingSigner(),
        metadata: InMemoryMetadataRegistry(), persistence: persistence, clock: TestClock(), serverID: "srv1",
        logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() }))
}

@Suite struct AuthorizationRaceTests {
    let alice = TestAccounts.alice

    @Test func aReconcileThatLoadedBeforeAnApprovalDoesNotRevokeIt() async throws {
        let persistence = TodayStateStoreAuthorizations(store: try SQLiteStateStore.inMemory())
        let service = try await makeService(persistence)
        let stale = try await persistence.load()
        _ = try await service.send("pub(authorize.tab)", ["origin": "Dapp"])
        try await service.approve(try #require(await service.pendingApprovals.first).id, accounts: [alice.key])
        await service.reconcile(with: stale)
        #expect(await service.sites.map(\.source) == [Fixture.site])
    }

    @Test func aRevocationByAnotherProcessSurvivesTheServersNextChange() async throws {
        let store = try SQLiteStateStore.inMemory()
        try store.authorize(origin: Fixture.site, name: "Dapp", accounts: [alice.key])
        try store.authorize(origin: Fixture.other, name: "Other", accounts: [alice.key])
        let service = try await makeService(TodayStateStoreAuthorizations(store: store))
        try store.revoke(origin: Fixture.site)  // `sigil origins revoke`
        try await service.setAccounts(Fixture.other, accounts: [TestAccounts.bob.key])
        #expect(try store.connectedSite(origin: Fixture.site) == nil)
    }

    @Test func aGrantThatCannotBeSavedIsAnErrorNotASuccess() async throws {
        let service = try await makeService(ThrowingAuthorizations())
        _ = try await service.send("pub(authorize.tab)", ["origin": "Dapp"])
        let id = try #require(await service.pendingApprovals.first).id
        await #expect(throws: (any Error).self) { try await service.approve(id, accounts: [alice.key]) }
        guard case .error? = try await service.logged().last?.body else {
            Issue.record("the dapp was told it is connected: \(String(describing: try await service.logged()))")
            return
        }
        #expect(await service.sites.isEmpty)
    }
}
