import Gateway
import Journal
import Keystore
import PolkadotCodec
import Primitives
import SignerCore
import SigningKeys
import StateStore
import Synchronization
import Testing

/// A journal that holds every append until the test releases it, to see what the dapp has received
/// while an entry is not yet committed.
final class GatedJournal: SigningJournal {
    let inner: StateStoreJournal
    private let state = Mutex<(waiting: [CheckedContinuation<Void, Never>], open: Bool)>(([], false))
    var shownLimit: Int { inner.shownLimit }

    init(_ inner: StateStoreJournal) { self.inner = inner }

    var waiting: Int { state.withLock { $0.waiting.count } }

    func release() {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.open = true
            defer { state.waiting = [] }
            return state.waiting
        }
        for waiter in waiters { waiter.resume() }
    }

    func append(_ content: JournalEntry.Content) async throws -> JournalEntry {
        await withCheckedContinuation { continuation in
            let open = state.withLock { state -> Bool in
                if !state.open { state.waiting.append(continuation) }
                return state.open
            }
            if open { continuation.resume() }
        }
        return try await inner.append(content)
    }

    func entries(matching filter: JournalFilter, limit: Int) async throws -> [JournalEntry] {
        try await inner.entries(matching: filter, limit: limit)
    }
    func lastVerification() async -> JournalVerification? { await inner.lastVerification() }
    func verify() async throws -> JournalVerification { try await inner.verify() }
}

/// A journal whose store refuses everything.
struct BrokenJournal: SigningJournal {
    var shownLimit: Int { 4096 }
    func append(_ content: JournalEntry.Content) async throws -> JournalEntry {
        throw StateStoreError(.database, "disk full")
    }
    func entries(matching filter: JournalFilter, limit: Int) async throws -> [JournalEntry] { [] }
    func lastVerification() async -> JournalVerification? { nil }
    func verify() async throws -> JournalVerification { JournalVerification() }
}

/// The gateway's journaling (docs/journal.md §1, §7): every decision, abandonment and refusal
/// is recorded with what was shown and signed, before the reply leaves.
@Suite struct JournalPathTests {
    let alice = TestAccounts.alice

    static func journal(shownLimit: Int = 4096) throws -> StateStoreJournal {
        StateStoreJournal(
            store: try SQLiteStateStore.inMemory(), key: nil, mirror: nil, keyFilePath: nil, shownLimit: shownLimit)
    }

    /// Entries oldest first.
    static func entries(_ journal: StateStoreJournal) throws -> [JournalEntry] {
        try journal.store.journalEntries(limit: 1000).reversed()
    }

    /// Waits (yielding, bounded in wall time) until `condition` holds (``ProtocolSeamTests/eventually(_:)``).
    static func eventually(_ condition: () async throws -> Bool) async rethrows -> Bool {
        try await ProtocolSeamTests.eventually(condition)
    }

