import Foundation
import ICPCodec
import Primitives
import SignerCore
import SigningKeys
import Synchronization
import Testing

@testable import Gateway

/// ICRC-25/27/29/49 over IcrcService with a scripted person, in-memory permissions and a fake
/// network (docs/protocol.md, ICP section).
@Suite struct IcrcServiceTests {
    final class Person: ApprovalSeam, @unchecked Sendable {
        let answers = Mutex<[Bool]>([])
        let seen = Mutex<[(String, [SummaryRow])]>([])
        init(_ answers: [Bool]) { self.answers.withLock { $0 = answers } }
        func decide(origin: String, _ request: AdapterApproval) async -> Bool? {
            seen.withLock { $0.append((request.title, request.summary)) }
            return answers.withLock { $0.isEmpty ? false : $0.removeFirst() }
        }
        /// Signs only what it approved, after approving it.
        func decideAndSign<T: Sendable>(
            origin: String, _ request: AdapterApproval, sign: @escaping @Sendable () throws -> (T, [UInt8])
        ) async throws(GatewayError) -> T? {
            guard await decide(origin: origin, request) == true else { return nil }
            do {
                return try sign().0
            } catch {
                throw GatewayError(.signingFailed, "not signed")
            }
        }
        var count: Int { seen.withLock { $0.count } }
    }

    final class Memory: IcrcPermissionStore, @unchecked Sendable {
        let sites = Mutex<[String: IcrcSitePermissions]>([:])
        let blind = Mutex<Set<String>>([])
        func load(_ origin: String) async throws -> IcrcSitePermissions? {
            let on = blind.withLock { $0.contains(origin) }
            return sites.withLock { $0[origin] }.map { IcrcSitePermissions(scopes: $0.scopes, blindSigning: on) }
                ?? IcrcSitePermissions(blindSigning: on)
        }
        func setScopes(_ states: [String: IcrcSitePermissions.State], for origin: String) async throws {
            sites.withLock { $0[origin, default: IcrcSitePermissions()].scopes.merge(states) { $1 } }
        }
        func clear(_ origin: String) async throws { _ = sites.withLock { $0.removeValue(forKey: origin) } }
    }

    /// A network that checks the envelope like a replica (signature, sender) and returns a marker.
    struct Replica: IcNetwork {
        func submit(canister: Principal, call: SignedIcpCall) async throws(IcrcError) -> [UInt8] {
            guard let envelope = try? ICPEnvelope(cborBytes: call.envelope), envelope.content.canisterId == canister
            else {
                throw IcrcError(.networkError, "replica refused")
            }
            return [0xd9, 0xd9, 0xf7] + call.requestId
        }
    }

    static let now: UInt64 = 1_700_000_000_000_000_000
    static let origin = "https://dapp.example"
    static let arg =
        "RElETAZte24AbAKzsNrDA2ithsqDBQFufW54bAb7ygECxvy2AgO6ieXCBAGi3pTrBgGC8/ORDATYo4yoDX0BBQEdP0Duk4WbdYJC1svDpO9SpE+aElxKU7FNBuH2LAIAAAAAAMCWsQI="

    static func key() throws -> IcpKeyPair {
        try IcpKeyPair(secretKey: SecretBytes([UInt8](repeating: 0x41, count: 32)), algorithm: .secp256k1)
    }

    static func service(_ person: Person, network: (any IcNetwork)? = Replica(), store: Memory = Memory()) throws
        -> IcrcService
    {
        IcrcService(
            registry: try MethodRegistry.standard(), signer: IcpCallSigner(keys: [try key()]), permissions: store,
            approver: person, network: network,
            now: { IcrcServiceTests.now })
    }

    static func ask(_ s: IcrcService, _ method: String, _ params: JSONValue = .null, origin: String = origin) async
        -> JSONValue
    {
        await s.handle(IcrcRequest(id: 7, method: method, params: params), origin: origin)
    }

    static func call(method: String = "icrc1_transfer") throws -> JSONValue {
        [
            "canisterId": "ryjl3-tyaaa-aaaaa-aaaba-cai",
            "sender": .string(Principal(selfAuthenticating: try key().derPublicKey).text), "method": .string(method),
            "arg": .string(arg),
        ]
    }

    static func code(_ reply: JSONValue) -> Int? { reply["error"]?["code"]?.integer(as: Int.self) }

