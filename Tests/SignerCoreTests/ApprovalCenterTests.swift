import PolkadotCodec
import Primitives
import SigilTesting
import Testing

@testable import SignerCore

@Suite struct ApprovalCenterTests {
    let site = "https://dapp.example"
    let alice = "0xd43593c715fdd31c61141abd04a99fd6822c8558854ccde39a5684e7a56da27d"
    let bob = "0x8eaf04151687736326c9fea17e25fc5287613693c912909cb226aa4794f26a48"

    static let prepared: PreparedPayload? = try? PreparedPayload(json: Array(PayloadFixtures.polkadotA.utf8))

    /// A signing request for the account `key` (as polkadot-js's adapter queues one).
    func extrinsic(_ key: String) throws -> AdapterApproval {
        let prepared = try #require(Self.prepared)
        return AdapterApproval(
            method: "pub(extrinsic.sign)", title: "Sign a transaction for \(site)?", summary: [],
            requestId: prepared.signing.signedBytes, wallet: "polkadot", account: "addr", accountKey: key,
            kind: "extrinsic")
    }

    func connected(_ accounts: [String]) -> ApprovalCenter {
        ApprovalCenter(book: AuthorizationBook([AuthorizedSite(source: site, appName: "Dapp", accounts: accounts)]))
    }