    @Test func anApprovedSignatureIsJournaledWithWhatWasShownAndSignedBeforeTheReply() async throws {
        let journal = try Self.journal()
        let gated = GatedJournal(journal)
        let signer = RecordingSigner()
        let service = try await Fixture.service(sites: Fixture.connected(), signer: signer, journal: gated)
        #expect(try await service.send("pub(extrinsic.sign)", Fixture.transfer) == nil)
        let approval = try #require(await service.pendingApprovals.first)
        guard case .adapter(let request) = approval.subject, request.kind == "extrinsic" else {
            Issue.record("not a transaction")
            return
        }
        let approving = Task { try await service.approve(approval.id) }
        #expect(await Self.eventually { gated.waiting == 1 })
        #expect(try await service.logged().isEmpty, "a reply left before its journal entry was committed")
        gated.release()
        try await approving.value
        let reply = try #require(try await service.logged().last)
        guard case .response(let result) = reply.body else { Issue.record("not signed: \(reply)"); return }
        let signature = try Hex.decode(try #require(result["signature"]?.stringValue), prefix: .required)
        let entry = try #require(try Self.entries(journal).last)
        let c = entry.content
        #expect(c.decision == "approved" && c.origin == Fixture.site && c.appName == "Dapp")
        #expect(c.protocolName == "polkadot" && c.method == "pub(extrinsic.sign)" && c.account == alice.address)
        #expect(c.result == signature)
        // The digest is of exactly the payload the signer signed.
        let signed = try #require(signer.signedExtrinsics.first)
        #expect(c.subjectDigest == JournalCodec.hash(signed.prepared.signing.signedBytes))
        #expect(request.requestId == signed.prepared.signing.signedBytes)
        let shown = try #require(c.shownRows)
        #expect(shown.first == JournalShown.Row("site", Fixture.site))
        #expect(shown.dropFirst().map(\.label) == request.summary.map(\.label))
        #expect(c.summaryDigest == JournalShown.digest(of: shown) && !c.shownTruncated)
        #expect(try await journal.verify().isValid)
    }

    @Test func aSignatureWhoseEntryCannotBeStoredIsWithheld() async throws {
        let signer = RecordingSigner()
        let service = try await Fixture.service(sites: Fixture.connected(), signer: signer, journal: BrokenJournal())
        _ = try await service.send("pub(bytes.sign)", ["address": .string(alice.address), "data": "hi"])
        try await service.approve(try #require(await service.pendingApprovals.first).id)
        #expect(signer.signedMessages.count == 1)
        #expect(
            try await service.logged().last
                == WireReply(id: "r1", .error(WireErrorText.notJournaled)))
        // In automatic mode the immediate reply is withheld the same way.
        let auto = try await Fixture.service(mode: .automatic, sites: Fixture.connected(), journal: BrokenJournal())
        let reply = try await auto.send("pub(bytes.sign)", ["address": .string(alice.address), "data": "hi"])
        #expect(reply?.body == .error(WireErrorText.notJournaled))
    }

    @Test func everyOutcomeIsJournaled() async throws {
        let journal = try Self.journal()
        let clock = TestClock()
        let service = try await Fixture.service(
            clock: clock, limits: ApprovalLimits(approvalTimeout: .seconds(30)), journal: journal)
        // authorize → approved with the granted accounts
        _ = try await service.send("pub(authorize.tab)", ["origin": "My <b>Dapp</b>"], id: "a")
        try await service.approve(try #require(await service.pendingApprovals.first).id, accounts: [alice.key])
        // bytes.sign → rejected
        let message: JSONValue = ["address": .string(alice.address), "data": "no"]
        _ = try await service.send("pub(bytes.sign)", message, id: "b")
        try await service.reject(try #require(await service.pendingApprovals.first).id)
        // expired
        _ = try await service.send("pub(bytes.sign)", message, id: "c")
        clock.advance(.seconds(30))
        await service.tick()
        // the tab goes away
        _ = try await service.send("pub(bytes.sign)", message, id: "d")
        await service.closeSession("session-1", source: Fixture.site)
        #expect(try await Self.eventually { try Self.entries(journal).count == 4 })
        // the site is revoked while a request waits
        _ = try await service.send("pub(bytes.sign)", message, id: "e", session: "session-2")
        try await service.revoke(Fixture.site)
        let entries = try Self.entries(journal)
        #expect(entries.map(\.content.decision) == ["approved", "rejected", "expired", "cancelled", "cancelled"])
        #expect(entries[0].content.method == "pub(authorize.tab)" && entries[0].content.appName == "My Dapp")
        #expect(entries[0].content.detail == "accounts: \(alice.address)")
        #expect(try #require(entries[0].content.shownRows).map(\.label) == ["site", "calls itself", "warning"])
        #expect(entries[2].content.detail == "approval timeout")
        #expect(entries[3].content.detail == "the tab went away")
        #expect(entries[4].content.detail == "the site was disconnected")
        #expect(entries.allSatisfy { $0.content.result.isEmpty && $0.content.origin == Fixture.site })
        #expect(try await journal.verify().isValid)
    }

    @Test func automaticApprovalsAreJournaledAsSuch() async throws {
        let journal = try Self.journal()
        let service = try await Fixture.service(mode: .automatic, journal: journal)
        _ = try await service.send("pub(authorize.tab)", ["origin": "Auto"], id: "a")
        let reply = try #require(
            try await service.send("pub(bytes.sign)", ["address": .string(alice.address), "data": "hi"], id: "b"))
        guard case .response(let result) = reply.body else { Issue.record("not signed"); return }
        let entries = try Self.entries(journal)
        #expect(entries.map(\.content.decision) == ["auto-approved", "auto-approved"])
        #expect(
            Hex.encode(entries[1].content.result) == result["signature"]?.stringValue
                && entries[1].content.subjectDigest == JournalCodec.hash(Array("<Bytes>hi</Bytes>".utf8)))
    }

    @Test func refusalsAreJournaledForConnectedAndDeniedSitesOnlyAndWithinABudget() async throws {
        let journal = try Self.journal()
        let service = try await Fixture.service(
            sites: Fixture.connected([alice.key]), denied: ["evil.example"], journal: journal)
        // Connected, an account it may not use: refused by a rule, with the account.
        _ = try await service.send("pub(bytes.sign)", ["address": .string(TestAccounts.bob.address), "data": "x"])
        // A malformed payload from the connected site.
        _ = try await service.send("pub(extrinsic.sign)", ["address": 5])
        // Not connected: nothing recorded (it cannot fill the journal).
        _ = try await service.send(
            "pub(bytes.sign)", ["address": .string(alice.address), "data": "x"], source: Fixture.other,
            session: "other")
        // On the deny list: recorded.
        _ = try await service.send(
            "pub(authorize.tab)", ["origin": "Phish"], source: "https://login.evil.example", session: "evil")
        // A read is not a decision.
        _ = try await service.send("pub(accounts.list)", id: "l")
        let entries = try Self.entries(journal)
        #expect(entries.map(\.content.decision) == ["refused", "refused", "refused"])
        #expect(entries.map(\.content.detail) == ["unknownAccount", "invalidInput", "notAllowed"])
        #expect(entries[0].content.account == TestAccounts.bob.address && entries[0].content.appName == "Dapp")
        #expect(entries[2].content.origin == "https://login.evil.example")
        for i in 0..<40 {
            _ = try await service.send(
                "pub(authorize.tab)", ["origin": "Phish"], id: "p\(i)", source: "https://login.evil.example",
                session: "evil")
        }
        // A denied host never connected: its owner's share of the strangers' journal budget.
        let budget = JournalBudget(now: .zero).strangerPerOwner
        #expect(try Self.entries(journal).count == 2 + budget, "a denied host fills the journal past its budget")
    }

    @Test func shownTextIsCappedButItsDigestCoversEverything() async throws {
        let journal = try Self.journal(shownLimit: 40)
        let service = try await Fixture.service(mode: .automatic, sites: Fixture.connected(), journal: journal)
        let long = String(repeating: "long message ", count: 50)
        _ = try await service.send("pub(bytes.sign)", ["address": .string(alice.address), "data": .string(long)])
        let entry = try #require(try Self.entries(journal).last)
        let kept = try #require(entry.content.shownRows)
        #expect(entry.content.shownTruncated)
        #expect(kept.reduce(0) { $0 + $1.label.utf8.count + $1.value.utf8.count } <= 40)
        #expect(entry.content.summaryDigest != JournalShown.digest(of: kept))
        #expect(try await journal.verify().isValid)
    }
}
