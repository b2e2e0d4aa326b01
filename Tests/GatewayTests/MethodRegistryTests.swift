import Gateway
import Primitives
import SignerCore
import Testing

@Suite struct MethodRegistryTests {
    /// The polkadot-js `Tabs.ts` message names the gateway answers, each registered once.
    @Test func everyPolkadotMessageIsRegisteredUnderItsWireName() throws {
        let registry = try MethodRegistry.standard()
        #expect(
            registry.names.filter { $0.hasPrefix("pub(") } == [
                "pub(accounts.list)", "pub(accounts.subscribe)", "pub(accounts.unsubscribe)", "pub(authorize.tab)",
                "pub(bytes.sign)", "pub(extrinsic.sign)", "pub(metadata.list)", "pub(metadata.provide)",
                "pub(phishing.redirectIfDenied)", "pub(ping)", "pub(rpc.listProviders)",
            ])
        for method in PolkadotMethod.allCases {
            #expect(registry.method(named: method.type.name) == .polkadot(method))
            #expect(method.type.wireProtocol == .polkadot)
        }
        #expect(registry.method(named: "pub(unknown)") == nil)
        #expect(registry.method(named: "PUB(PING)") == nil)
    }

    @Test func aNameRegisteredTwiceIsRefused() {
        #expect(throws: GatewayError.self) {
            try MethodRegistry(
                methods: [.polkadot(.ping), .polkadot(.ping)], mappers: [.polkadot: PolkadotErrorMapper()])
        }
    }

    /// Parameters of the wrong type become the protocol's error reply, never a throw past the service.
    @Test(arguments: [
        ("pub(accounts.list)", #"{"anyType":"yes"}"#), ("pub(accounts.unsubscribe)", #"{"id":5}"#),
        ("pub(bytes.sign)", #"{"address":"5Grw"}"#), ("pub(bytes.sign)", #"{"address":1,"data":"x"}"#),
        ("pub(extrinsic.sign)", #"[1]"#), ("pub(authorize.tab)", #"{"origin":7}"#),
    ])
    func mistypedParamsAreProtocolShapedErrors(message: String, request: String) async throws {
        let service = try await Fixture.service(sites: Fixture.connected())
        let reply = try await service.send(message, try JSONValue.parse(request))
        #expect(reply?.body == .error("Bad request") || reply?.body == .error("Unable to find keypair"))
    }

    @Test func typedResultsKeepThePolkadotJsShapes() throws {
        let account = Polkadot.InjectedAccount(TestAccounts.alice)
        #expect(
            try JSONValueEncoder().encode(account).serialized()
                == #"{"address":"\#(TestAccounts.alice.address)","genesisHash":null,"name":"Alice","type":"sr25519"}"#)
        let signed = Polkadot.SignerResult(id: "1", signature: "0x01", signedTransaction: nil)
        #expect(try JSONValueEncoder().encode(signed).serialized() == #"{"id":"1","signature":"0x01"}"#)
    }
}