    @Test func anUnknownSiteIsQueuedAndOnlyOnce() throws {
        var center = ApprovalCenter()
        guard
            case .queued(let entry) = try center.requestAuthorization(
                source: site, declaredName: "Dapp", session: "t1", now: .zero)
        else { Issue.record("expected queued"); return }
        #expect(entry.source == site)
        #expect(throws: SignerError(.authorizationPending, "")) {
            try center.requestAuthorization(source: site, declaredName: "Dapp", session: "t2", now: .zero)
        }
        // Another site is independent.
        _ = try center.requestAuthorization(source: "http://dapp.example", declaredName: "x", session: nil, now: .zero)
    }

    /// Automatic mode ticks every known account: a polkadot-js authorization still never grants an
    /// Ethereum account (they are granted by the Ethereum adapter, for Ethereum sites).
    @Test func anAuthorizationNeverGrantsAnEthereumAccount() throws {
        var center = ApprovalCenter()
        guard
            case .queued(let entry) = try center.requestAuthorization(
                source: site, declaredName: "Dapp", session: nil, now: .zero)
        else { Issue.record("expected queued"); return }
        let ethereum = "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266"
        let icon = "hx902ecb51c109183ace539f247b4ea1347fbf23b5"
        let known = [alice, ethereum, icon, ethereum.lowercased()]
        let decision = try center.approve(id: entry.id, accounts: known, known: known)
        #expect(decision.grantedAccounts == [alice, icon])
        #expect(decision.site?.accounts == [alice, icon])
    }

    @Test(arguments: [
        ("0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266", true), ("0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266", true),
        ("0xd43593c715fdd31c61141abd04a99fd6822c8558854ccde39a5684e7a56da27d", false),
        ("hx902ecb51c109183ace539f247b4ea1347fbf23b5", false), ("0xf39fd6e51aad88f6f4ce6ab8827279cfffb9226g", false),
        ("0Xf39fd6e51aad88f6f4ce6ab8827279cfffb92266", false), ("", false), ("0x", false),
    ])
    func ethereumKeysAreTheTwentyByteHexAddresses(_ key: String, _ isEthereum: Bool) {
        #expect(SignerAccount.isEthereumKey(key) == isEthereum)
    }

    @Test func approvingGrantsOnlyTickedKnownAccounts() throws {
        var center = ApprovalCenter()
        guard
            case .queued(let entry) = try center.requestAuthorization(
                source: site, declaredName: "Dapp", session: nil, now: .zero)
        else { Issue.record("expected queued"); return }
        let decision = try center.approve(id: entry.id, accounts: [bob, "0xnotreal", bob], known: [alice, bob])
        #expect(decision.approved && decision.grantedAccounts == [bob])
        // Nothing is connected until the caller has stored the record and grants it.
        #expect(throws: SignerError(.notEnabled, "")) { try center.requireEnabled(site) }
        #expect(decision.site == AuthorizedSite(source: site, appName: "Dapp", accounts: [bob]))
        center.grant(try #require(decision.site))
        #expect(try center.requireEnabled(site) == [bob])
        #expect(
            try center.requestAuthorization(source: site, declaredName: "Dapp", session: nil, now: .zero)
                == .authorized([bob]))
    }

    @Test func rejectingRecordsTheSiteWithNoAccounts() throws {
        var center = ApprovalCenter()
        guard
            case .queued(let entry) = try center.requestAuthorization(
                source: site, declaredName: "Dapp", session: nil, now: .zero)
        else { Issue.record("expected queued"); return }
        let decision = try center.reject(id: entry.id)
        #expect(!decision.approved)
        #expect(decision.site == AuthorizedSite(source: site, appName: "Dapp", accounts: []))
        center.grant(try #require(decision.site))
        #expect(try center.requireEnabled(site).isEmpty)
    }

    @Test func messagesFromASiteThatIsNotConnectedAreRefused() {
        var center = ApprovalCenter()
        #expect(throws: SignerError(.notEnabled, "")) { try center.requireEnabled(site) }
        #expect(throws: SignerError(.notEnabled, "")) {
            try center.requestSignature(source: site, session: nil, request: try extrinsic(alice), now: .zero)
        }
        let update = AdapterApproval(
            method: "pub(metadata.provide)", title: "Update c metadata?", summary: [], wallet: "polkadot",
            kind: "metadata", storedDigest: [1])
        #expect(throws: SignerError(.notEnabled, "")) {
            try center.requestUpdate(source: site, session: nil, request: update, now: .zero)
        }
        // An update never signs: a request with bytes to sign is refused as one.
        var connected = connected([alice])
        #expect(throws: SignerError(.invalidInput, "")) {
            try connected.requestUpdate(source: site, session: nil, request: try extrinsic(alice), now: .zero)
        }
        _ = try? connected.requestUpdate(source: site, session: nil, request: update, now: .zero)
        #expect(connected.queue.entries.count == 1)
    }

    @Test func anAccountTheSiteMayNotUseIsRefusedBeforeAnyPrompt() throws {
        var center = connected([alice])
        #expect(throws: SignerError(.unknownAccount, "")) {
            try center.requestSignature(source: site, session: nil, request: try extrinsic(bob), now: .zero)
        }
        #expect(center.queue.entries.isEmpty)
        _ = try center.requestSignature(source: site, session: nil, request: try extrinsic(alice), now: .zero)
        #expect(center.queue.entries.count == 1)
    }

    @Test func revokingDisconnectsAndDropsWaitingRequests() throws {
        var center = connected([alice])
        _ = try center.requestSignature(source: site, session: "t", request: try extrinsic(alice), now: .zero)
        let result = center.revoke(site)
        #expect(result.wasConnected && result.dropped.count == 1)
        #expect(throws: SignerError(.notEnabled, "")) { try center.requireEnabled(site) }
        #expect(!center.revoke(site).wasConnected)
    }

    @Test func expiryAndClosedTabsRemoveRequests() throws {
        var clock = ManualClock()
        var center = ApprovalCenter(
            book: AuthorizationBook([AuthorizedSite(source: site, appName: "D", accounts: [alice])]),
            limits: ApprovalLimits(approvalTimeout: .seconds(10)))
        _ = try center.requestSignature(source: site, session: "t1", request: try extrinsic(alice), now: clock.now)
        _ = try center.requestSignature(source: site, session: "t2", request: try extrinsic(alice), now: clock.now)
        #expect(center.endSession("t1").count == 1)
        clock.advance(.seconds(10))
        #expect(center.expire(now: clock.now).count == 1)
        #expect(center.queue.entries.isEmpty)
    }

    @Test func aSigningApprovalDoesNotTouchAuthorizations() throws {
        var center = connected([alice])
        let entry = try center.requestSignature(source: site, session: nil, request: try extrinsic(alice), now: .zero)
        let decision = try center.approve(id: entry.id, accounts: [bob], known: [alice, bob])
        #expect(decision.approved && decision.grantedAccounts.isEmpty && decision.site == nil)
        #expect(try center.requireEnabled(site) == [alice])
        #expect(throws: SignerError(.unknownApproval, "")) { try center.reject(id: entry.id) }
    }

    @Test func thePersonCanEditASitesAccounts() throws {
        var center = connected([alice])
        try center.setAccounts(site, accounts: [bob, "0xgone"], known: [alice, bob])
        #expect(try center.requireEnabled(site) == [bob])
        #expect(throws: SignerError(.notEnabled, "")) { try center.setAccounts("https://x", accounts: [], known: []) }
    }
}
