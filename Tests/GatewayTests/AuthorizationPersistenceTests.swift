import Foundation
import Keystore
import Logging
import Primitives
import SignerCore
import StateStore
import Synchronization
import Testing

@testable import Gateway

/// The authorization races of issue 11 (item 5), against the real SQLite state store: each
/// change is one transaction with a revision, reconcile applies only what is newer than memory,
/// and a failed save is an error, never a success. Written first against the old snapshot API,
/// where each of `aReconcileThatReadBeforeAnApprovalDoesNotRevokeIt`,
/// `aRevocationByAnotherProcessSurvivesTheServersNextChanges` and
/// `aGrantTheStoreRefusesIsAnErrorForTheDappAndThePerson` failed.
@Suite struct AuthorizationRaceTests {
    let alice = TestAccounts.alice
    let bob = TestAccounts.bob
    static let quiet = Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })

    static func service(
        _ persistence: any AuthorizationPersistence, mode: GatewayOptions.ApprovalMode = .person,
        logger: Logger = quiet
    ) async throws -> GatewayService {
        try await GatewayService(
            options: GatewayOptions(approvalMode: mode), signer: RecordingSigner(),
            metadata: InMemoryMetadataRegistry(), persistence: persistence, clock: TestClock(), serverID: "srv1",
            logger: logger)
    }

    /// The person approves `source` with `accounts` on the approval page.
    static func connect(
        _ service: GatewayService, _ source: String = Fixture.site, accounts: [String], session: String = "session-1"
    ) async throws {
        _ = try await service.send("pub(authorize.tab)", ["origin": "Dapp"], source: source, session: session)
        let id = try #require(await service.pendingApprovals.first { $0.source == source }).id
        try await service.approve(id, accounts: accounts)
    }

    /// Memory and the database hold the same sites.
    static func agree(_ service: GatewayService, _ store: SQLiteStateStore) async throws -> Bool {
        let stored = try store.connectedSites().map {
            AuthorizedSite(source: $0.origin, appName: $0.name, accounts: $0.accounts)
        }
        return await service.sites == stored
    }

    // MARK: (a) reconcile never revokes what happened after its read

    /// What the stale read holds about the site the person then approves.
    enum StaleRead: String, CaseIterable, Sendable {
        case nothing, anOlderRevocation
    }

    @Test(arguments: StaleRead.allCases)
    func aReconcileThatReadBeforeAnApprovalDoesNotRevokeIt(_ read: StaleRead) async throws {
        let store = try SQLiteStateStore.inMemory()
        let persistence = StateStoreAuthorizations(store: store)
        let service = try await Self.service(persistence)
        if read == .anOlderRevocation {
            try await Self.connect(service, accounts: [bob.key], session: "session-0")
            try await service.revoke(Fixture.site)
        }
        let stale = try await persistence.changes(after: 0)  // the ticker's read…
        try await Self.connect(service, accounts: [alice.key])  // …then the person approves…
        await service.reconcile(with: stale)  // …then the ticker applies what it read.
        #expect(await service.sites == [AuthorizedSite(source: Fixture.site, appName: "Dapp", accounts: [alice.key])])
        try await service.reconcile()
        #expect(try await Self.agree(service, store))
    }

    @Test func aReconcileThatReadBeforeAnAccountChangeDoesNotUndoIt() async throws {
        let store = try SQLiteStateStore.inMemory()
        try await store.authorize(origin: Fixture.site, name: "Dapp", accounts: [alice.key])
        let persistence = StateStoreAuthorizations(store: store)
        let service = try await Self.service(persistence)
        try await store.authorize(origin: Fixture.other, name: "Other", accounts: [])  // so the read is not empty
        let stale = try await persistence.changes(after: 0)
        try await service.setAccounts(Fixture.site, accounts: [bob.key])
        await service.reconcile(with: stale)
        #expect(await service.sites.first { $0.source == Fixture.site }?.accounts == [bob.key])
        #expect(await service.sites.contains { $0.source == Fixture.other })
        #expect(try await Self.agree(service, store))
    }

    /// The same race through `reconcile()` itself: its read is held open (no sleep) while the
    /// person approves, then released.
    @Test func anApprovalWhileReconcileIsReadingSurvivesIt() async throws {
        let store = try SQLiteStateStore.inMemory()
        try await store.authorize(origin: Fixture.site, name: "Dapp", accounts: [bob.key])
        let held = HeldReads(StateStoreAuthorizations(store: store))
        let service = try await Self.service(held)
        try await service.revoke(Fixture.site)  // the read will hold this revocation
        held.hold()
        let reconcile = Task { try await service.reconcile() }
        await held.waitForRead()
        try await Self.connect(service, accounts: [alice.key])
        held.release()
        try await reconcile.value
        #expect(await service.sites.map(\.source) == [Fixture.site])
        #expect(try await Self.agree(service, store))
    }

    // MARK: (b) a revocation by another process is never undone

    @Test func aRevocationByAnotherProcessSurvivesTheServersNextChanges() async throws {
        let directory = try TemporaryStateDirectory()
        defer { directory.remove() }
        let serverStore = try SQLiteStateStore(path: directory.database)
        try await serverStore.authorize(origin: Fixture.site, name: "Dapp", accounts: [alice.key])
        try await serverStore.authorize(origin: Fixture.other, name: "Other", accounts: [alice.key])
        let service = try await Self.service(StateStoreAuthorizations(store: serverStore))
        _ = try await service.send("pub(accounts.subscribe)", id: "s1")

        // `sigil origins revoke`: another process, its own connection to the same file.
        let cli = try SQLiteStateStore(path: directory.database)
        #expect(try await cli.revoke(origin: Fixture.site) != nil)

        // The server changes other sites before it has looked: the revocation stays.
        try await service.setAccounts(Fixture.other, accounts: [bob.key])
        try await Self.connect(service, "https://third.example", accounts: [alice.key], session: "session-3")
        #expect(try cli.connectedSite(origin: Fixture.site) == nil)
        #expect(try cli.connectedSite(origin: Fixture.other)?.accounts == [bob.key])

        // Its next look applies it: the open tab gets an empty list at once.
        try await service.reconcile()
        #expect(await !service.sites.contains { $0.source == Fixture.site })
        #expect(try await service.logged().last == WireReply(id: "s1", .subscription([])))
        #expect(try await Self.agree(service, serverStore))
    }

    @Test func editingTheAccountsOfASiteRevokedElsewhereDoesNotReconnectIt() async throws {
        let store = try SQLiteStateStore.inMemory()
        try await store.authorize(origin: Fixture.site, name: "Dapp", accounts: [alice.key])
        let service = try await Self.service(StateStoreAuthorizations(store: store))
        try await store.revoke(origin: Fixture.site)
        await #expect(throws: SignerError(.notEnabled, "")) {
            try await service.setAccounts(Fixture.site, accounts: [bob.key])
        }
        #expect(try store.connectedSite(origin: Fixture.site) == nil)
        #expect(await service.sites.isEmpty)
        // Revoking it on the page too is harmless.
        #expect(try await service.revoke(Fixture.site) == false)
        #expect(try await Self.agree(service, store))
    }

    // MARK: (c) grant and revoke from two processes: the later revision wins, everywhere

    enum Order: String, CaseIterable, Sendable {
        case pageGrantsThenCliRevokes, cliRevokesThenPageGrants
    }

    /// The site was connected, the person revoked it on the page and it asks again; the server's
    /// periodic read is taken, then the CLI's revoke and the person's approval land in `order`.

    @Test(arguments: Order.allCases)
    func aGrantAndARevokeFromTwoProcessesEndTheSameInMemoryAndStore(_ order: Order) async throws {
        let store = try SQLiteStateStore.inMemory()
        try await store.authorize(origin: Fixture.site, name: "Dapp", accounts: [bob.key])
        let persistence = StateStoreAuthorizations(store: store)
        let service = try await Self.service(persistence)
        try await service.revoke(Fixture.site)  // so the page can ask again
        let stale = try await persistence.changes(after: 0)
        switch order {
        case .pageGrantsThenCliRevokes:
            try await Self.connect(service, accounts: [alice.key])
            try await store.revoke(origin: Fixture.site)
        case .cliRevokesThenPageGrants:
            _ = try await service.send("pub(authorize.tab)", ["origin": "Dapp"])
            let id = try #require(await service.pendingApprovals.first).id
            #expect(try await store.revoke(origin: Fixture.site) == nil)  // not connected: no change
            try await service.approve(id, accounts: [alice.key])
        }
        await service.reconcile(with: stale)
        try await service.reconcile()
        let connected = order == .cliRevokesThenPageGrants
        #expect(try (store.connectedSite(origin: Fixture.site) != nil) == connected)
        #expect(await service.sites.contains { $0.source == Fixture.site } == connected)
        #expect(try await Self.agree(service, store))
    }

    // MARK: no swallowed save error

    @Test func aGrantTheStoreRefusesIsAnErrorForTheDappAndThePerson() async throws {
        let lines = LockedLines()
        let logger = Logger(label: "t") { label in JSONLogHandler(label: label, sink: { lines.append($0) }) }
        let persistence = FailingAuthorizations()
        let service = try await Self.service(persistence, logger: logger)
        persistence.failing(true)
        _ = try await service.send("pub(authorize.tab)", ["origin": "Dapp"])
        let id = try #require(await service.pendingApprovals.first).id
        await #expect(throws: GatewayError(.notSaved, "")) { try await service.approve(id, accounts: [alice.key]) }
        #expect(try await service.logged() == [WireReply(id: "r1", .error(WireErrorText.notSaved))])
        #expect(await service.sites.isEmpty)
        #expect(try await persistence.load().sites.isEmpty)
        let logged = lines.all.filter { $0.contains("authorization not saved") }
        #expect(logged.count == 1 && logged[0].contains(#""level":"error""#) && logged[0].contains("dapp.example"))
        #expect(!logged[0].contains(alice.key) && !logged[0].contains(alice.address))
        // Nothing was recorded: the site may ask again, and this time it is stored.
        persistence.failing(false)
        try await Self.connect(service, accounts: [alice.key], session: "session-2")
        #expect(try await persistence.load().sites.map(\.source) == [Fixture.site])
        #expect(await service.sites.map(\.source) == [Fixture.site])
    }

    @Test func automaticModeAnswersAnErrorWhenTheGrantIsNotStored() async throws {
        let persistence = FailingAuthorizations()
        persistence.failing(true)
        let service = try await Self.service(persistence, mode: .automatic)
        let reply = try await service.send("pub(authorize.tab)", ["origin": "Dapp"])
        #expect(reply?.body == .error(WireErrorText.notSaved))
        #expect(await service.sites.isEmpty)
    }

    @Test func aRevokeOrAccountEditTheStoreRefusesChangesNothing() async throws {
        let persistence = FailingAuthorizations(Fixture.connected([alice.key]))
        let service = try await Self.service(persistence)
        persistence.failing(true)
        await #expect(throws: GatewayError(.notSaved, "")) { try await service.revoke(Fixture.site) }
        await #expect(throws: GatewayError(.notSaved, "")) {
            try await service.setAccounts(Fixture.site, accounts: [bob.key])
        }
        #expect(await service.sites == Fixture.connected([alice.key]))
        #expect(try await persistence.load().sites == Fixture.connected([alice.key]))
    }

    @Test func aRejectionIsRecordedSoTheSiteCannotPromptAgain() async throws {
        let store = try SQLiteStateStore.inMemory()
        let service = try await Self.service(StateStoreAuthorizations(store: store))
        _ = try await service.send("pub(authorize.tab)", ["origin": "Dapp"])
        try await service.reject(try #require(await service.pendingApprovals.first).id)
        #expect(try store.connectedSite(origin: Fixture.site)?.accounts == [])
        let again = try await service.send("pub(authorize.tab)", ["origin": "Dapp"], id: "r2")
        #expect(again?.body == .response(["result": true, "authorizedAccounts": []]))
    }
}

