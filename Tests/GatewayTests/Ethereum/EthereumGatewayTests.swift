import EthereumCodec
import GatewayHTTP
import Journal
import Keystore
import Primitives
import SignerCore
import SigningKeys
import Testing

@testable import Gateway

/// `POST /v1/ethereum` through the real gateway (`DappHandler` as a value, no sockets): the person
/// decides on the approval queue, the grant lands in the one grant book, the tab's event stream gets
/// `ethereum.accountsChanged`, and a signature is journaled before the reply leaves.
@Suite struct EthereumGatewayTests {
    static let origin = "https://eth.example"
    static let dev0 = EthereumServiceTests.dev0

    static func post(_ body: String, session: String = "eth-tab-0001") -> HTTPRequest {
        ProtocolSeamTests.request(origin, "/v1/ethereum", body, session: session)
    }

    static func json(_ exchange: HTTPTestExchange) -> JSONValue? {
        exchange.response.flatMap { try? JSONValue.parse($0.body) }
    }

    /// Waits for the next queued approval and decides it.
    static func decide(_ g: ProtocolSeamTests.Gateway, approve: Bool) async throws {
        #expect(await ProtocolSeamTests.eventually { await !g.service.pendingApprovals.isEmpty })
        let pending = try #require(await g.service.pendingApprovals.first)
        if approve { try await g.service.approve(pending.id) } else { try await g.service.reject(pending.id) }
    }

