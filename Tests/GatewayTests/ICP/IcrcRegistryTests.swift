import Primitives
import SignerCore
import Testing

@testable import Gateway

/// ICRC on the typed method registry: the wire names, the lookup that `POST /v1/icrc` and the
/// ICRC-29 relay dispatch through, and the ICRC-25 error table of ``IcrcErrorMapper``.
@Suite struct IcrcRegistryTests {
    /// The wire names of ICRC-25/27/29/49 and Sigil's offline method, each registered once under
    /// the `.icrc` protocol.
    @Test func everyIcrcMethodIsRegisteredUnderItsWireName() throws {
        let registry = try MethodRegistry.standard()
        #expect(
            registry.names.filter { $0.hasPrefix("icrc") || $0.hasPrefix("sigil_") } == [
                "icrc25_permissions", "icrc25_request_permissions", "icrc25_supported_standards", "icrc27_accounts",
                "icrc29_status", "icrc49_call_canister", "sigil_icp_sign_envelopes",
            ])
        for method in IcrcMethod.allCases {
            #expect(registry.method(named: method.name) == .icrc(method))
            #expect(method.type.wireProtocol == .icrc)
            #expect(method.type.needsConnectedSite == false)
        }
        #expect(registry.method(named: "icrc99_anything") == nil)
        #expect(registry.method(named: "ICRC25_PERMISSIONS") == nil)
    }

    /// One name, one method, across every protocol (the registry refuses duplicates; this checks the
    /// standard set is what the closed enums list).
    @Test func namesAreUniqueAcrossProtocols() throws {
        let registry = try MethodRegistry.standard()
        let all =
            PolkadotMethod.allCases.map { $0.type.name } + IconMethod.allCases.map { $0.type.name }
            + IcrcMethod.allCases.map(\.name)
        #expect(Set(all).count == all.count)
        #expect(registry.names == all.sorted())
        #expect(throws: GatewayError.self) {
            try MethodRegistry(methods: [.icrc(.status), .icrc(.status)], mappers: [.icrc: IcrcErrorMapper()])
        }
        #expect(throws: GatewayError.self) {
            try MethodRegistry(methods: [.icrc(.status)], mappers: [.polkadot: PolkadotErrorMapper()])
        }
    }

    /// Only the two ICRC-25 scopes are asked for; the offline method rides on the call scope.
    @Test func scopesOfTheMethods() {
        #expect(IcrcMethod.scoped.map(\.name) == ["icrc27_accounts", "icrc49_call_canister"])
        #expect(IcrcMethod.allCases.filter { $0.scope != nil } == [.accounts, .callCanister, .signEnvelopes])
        #expect(IcrcMethod.signEnvelopes.scope == .callCanister)
    }

    /// The ICRC-25 error of each kind of failure (docs/protocol.md, ICP errors).
    @Test(arguments: [
        (IcrcError(.networkError, "x") as any Error, 4000),
        (IcrcError(.actionAborted, "x") as any Error, 3001),
        (GatewayError(.unknownMessage, "icrc99") as any Error, 2000),
        (SignerError(.unknownAccount, "sender") as any Error, 3000),
        (SignerError(.blindSigningOff, "set_controller") as any Error, 2001),
        (SignerError(.rejected, "no") as any Error, 3001),
        (SignerError(.cancelled, "tab closed") as any Error, 3001),
        (SignerError(.expired, "late") as any Error, 3001),
        (SignerError(.invalidInput, "arg") as any Error, 1000),
        (GatewayError(.notAllowed, "denied") as any Error, 1000),
        (CancellationError() as any Error, 1000),
    ])
    func errorCodes(error: any Error, code: Int) {
        let mapped = IcrcErrorMapper.error(for: error)
        #expect(mapped.code.rawValue == code)
        let body = IcrcErrorMapper().body(for: error, source: "https://dapp.example")
        #expect(body == .response(mapped.json))
        #expect(mapped.json["message"]?.stringValue == mapped.code.message)
    }

    /// Each code's message is the one ICRC-25 and JSON-RPC 2.0 give it.
    @Test(arguments: [
        (IcrcErrorCode.genericError, 1000, "Generic error"), (.notSupported, 2000, "Not supported"),
        (.noConsentMessage, 2001, "No consent message"), (.permissionNotGranted, 3000, "Permission not granted"),
        (.actionAborted, 3001, "Action aborted"), (.networkError, 4000, "Network error"),
        (.invalidRequest, -32600, "Invalid Request"), (.parseError, -32700, "Parse error"),
    ])
    func codeTable(code: IcrcErrorCode, value: Int, message: String) {
        #expect(code.rawValue == value && code.message == message)
    }

    /// Through the service: an unknown name, and another protocol's name, are 2000; a request that
    /// is not JSON-RPC 2.0 is -32600; mistyped parameters are 1000 naming the shape, not the input.
    @Test(
        arguments: [
            ("icrc99_anything", JSONValue.null, 2000), ("pub(ping)", JSONValue.null, 2000),
            ("icon(address)", JSONValue.null, 2000),
            ("icrc25_request_permissions", ["scopes": "icrc27_accounts"] as JSONValue, 1000),
            ("icrc25_request_permissions", ["scopes": []] as JSONValue, 1000),
            ("icrc25_request_permissions", ["scopes": [["method": 27]]] as JSONValue, 1000),
        ] as [(String, JSONValue, Int)])
    func unknownAndMistyped(method: String, params: JSONValue, code: Int) async throws {
        let s = try IcrcServiceTests.service(IcrcServiceTests.Person([]))
        let reply = await IcrcServiceTests.ask(s, method, params)
        #expect(IcrcServiceTests.code(reply) == code)
        #expect(reply["id"] == 7 && reply["jsonrpc"] == "2.0" && reply["result"] == nil)
    }

    @Test func mistypedWindowIsRefusedBeforeAnyoneIsAsked() async throws {
        let person = IcrcServiceTests.Person([true])
        let s = try IcrcServiceTests.service(person, network: nil)
        _ = await IcrcServiceTests.ask(
            s, "icrc25_request_permissions", ["scopes": [["method": "icrc49_call_canister"]]])
        let reply = await IcrcServiceTests.ask(
            s, "sigil_icp_sign_envelopes", try IcrcServiceTests.call().adding("windowSeconds", "600"))
        #expect(IcrcServiceTests.code(reply) == 1000)
        #expect(person.count == 1)
    }

    /// On the bridge transport (`/v1/request`) an ICRC name is not dispatched: it is answered with
    /// the ICRC-25 "not supported" object and nothing is journaled or queued.
    @Test func icrcNamesOnTheBridgeTransportAreNotSupported() async throws {
        let service = try await Fixture.service(sites: Fixture.connected())
        let reply = try #require(try await service.send("icrc49_call_canister", ["sender": "x"]))
        guard case .response(let object) = reply.body else {
            Issue.record("expected an ICRC error object, got \(reply.body)")
            return
        }
        #expect(object["code"] == 2000)
        #expect(await service.pendingApprovals.isEmpty)
    }
}