/// Revision bookkeeping of the gateway's memory, on its own.
@Suite struct AuthorizationRevisionsTests {
    static func change(_ source: String, _ revision: Int64, connected: Bool = true) -> AuthorizationChange {
        AuthorizationChange(
            source: source, site: connected ? AuthorizedSite(source: source, appName: "", accounts: []) : nil,
            revision: revision)
    }

    @Test func onlyNewerChangesAreAcceptedPerSourceAndTheCursorCoversTheRest() {
        var revisions = AuthorizationRevisions(cursor: 5)
        let accepted = [
            Self.change("a", 5), Self.change("a", 9), Self.change("a", 7, connected: false), Self.change("b", 7),
        ].map { revisions.accept($0) }
        #expect(accepted == [false, true, false, true])
        #expect(revisions.known("a") == 9 && revisions.known("b") == 7 && revisions.known("c") == 5)
        revisions.advance(to: 8)
        #expect(revisions.applied == ["a": 9])
        let stale = revisions.accept(Self.change("b", 8))
        #expect(!stale)
        revisions.advance(to: 3)
        #expect(revisions.cursor == 8)
    }
}

/// A persistence whose writes fail on demand (a full disk, a locked database).
final class FailingAuthorizations: AuthorizationPersistence {
    struct Refused: Error, CustomStringConvertible {
        var description: String { "SQLite 13: database or disk is full" }
    }
    private let base: InMemoryAuthorizations
    private let fails = Mutex(false)

