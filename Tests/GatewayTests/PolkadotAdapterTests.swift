import Primitives
import SignerCore
import Testing

@testable import Gateway

/// The polkadot-js adapter stands on ``BridgeQueue`` alone: driven here by a queue double, without
/// the service, the coordinator or a journal.
@Suite struct PolkadotAdapterTests {
    let signer = RecordingSigner()
    var adapter: PolkadotAdapter { PolkadotAdapter(signer: signer, metadata: InMemoryMetadataRegistry()) }
    let client = ClientIdentity(source: Fixture.site, session: "s")

    func dispatch(_ method: PolkadotMethod, _ params: JSONValue, _ queue: BridgeQueueDouble) async throws
        -> GatewayService.Outcome
    {
        let sessions = SessionHub(options: GatewayOptions(), serverID: "srv")
        let request = WireRequest(id: "r1", message: method.type.name, request: params)
        return try await adapter.dispatch(method, request, client, core: queue, sessions: sessions)
    }

    @Test func aSignatureIsQueuedWithItsSignStepAndSignsOnlyWhenTheStepRuns() async throws {
        let queue = BridgeQueueDouble(sites: Fixture.connected(), signer: signer)
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
        let queue = BridgeQueueDouble(sites: [], signer: signer)
        await #expect(throws: SignerError.self) { try await dispatch(.extrinsicSign, Fixture.transfer, queue) }
        await #expect(throws: SignerError.self) { try await dispatch(.accountsList, .null, queue) }
        #expect(queue.queued.isEmpty)
    }

    @Test func aDeniedHostsConnectionRequestIsRefusedAndAConnectedSiteIsAnsweredAtOnce() async throws {
        let denied = BridgeQueueDouble(sites: [], signer: signer)
        denied.denied = [Fixture.site]
        await #expect(throws: GatewayError.self) {
            try await dispatch(.authorizeTab, ["origin": "Dapp"], denied)
        }
        let connected = BridgeQueueDouble(sites: Fixture.connected(), signer: signer)
        let outcome = try await dispatch(.authorizeTab, ["origin": "Dapp"], connected)
        guard case .reply(let reply) = outcome, case .response(let body) = reply.body else {
            Issue.record("expected an immediate reply, got \(outcome)")
            return
        }
        #expect(body["authorizedAccounts"] == [.string(TestAccounts.alice.address)])
        #expect(connected.queued.isEmpty)
    }
}