    /// MetaMask's rule: one connection request per site at a time. A second `eth_requestAccounts`
    /// (or `wallet_requestPermissions`) while the first waits is -32002 at once and queues nothing;
    /// another site still asks; once the first is decided the site may ask again.
    @Test func aSecondConnectionRequestWhileOneWaitsIsMinus32002() async throws {
        let g = try await ProtocolSeamTests.gateway()
        let first = g.handler.start(Self.post(#"{"jsonrpc":"2.0","id":1,"method":"eth_requestAccounts"}"#))
        #expect(await ProtocolSeamTests.eventually { await g.service.pendingApprovals.count == 1 })
        for (id, method) in [(2, "eth_requestAccounts"), (3, "wallet_requestPermissions")] {
            let params = method == "wallet_requestPermissions" ? #","params":[{"eth_accounts":{}}]"# : ""
            let second = await g.handler.response(
                for: Self.post(#"{"jsonrpc":"2.0","id":\#(id),"method":"\#(method)"\#(params)}"#))
            let reply = try JSONValue.parse(second.body)
            #expect(reply["error"]?["code"] == -32002, "\(method): \(String(decoding: second.body, as: UTF8.self))")
            #expect(reply["id"] == .integer(Int64(id)))
        }
        #expect(await g.service.pendingApprovals.count == 1)
        // Another site is not affected.
        let other = g.handler.start(
            ProtocolSeamTests.request(
                "https://other.example", "/v1/ethereum", #"{"jsonrpc":"2.0","id":4,"method":"eth_requestAccounts"}"#))
        #expect(await ProtocolSeamTests.eventually { await g.service.pendingApprovals.count == 2 })
        // The first is rejected (4001); then the site may ask again.
        let firstID = try #require(await g.service.pendingApprovals.first { $0.source == Self.origin }?.id)
        try await g.service.reject(firstID)
        #expect(await ProtocolSeamTests.eventually { first.response != nil })
        #expect(Self.json(first)?["error"]?["code"] == 4001)
        let again = g.handler.start(Self.post(#"{"jsonrpc":"2.0","id":5,"method":"eth_requestAccounts"}"#))
        #expect(
            await ProtocolSeamTests.eventually {
                await g.service.pendingApprovals.contains { $0.source == Self.origin }
            })
        #expect(again.response == nil && other.response == nil)
    }

    /// EIP-3326: switching chains withdraws the site's Ethereum prompts made for the old chain (the
    /// dapp gets 4001, nothing is signed), and with endpoints configured a site never signs for a
    /// chain no reachable endpoint serves.
    @Test func aChainSwitchWithdrawsWhatWasAskedForTheOldChain() async throws {
        let g = try await ProtocolSeamTests.gateway()
        let ethereum = EthereumService(
            signer: EthereumTestSigner(inner: g.signer), grants: g.service, approver: g.service,
            endpoints: [EthereumRPCTestDouble(chainId: 1), EthereumRPCTestDouble(chainId: 5)])
        func call(_ body: String) async -> JSONValue {
            await ethereum.handle(body: Array(body.utf8), origin: Self.origin)
        }
        let connect = Task { await call(#"{"jsonrpc":"2.0","id":1,"method":"eth_requestAccounts"}"#) }
        try await Self.decide(g, approve: true)
        #expect(await connect.value["result"] == [.string(Self.dev0.lowercased())])
        let sign = Task {
            await call(#"{"jsonrpc":"2.0","id":2,"method":"personal_sign","params":["0x6869","\#(Self.dev0)"]}"#)
        }
        #expect(await ProtocolSeamTests.eventually { await g.service.pendingApprovals.count == 1 })
        let switched = await call(
            #"{"jsonrpc":"2.0","id":3,"method":"wallet_switchEthereumChain","params":[{"chainId":"0x5"}]}"#)
        #expect(switched["result"] == .null && switched["error"] == nil, "\(switched)")
        #expect(await sign.value["error"]?["code"] == 4001)
        #expect(await g.service.pendingApprovals.isEmpty)
        #expect(await call(#"{"jsonrpc":"2.0","id":4,"method":"eth_chainId"}"#)["result"] == "0x5")
    }

    /// A node must not speak for the person or the wallet: only its own error codes pass.
    @Test(arguments: [(4001, -32603), (4100, -32603), (4900, -32603), (-32000, -32000), (3, 3), (-32601, -32603)])
    func anEndpointsErrorCodesAreItsOwnOnly(sent: Int, seen: Int) {
        let body = #"{"jsonrpc":"2.0","id":1,"error":{"code":\#(sent),"message":"no"}}"#
        do {
            _ = try HTTPEthereumRPC.result(of: Array(body.utf8), status: 200, name: "node")
            Issue.record("an error answer was taken as a result")
        } catch {
            #expect(error.code == seen)
        }
    }

    @Test func aConnectionIsGrantedPushedAndThenSignaturesAreJournaled() async throws {
        let g = try await ProtocolSeamTests.gateway()
        let tab = ClientIdentity(source: Self.origin, session: "eth-tab-0001")
        let events = try await g.service.events(for: tab, after: nil)
        // Before a connection: no accounts, signing is 4100.
        let before = await g.handler.response(for: Self.post(#"{"jsonrpc":"2.0","id":1,"method":"eth_accounts"}"#))
        #expect((try? JSONValue.parse(before.body))?["result"] == [])
        let unauthorized = await g.handler.response(
            for: Self.post(#"{"jsonrpc":"2.0","id":2,"method":"personal_sign","params":["hi","\#(Self.dev0)"]}"#))
        #expect((try? JSONValue.parse(unauthorized.body))?["error"]?["code"] == 4100)

        let connect = g.handler.start(Self.post(#"{"jsonrpc":"2.0","id":3,"method":"eth_requestAccounts"}"#))
        try await Self.decide(g, approve: true)
        #expect(await ProtocolSeamTests.eventually { connect.response != nil })
        #expect(Self.json(connect)?["result"] == [.string(Self.dev0.lowercased())])
        #expect(Self.json(connect)?["id"] == 3)
        #expect(await g.service.sites.first { $0.source == Self.origin }?.accounts == [Self.dev0])
        // The tab hears accountsChanged on its event stream.
        var iterator = events.makeAsyncIterator()
        let event = try #require(await iterator.next())
        #expect(
            event.reply.json == ["id": "ethereum.accountsChanged", "subscription": [.string(Self.dev0.lowercased())]])

        // A signature: approved, journaled with what was shown, then answered.
        let sign = g.handler.start(
            Self.post(#"{"jsonrpc":"2.0","id":"s","method":"personal_sign","params":["0x68656c6c6f","\#(Self.dev0)"]}"#)
        )
        try await Self.decide(g, approve: true)
        #expect(await ProtocolSeamTests.eventually { sign.response != nil })
        let signatureText = try #require(Self.json(sign)?["result"]?.stringValue)
        let signature = try Hex.decode(signatureText, prefix: .required)
        #expect(try PersonalMessage.recoverSigner(Array("hello".utf8), signature: signature).checksummed == Self.dev0)
        let entries = try JournalPathTests.entries(g.journal)
        let signed = try #require(entries.last)
        #expect(signed.content.protocolName == "ethereum")
        #expect(signed.content.method == "personal_sign")
        #expect(signed.content.origin == Self.origin)
        #expect(signed.content.decision == "approved")
        #expect(signed.content.account == Self.dev0, "the journal records the account that signed")

        // Rejected: 4001, nothing journaled as signed.
        let rejected = g.handler.start(
            Self.post(#"{"jsonrpc":"2.0","id":"r","method":"personal_sign","params":["0x00","\#(Self.dev0)"]}"#))
        try await Self.decide(g, approve: false)
        #expect(await ProtocolSeamTests.eventually { rejected.response != nil })
        #expect(Self.json(rejected)?["error"]?["code"] == 4001)
        #expect(try JournalPathTests.entries(g.journal).last?.content.decision == "rejected")

        // Revoking the site (approval page) ends the Ethereum grant.
        #expect(try await g.service.revoke(Self.origin))
        // The tab hears accountsChanged [] (after the replies of its own requests, none of them events).
        let revoked = try #require(await iterator.next())
        #expect(revoked.reply.json == ["id": "ethereum.accountsChanged", "subscription": []])
        let after = await g.handler.response(for: Self.post(#"{"jsonrpc":"2.0","id":9,"method":"eth_accounts"}"#))
        #expect((try? JSONValue.parse(after.body))?["result"] == [])
    }

    @Test(arguments: [
        ("text/plain", 415), ("application/json", 200),
    ])
    func theRouteChecksTheContentTypeFirst(contentType: String, status: Int) async throws {
        let g = try await ProtocolSeamTests.gateway()
        var request = Self.post(#"{"jsonrpc":"2.0","id":1,"method":"eth_chainId"}"#)
        request.headers.set("Content-Type", contentType)
        let response = await g.handler.response(for: request)
        #expect(Int(response.status.code) == status)
        if status == 200 { #expect((try? JSONValue.parse(response.body))?["result"] == "0x1") }
    }

    @Test(arguments: [
        ("not json", -32603, 200),
        ("{\"jsonrpc\":\"2.0\",\"id\":1,\"error\":{\"code\":-32000,\"message\":\"nonce too low\"}}", -32000, 200),
        ("{\"jsonrpc\":\"2.0\",\"id\":1}", -32603, 200),
    ])
    func anEndpointsAnswerIsReadStrictly(body: String, code: Int, status: Int) {
        #expect(throws: EthereumRPCError(code, "")) {
            try HTTPEthereumRPC.result(of: Array(body.utf8), status: status, name: "http://node:8545")
        }
    }

    @Test func endpointURLsMustBeHTTP() {
        #expect(throws: EthereumRPCError.self) { try HTTPEthereumRPC(url: "file:///etc/passwd") }
        #expect((try? HTTPEthereumRPC(url: "https://rpc.example/v3/secret-key"))?.name == "https://rpc.example:443")
    }
}