    @Test func statusStandardsAndUnknownMethods() async throws {
        let s = try Self.service(Person([]))
        #expect(await Self.ask(s, "icrc29_status")["result"] == "ready")
        let standards = await Self.ask(s, "icrc25_supported_standards")["result"]?["supportedStandards"]?.arrayValue
        #expect(standards?.compactMap { $0["name"]?.stringValue } == ["ICRC-25", "ICRC-27", "ICRC-29", "ICRC-49"])
        #expect(Self.code(await Self.ask(s, "icrc99_anything")) == 2000)
        #expect(
            Self.code(await s.handle(body: Array(#"{"id":1,"method":"icrc29_status"}"#.utf8), origin: Self.origin))
                == -32600)
        #expect(Self.code(await s.handle(body: Array("{".utf8), origin: Self.origin)) == -32700)
        let reply = await s.handle(
            body: Array(#"{"jsonrpc":"2.0","id":"a","method":"icrc29_status"}"#.utf8), origin: Self.origin)
        #expect(reply["id"] == "a")
    }

    @Test func permissionsAreAskedOncePerOriginAndPersist() async throws {
        let person = Person([true])
        let store = Memory()
        let s = try Self.service(person, store: store)
        let scopes: JSONValue = ["scopes": [["method": "icrc27_accounts"], ["method": "icrc49_call_canister"]]]
        let granted = await Self.ask(s, "icrc25_request_permissions", scopes)
        #expect(granted["result"]?["scopes"]?.arrayValue?.allSatisfy { $0["state"] == "granted" } == true)
        let accounts = await Self.ask(s, "icrc27_accounts")["result"]?["accounts"]?.arrayValue
        #expect(
            accounts?.first?["owner"]?.stringValue == Principal(selfAuthenticating: try Self.key().derPublicKey).text)
        #expect(person.count == 1)
        // Another origin has nothing; a fresh service over the same store remembers the first.
        #expect(
            await Self.ask(s, "icrc25_permissions", origin: "https://other.example")["result"]?["scopes"]?.arrayValue?
                .allSatisfy { $0["state"] == "ask_on_use" } == true)
        let again = try Self.service(Person([]), store: store)
        #expect(await Self.ask(again, "icrc27_accounts")["result"] != nil)
    }

    @Test func rejectedPermissionGives3000() async throws {
        let s = try Self.service(Person([false]))
        _ = await Self.ask(s, "icrc25_request_permissions", ["scopes": [["method": "icrc27_accounts"]]])
        #expect(Self.code(await Self.ask(s, "icrc27_accounts")) == 3000)
        #expect(Self.code(await Self.ask(s, "icrc49_call_canister", try Self.call())) == 3000)
    }

    @Test func approvedCallReturnsContentMapAndCertificate() async throws {
        let person = Person([true, true])
        let s = try Self.service(person)
        _ = await Self.ask(s, "icrc25_request_permissions", ["scopes": [["method": "icrc49_call_canister"]]])
        let reply = await Self.ask(s, "icrc49_call_canister", try Self.call())
        let contentMap = try #require(reply["result"]?["contentMap"]?.stringValue.flatMap { Data(base64Encoded: $0) })
        let content = try ICPRequestContent(contentMap: Array(contentMap))
        #expect(content.methodName == "icrc1_transfer")
        let certificate = try #require(reply["result"]?["certificate"]?.stringValue.flatMap { Data(base64Encoded: $0) })
        #expect(Array(certificate.dropFirst(3)) == content.requestId)
        // What the person saw for the call: the ledger, the amount, the request id.
        let rows = try #require(person.seen.withLock { $0.last?.1 })
        #expect(rows.contains { $0.value == "ryjl3-tyaaa-aaaaa-aaaba-cai (ICP ledger)" })
        #expect(rows.contains { $0.label == "Amount" && $0.value == "0.05 ICP" })
        #expect(
            rows.contains {
                $0.label == "request id" && $0.value == "0x" + Hex.encode(content.requestId, prefix: false)
            })
    }

    @Test func rejectedCallGives3001AndNoNetworkGives4000() async throws {
        let s = try Self.service(Person([true, false]))
        _ = await Self.ask(s, "icrc25_request_permissions", ["scopes": [["method": "icrc49_call_canister"]]])
        #expect(Self.code(await Self.ask(s, "icrc49_call_canister", try Self.call())) == 3001)
        let person = Person([true])
        let offline = try Self.service(person, network: nil)
        _ = await Self.ask(offline, "icrc25_request_permissions", ["scopes": [["method": "icrc49_call_canister"]]])
        let reply = await Self.ask(offline, "icrc49_call_canister", try Self.call())
        #expect(Self.code(reply) == 4000)
        // ICRC-25: 4000 carries {status, message} only when an HTTP answer came; none did.
        #expect(reply["error"]?["data"] == nil)
        #expect(person.count == 1)  // nobody was asked to sign a call that cannot be sent
    }

    @Test func blindSigningNeedsTheSitesOptIn() async throws {
        let store = Memory()
        let s = try Self.service(Person([true, true]), store: store)
        _ = await Self.ask(s, "icrc25_request_permissions", ["scopes": [["method": "icrc49_call_canister"]]])
        #expect(Self.code(await Self.ask(s, "icrc49_call_canister", try Self.call(method: "set_controller"))) == 2001)
        store.blind.withLock { _ = $0.insert(Self.origin) }
        #expect(await Self.ask(s, "icrc49_call_canister", try Self.call(method: "set_controller"))["result"] != nil)
        // Only for that origin.
        #expect(try await s.sitePermissions("https://other.example").blindSigning == false)
    }
}

extension IcrcServiceTests {
    /// The offline method: no network needed, every envelope verifies, read_state pairs match.
    @Test func offlineEnvelopesSeries() async throws {
        let s = try Self.service(Person([true, true]), network: nil)
        _ = await Self.ask(s, "icrc25_request_permissions", ["scopes": [["method": "icrc49_call_canister"]]])
        var params = try Self.call()
        params = params.adding("windowSeconds", 600)
        let reply = await Self.ask(s, "sigil_icp_sign_envelopes", params)
        let envelopes = try #require(reply["result"]?["envelopes"]?.arrayValue)
        #expect(envelopes.count == 6)
        for e in envelopes {
            let bytes = try #require(e["envelope"]?.stringValue.flatMap { Data(base64Encoded: $0) })
            let envelope = try ICPEnvelope(cborBytes: Array(bytes))
            #expect(Hex.encode(envelope.requestId, prefix: false) == e["requestId"]?.stringValue)
            #expect(String(envelope.content.ingressExpiry) == e["ingressExpiry"]?.stringValue)
            let rs = try #require(e["readStateEnvelope"]?.stringValue.flatMap { Data(base64Encoded: $0) })
            #expect(try ICPEnvelope(cborBytes: Array(rs)).content.paths?.first?.last == envelope.requestId)
        }
        #expect(
            Self.code(await Self.ask(s, "sigil_icp_sign_envelopes", try Self.call().adding("windowSeconds", 90_000)))
                == 1000)
    }
}
