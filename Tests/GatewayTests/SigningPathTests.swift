import Foundation
import Gateway
import PolkadotCodec
import Primitives
import ScaleCodec
import SignerCore
import SigningKeys
import Testing

/// The assembled gateway without sockets: the real `GatewayService` and the real `SigningService`
/// with the development keys, driven message by message as a dapp drives it, each signature verified
/// against bytes built independently from the payload text (`PreparedPayload(json:)`, the `sigil
/// payload` path).
@Suite struct SigningPathTests {
    let alice = TestAccounts.alice

    /// The wire body a dapp POSTs, parsed as `DappHandler` parses it (one parse of the whole text).
    func request(_ id: String, _ message: String, _ requestJSON: String) throws -> WireRequest {
        try WireRequest(json: JSONValue.parse(#"{"id":"\#(id)","message":"\#(message)","request":\#(requestJSON)}"#))
    }

    func payloadText(
        tip: String = #""0x00000000000000000000000000000000""#, nonce: String = #""0x00000007""#,
        withSignedTransaction: Bool = false
    ) -> String {
        """
        {"address":"\(alice.address)","assetId":null,
        "blockHash":"0x1111111111111111111111111111111111111111111111111111111111111111","blockNumber":"0x014fb1fb",
        "era":"0xb503","genesisHash":"0x91b171bb158e2d3848fa23a9f1c25182fb8e20313b2c1eb49219da7a70ce90c3",
        "metadataHash":null,"method":"0x00001468656c6c6f","mode":0,"nonce":\(nonce),
        "signedExtensions":["CheckNonZeroSender","CheckSpecVersion","CheckTxVersion","CheckGenesis",
        "CheckMortality","CheckNonce","CheckWeight","ChargeTransactionPayment","CheckMetadataHash"],
        "specVersion":"0x001e8480","tip":\(tip),"transactionVersion":"0x0000001a",
        "version":4,"withSignedTransaction":\(withSignedTransaction)}
        """
    }

    func handle(_ service: GatewayService, _ request: WireRequest) async throws -> GatewayService.Outcome {
        try await service.handle(request, from: ClientIdentity(source: Fixture.site, session: "tab-1"))
    }

    func lastReply(_ service: GatewayService) async throws -> WireReply? {
        try await service.keptEvents(for: ClientIdentity(source: Fixture.site, session: "tab-1"), after: nil).last?
            .reply
    }

    /// Connects the site through `authorize.tab` and the person's approval of Alice only.
    func connect(_ service: GatewayService) async throws {
        #expect(try await handle(service, request("a1", "pub(authorize.tab)", #"{"origin":"Demo"}"#)) == .pending)
        let approval = try #require(await service.pendingApprovals.first)
        try await service.approve(approval.id, accounts: [alice.key])
        let reply = try #require(try await lastReply(service))
        #expect(reply.body == .response(["result": true, "authorizedAccounts": [.string(alice.address)]]))
    }

    /// Sends `extrinsic.sign`, approves it, and returns the response object.
    func signApproved(_ service: GatewayService, id: String, _ payload: String) async throws -> JSONValue {
        #expect(try await handle(service, request(id, "pub(extrinsic.sign)", payload)) == .pending)
        let approval = try #require(await service.pendingApprovals.first)
        try await service.approve(approval.id)
        let reply = try #require(try await lastReply(service))
        #expect(reply.id == id)
        guard case .response(let result) = reply.body else { throw SignerError(.invalidInput, "\(reply.body)") }
        return result
    }

    func verify(_ result: JSONValue, signs payloadText: String) throws {
        let expected = try PreparedPayload(json: Array(payloadText.utf8)).signing.signedBytes
        let signature = try Hex.decode(try #require(result["signature"]?.stringValue), prefix: .required)
        #expect(signature.first == MultiSignature.Scheme.sr25519.rawValue)
        #expect(
            KeyScheme.sr25519.verify(
                signature: Array(signature.dropFirst()), message: expected,
                signer: try Hex.decode(alice.key, prefix: .required)))
    }

    @Test func authorizeThenSignThenApproveSignsTheExactPayloadWithTheRealKey() async throws {
        let service = try await Fixture.service()
        try await connect(service)
        let text = payloadText()
        let result = try await signApproved(service, id: "s1", text)
        try verify(result, signs: text)
        #expect(result["signedTransaction"] == nil)
    }

    /// A `tip` and `nonce` sent as JSON numbers above 2^53 are signed exactly (a Double would make
    /// them 9007199254740992): the signature verifies over the bytes of the same values written as hex.
    @Test func numbersAbove2To53AreSignedExactly() async throws {
        let service = try await Fixture.service()
        try await connect(service)
        let result = try await signApproved(
            service, id: "s1", payloadText(tip: "9007199254740993", nonce: "9007199254740993"))
        try verify(result, signs: payloadText(tip: #""0x20000000000001""#, nonce: #""0x0020000000000001""#))
        let rounded = try PreparedPayload(
            json: Array(payloadText(tip: #""0x20000000000000""#, nonce: #""0x0020000000000000""#).utf8))
        let signature = try Hex.decode(try #require(result["signature"]?.stringValue), prefix: .required)
        #expect(
            !KeyScheme.sr25519.verify(
                signature: Array(signature.dropFirst()), message: rounded.signing.signedBytes,
                signer: try Hex.decode(alice.key, prefix: .required)))
    }

    /// The site sends a second payload while the first waits; approving the first signs the first,
    /// exactly the prepared payload the person saw (the approval carries it; nothing is rebuilt).
    @Test func theApprovedPayloadIsSignedNotALaterOne() async throws {
        let signer = RecordingSigner()
        let service = try await Fixture.service(signer: signer)
        try await connect(service)
        let first = payloadText(tip: #""0x01""#)
        #expect(try await handle(service, request("s1", "pub(extrinsic.sign)", first)) == .pending)
        #expect(
            try await handle(service, request("s1", "pub(extrinsic.sign)", payloadText(tip: #""0xff""#))) == .pending)
        let pending = await service.pendingApprovals
        #expect(pending.count == 2)
        let approved = try #require(pending.first)
        guard case .adapter(let shown) = approved.subject, shown.kind == "extrinsic" else {
            Issue.record("not a signature")
            return
        }
        try await service.approve(approved.id)
        let reply = try #require(
            try await service.keptEvents(
                for: ClientIdentity(source: Fixture.site, session: "tab-1"), after: nil
            ).last?.reply)
        guard case .response(let result) = reply.body else { Issue.record("\(reply.body)"); return }
        try verify(result, signs: first)
        // Exactly what was shown (its rows, the bytes the journal's digest covers) was signed.
        #expect(signer.signedExtrinsics.map(\.summary) == [shown.summary])
        #expect(signer.signedExtrinsics.map(\.prepared.signing.signedBytes) == [shown.requestId])
        #expect(await service.pendingApprovals.count == 1)
    }

    /// `withSignedTransaction`: the signed v4 extrinsic comes back, built from the approved payload
    /// with Alice's id and the returned signature.
    @Test func aSignedTransactionIsReturnedWhenAskedFor() async throws {
        let service = try await Fixture.service()
        try await connect(service)
        let text = payloadText(withSignedTransaction: true)
        let result = try await signApproved(service, id: "s1", text)
        try verify(result, signs: text)
        let signing = try PreparedPayload(json: Array(text.utf8)).signing
        let signature = try Hex.decode(try #require(result["signature"]?.stringValue), prefix: .required)
        let expected = SignedExtrinsicV4(
            address: .id(try Hex.decode(alice.key, prefix: .required)),
            signature: try MultiSignature(scheme: .sr25519, signature: Array(signature.dropFirst())),
            extra: signing.extra, call: signing.call)
        #expect(result["signedTransaction"]?.stringValue == Hex.encode(expected.encoded))
    }

    /// A payload for another account than the one in `address` cannot be slipped in: the account
    /// check happens before queueing.
    @Test func aPayloadForAnAccountTheSiteWasNotGrantedIsRefused() async throws {
        let service = try await Fixture.service()
        try await connect(service)
        let bobPayload = payloadText().replacingOccurrences(of: alice.address, with: TestAccounts.bob.address)
        let outcome = try await handle(service, request("s1", "pub(extrinsic.sign)", bobPayload))
        #expect(outcome == .reply(WireReply(id: "s1", .error("Unable to find keypair"))))
        #expect(await service.pendingApprovals.isEmpty)
    }
}