    init(_ sites: [AuthorizedSite] = []) { base = InMemoryAuthorizations(sites) }
    func failing(_ on: Bool) { fails.withLock { $0 = on } }
    private func check() throws { if fails.withLock({ $0 }) { throw Refused() } }

    func changes(after revision: Int64) async throws -> AuthorizationChanges {
        await base.changes(after: revision)
    }
    func grant(_ site: AuthorizedSite) async throws -> AuthorizationChange {
        try check()
        return await base.grant(site)
    }
    func setAccounts(_ source: String, accounts: [String]) async throws -> AuthorizationChange? {
        try check()
        return await base.setAccounts(source, accounts: accounts)
    }
    func revoke(_ source: String) async throws -> AuthorizationChange? {
        try check()
        return await base.revoke(source)
    }
}

/// A persistence whose next change-feed read, once `hold()` is called, is taken at once and then
/// kept from its caller until `release()` (the window in which the race happens).
final class HeldReads: AuthorizationPersistence {
    private let base: any AuthorizationPersistence
    private let holding = Mutex(false)
    private let (reads, readSignal) = AsyncStream<Void>.makeStream()
    private let (gate, gateSignal) = AsyncStream<Void>.makeStream()

    init(_ base: any AuthorizationPersistence) { self.base = base }
    func hold() { holding.withLock { $0 = true } }
    func release() { gateSignal.yield() }
    func waitForRead() async {
        var iterator = reads.makeAsyncIterator()
        _ = await iterator.next()
    }

    func changes(after revision: Int64) async throws -> AuthorizationChanges {
        let result = try await base.changes(after: revision)
        if holding.withLock({ held in
            defer { held = false }; return held
        }) {
            readSignal.yield()
            var iterator = gate.makeAsyncIterator()
            _ = await iterator.next()
        }
        return result
    }
    func grant(_ site: AuthorizedSite) async throws -> AuthorizationChange { try await base.grant(site) }
    func setAccounts(_ source: String, accounts: [String]) async throws -> AuthorizationChange? {
        try await base.setAccounts(source, accounts: accounts)
    }
    func revoke(_ source: String) async throws -> AuthorizationChange? { try await base.revoke(source) }
}

/// A fresh directory for a state database shared by two "processes" (two stores on one file).
struct TemporaryStateDirectory {
    let path: String
    var database: String { path + "/state.sqlite" }

    init() throws {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("sigil-state-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
    }

    func remove() { try? FileManager.default.removeItem(atPath: path) }
}
