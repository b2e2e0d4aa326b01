import Foundation
import Keystore
import Logging
import Primitives
import SignerCore
import SigningKeys
import StateStore
import Testing

@testable import Gateway

/// The ICON adapter stands on ``BridgeQueue`` alone: driven here by a queue double, without the
/// service, the coordinator or a journal.
@Suite struct IconAdapterTests {
    let client = ClientIdentity(source: Fixture.site, session: "s")

    func adapter(node: (any IconNode)? = nil) throws -> IconAdapter {
        let pair = try IconKeyPair(
            secretKey: SecretBytes(try Hex.decode(IconGatewayTests.key1, prefix: .forbidden)))
        let info = IconAccountInfo(address: pair.address, name: "K1", whenCreated: nil, isTesting: false, fileName: "")
        let signer = SigningService(
            accounts: [(TestAccounts.alice, try KeyPair(uri: "//Alice", scheme: .sr25519))],
            store: try SQLiteStateStore.inMemory(), icon: IconKeyring(accounts: [info], pairs: [pair.address: pair]))
        var options = GatewayOptions()
        options.iconNode = node
        options.iconWallClock = { IconGatewayTests.now }
        return IconAdapter(
            signer: signer, options: options, logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() }))
    }

    func connect(_ adapter: IconAdapter, _ body: JSONValue, _ queue: BridgeQueueDouble) async -> GatewayService.Outcome
    {
        await adapter.dispatch(
            .connect, WireRequest(id: "c1", message: "icon(connect)", request: body), client, core: queue)
    }

    @Test func aConnectSignIsQueuedInConnectShapeWithItsSignStep() async throws {
        let adapter = try adapter()
        let queue = BridgeQueueDouble(
            sites: [AuthorizedSite(source: Fixture.site, appName: "Dapp", accounts: [IconGatewayTests.me])],
            signer: adapter.signer)
        let outcome = await connect(adapter, ["id": 7, "method": "sign", "params": IconGatewayTests.vIcon7A], queue)
        #expect(outcome == .pending)
        let entry = try #require(queue.queued.first)
        #expect(entry.scheme == "icon")
        #expect((entry.replies as? IconReplies)?.shape == .connect(7))
        let signed = try #require(try entry.sign?())
        let base64 = try #require((signed.value as? JSONValue)?.stringValue)
        #expect(Data(base64Encoded: base64).map(Array.init) == signed.signature)
        #expect(signed.signature.count == 65)
    }

    @Test func aSendWithoutANodeIsAnsweredAtOnceAndNothingIsQueued() async throws {
        let adapter = try adapter()
        let queue = BridgeQueueDouble(
            sites: [AuthorizedSite(source: Fixture.site, appName: "Dapp", accounts: [IconGatewayTests.me])],
            signer: adapter.signer)
        let body: JSONValue = [
            "id": 8, "method": "sendICX",
            "params": ["from": .string(IconGatewayTests.me), "to": .string(IconGatewayTests.other), "value": "0x1"],
        ]
        guard case .reply(let reply) = await connect(adapter, body, queue), case .response(let answer) = reply.body
        else {
            Issue.record("expected an immediate answer")
            return
        }
        #expect(answer["id"] == 8)
        #expect(answer["code"]?.integer(as: Int.self) == IconConnectError.noNode.code)
        #expect(queue.queued.isEmpty)
    }

    @Test func aBindIsAlwaysPutToThePersonAndSignsNothing() async throws {
        let adapter = try adapter()
        let queue = BridgeQueueDouble(
            sites: [AuthorizedSite(source: Fixture.site, appName: "Dapp", accounts: [IconGatewayTests.me])],
            signer: adapter.signer)
        #expect(await connect(adapter, ["id": 1, "method": "bind"], queue) == .pending)
        let entry = try #require(queue.queued.first)
        #expect(entry.sign == nil && entry.scheme == nil)
        #expect((entry.replies as? IconReplies)?.shape == .connect(1))
    }
}
