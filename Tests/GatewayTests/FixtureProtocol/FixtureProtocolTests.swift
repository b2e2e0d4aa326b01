import Gateway
import GatewayHTTP
import Journal
import Primitives
import SignerCore
import SigningKeys
import StateStore
import Testing

/// The fixture protocol (``FixtureProtocol``) signs through the seam's one path like every real
/// protocol: the person approves exactly the message shown, the journal records it (protocol
/// `fixture`, its method and account, the digest of the bytes signed, the signature) before the
/// answer leaves, and revoking the site in the one grant book ends its grant. The hostile script is
/// `ProtocolSeamTests`' row "fixture protocol /v1/fixture".
@Suite struct FixtureProtocolTests {
    static func rpc(_ method: String, _ params: String = "[]") -> String {
        #"{"jsonrpc":"2.0","id":7,"method":"\#(method)","params":\#(params)}"#
    }

    /// Sends `body` to `/v1/fixture` for `origin`; approves (or rejects) the prompt it queues.
    static func call(_ g: ProtocolSeamTests.Gateway, _ origin: String, _ body: String, approve: Bool) async throws
        -> JSONValue?
    {
        let before = Set(await g.service.pendingApprovals.map(\.id))
        let exchange = g.handler.start(ProtocolSeamTests.request(origin, "/v1/fixture", body))
        var queued: PendingApproval<ApprovalSubject>?
        _ = await ProtocolSeamTests.eventually {
            queued = await g.service.pendingApprovals.first { !before.contains($0.id) }
            return queued != nil || exchange.response != nil
        }
        if let queued {
            if approve { try await g.service.approve(queued.id) } else { try await g.service.reject(queued.id) }
        }
        #expect(await ProtocolSeamTests.eventually { exchange.response != nil })
        return exchange.response.flatMap(ProtocolSeamTests.json)
    }

    @Test func aSignatureIsApprovedJournaledAndEndsWithTheGrant() async throws {
        let g = try await ProtocolSeamTests.gateway()
        let fixture = try FixtureProtocol(seam: g.service, grants: g.service)
        let origin = "https://fixture.example"
        let connected = try await Self.call(g, origin, Self.rpc("fixture_connect"), approve: true)
        #expect(connected?["result"] == [.string(fixture.accountKey)])
        #expect(await g.service.sites.first { $0.source == origin }?.accounts == [fixture.accountKey])

        let rejected = try await Self.call(g, origin, Self.rpc("fixture_sign", #"["no"]"#), approve: false)
        #expect(rejected?["error"]?["code"] == 4001)
        let signed = try await Self.call(g, origin, Self.rpc("fixture_sign", #"["hello"]"#), approve: true)
        let signature = try Hex.decode(try #require(signed?["result"]?.stringValue), prefix: .required)
        #expect(
            KeyScheme.ed25519.verify(signature: signature, message: Array("hello".utf8), signer: fixture.key.publicKey))

        let entries = try JournalPathTests.entries(g.journal).filter { $0.content.protocolName == "fixture" }
        #expect(entries.map(\.content.method) == ["fixture_connect", "fixture_sign", "fixture_sign"])
        #expect(entries.map(\.content.decision) == ["approved", "rejected", "approved"])
        let last = try #require(entries.last?.content)
        #expect(last.account == fixture.accountKey && last.origin == origin && last.result == signature)
        #expect(last.subjectDigest == JournalCodec.hash(Array("hello".utf8)))
        #expect(try await g.journal.verify().isValid)

        #expect(try await g.service.revoke(origin))
        let after = try await Self.call(g, origin, Self.rpc("fixture_sign", #"["hello"]"#), approve: true)
        #expect(after?["error"]?["code"] == 4100, "a revoked site's grant is gone for this protocol too")
    }
}
