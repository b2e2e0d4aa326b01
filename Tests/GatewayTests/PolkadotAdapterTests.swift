import Primitives
import SignerCore
import Testing

@testable import Gateway

/// The polkadot-js adapter stands on ``BridgeQueue`` alone: driven here by a queue double, without
/// the service, the coordinator or a journal.
@Suite struct PolkadotAdapterTests {
    /// A ``BridgeQueue`` over a real ``ApprovalCenter``, recording what was queued.
    final class QueueDouble: BridgeQueue {
        var center: ApprovalCenter
        let signer: any RequestSigner
        var denied: Set<String> = []
        var queued: [(approval: PendingApproval<ApprovalSubject>, sign: ApprovalWaiter.Sign?, scheme: String?)] = []

        init(sites: [AuthorizedSite], signer: any RequestSigner) {
            center = ApprovalCenter(book: AuthorizationBook(sites))
            self.signer = signer
        }

        func requireEnabled(_ source: String) throws -> [String] { try center.requireEnabled(source) }
        func account(_ address: String, allowed: [String]) throws -> SignerAccount {
            guard let key = signer.accountKey(forAddress: address), allowed.contains(key),
                let account = signer.accounts().first(where: { $0.key == key })
            else { throw SignerError(.unknownAccount, "account not available to the source") }
            return account
        }
        func isDenied(_ source: String) -> Bool { denied.contains(source) }
        func requireNoAuthorizationStoring(_ source: String) throws {}
        func isConnectedByAnotherProtocolOnly(_ source: String) async -> Bool { false }
        func isBlindSigningAllowed(_ source: String) async -> Bool { false }
        func requestAuthorization(_ client: ClientIdentity, declaredName: String, askAgain: Bool, fromLink: Bool) throws
            -> ApprovalCenter.AuthorizationOutcome
        {
            try center.requestAuthorization(
                source: client.source, declaredName: declaredName, session: client.session, now: .zero,
                askAgain: askAgain, fromLink: fromLink)
        }
        func requestSignature(_ subject: ApprovalSubject, from client: ClientIdentity) throws
            -> PendingApproval<ApprovalSubject>
        {
            try center.requestSignature(source: client.source, session: client.session, subject: subject, now: .zero)
        }
        func requestMetadata(_ proposal: MetadataProposal, from client: ClientIdentity) throws
            -> PendingApproval<ApprovalSubject>
        {
            try center.requestMetadata(source: client.source, session: client.session, proposal: proposal, now: .zero)
        }
        func queued(
            _ approval: PendingApproval<ApprovalSubject>, _ request: WireRequest, _ client: ClientIdentity,
            sign: ApprovalWaiter.Sign?, scheme: String?, icon: IconReplyShape?
        ) async -> GatewayService.Outcome {
            queued.append((approval, sign, scheme))
            return .pending
        }
    }

    let signer = RecordingSigner()
    var adapter: PolkadotAdapter { PolkadotAdapter(signer: signer, metadata: InMemoryMetadataRegistry()) }
    let client = ClientIdentity(source: Fixture.site, session: "s")

    func dispatch(_ method: PolkadotMethod, _ params: JSONValue, _ queue: QueueDouble) async throws
        -> GatewayService.Outcome
    {
        let sessions = SessionHub(options: GatewayOptions(), serverID: "srv")
        let request = WireRequest(id: "r1", message: method.type.name, request: params)
        return try await adapter.dispatch(method, request, client, core: queue, sessions: sessions)
    }

    @Test func aSignatureIsQueuedWithItsSignStepAndSignsOnlyWhenTheStepRuns() async throws {
        let queue = QueueDouble(sites: Fixture.connected(), signer: signer)
        #expect(try await dispatch(.extrinsicSign, Fixture.transfer, queue) == .pending)
        let entry = try #require(queue.queued.first)
        #expect(entry.scheme == "sr25519")
        #expect(signer.signedExtrinsics.isEmpty)
        let signed = try #require(try entry.sign?())
        let value = try #require(signed.value as? JSONValue)
        #expect(value["id"]?.stringValue == String(entry.approval.id))
        #expect(value["signature"]?.stringValue?.hasPrefix("0x01") == true)
        #expect(signer.signedExtrinsics.count == 1)
    }

    @Test func aSiteThatIsNotConnectedIsRefusedBeforeAnythingIsQueued() async throws {
        let queue = QueueDouble(sites: [], signer: signer)
        await #expect(throws: SignerError.self) { try await dispatch(.extrinsicSign, Fixture.transfer, queue) }
        await #expect(throws: SignerError.self) { try await dispatch(.accountsList, .null, queue) }
        #expect(queue.queued.isEmpty)
    }

    @Test func aDeniedHostsConnectionRequestIsRefusedAndAConnectedSiteIsAnsweredAtOnce() async throws {
        let denied = QueueDouble(sites: [], signer: signer)
        denied.denied = [Fixture.site]
        await #expect(throws: GatewayError.self) {
            try await dispatch(.authorizeTab, ["origin": "Dapp"], denied)
        }
        let connected = QueueDouble(sites: Fixture.connected(), signer: signer)
        let outcome = try await dispatch(.authorizeTab, ["origin": "Dapp"], connected)
        guard case .reply(let reply) = outcome, case .response(let body) = reply.body else {
            Issue.record("expected an immediate reply, got \(outcome)")
            return
        }
        #expect(body["authorizedAccounts"] == [.string(TestAccounts.alice.address)])
        #expect(connected.queued.isEmpty)
    }
}
