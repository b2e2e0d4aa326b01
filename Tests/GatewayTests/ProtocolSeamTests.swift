import Foundation
import GatewayHTTP
import ICPCodec
import Journal
import Keystore
import Logging
import Primitives
import SignerCore
import SigningKeys
import StateStore
import Testing

@testable import Gateway

/// The protocol seam (issue 24 items 1, 2, 3, 4, 5, 7, 11): one hostile script run against every
/// protocol entry of the dapp port — polkadot `/v1/request`, the ICON relay on `/v1/request`, ICONex
/// Connect `POST` and `GET /icon/connect`, ICRC `/v1/icrc`, the ICRC-29 relay `/v1/icrc29`, Ethereum
/// `/v1/ethereum`, and a protocol added as a test fixture (`FixtureProtocol`, one registration line)
/// — with
/// the same outcome for all: a never-connected origin is rate-limited (429), deny-listed before any
/// prompt, takes a strangers' place whose prompt ends when its client goes away, and cannot write
/// more than a bounded number of journal entries; a grant of any protocol is in the one grant book
/// (`/api/state`, `sigil origins list`), and revoking it ends it, also across a restart. Socket-free:
/// every request goes through `DappHandler` as a value (`HTTPHandler.start`/`response(for:)`).
@Suite struct ProtocolSeamTests {
    static let port = 9715
    static let own = "http://127.0.0.1:9715"
    static let relayToken = String(repeating: "r", count: 64)
    static let iconKey = "38f792b95a5202ab431bfc799f7e1e5c74ec0b9ede5c6142ee7364f2c84d72f6"

    /// One dapp-port entry point: how to ask it something answered at once, and something that asks
    /// a person; `answersPending` when the prompt's HTTP answer is 202 at once (its reply comes on the
    /// session's event log; the tab goes away with `POST /v1/session/close`), otherwise the request
    /// itself waits for the person (the client goes away by dropping the connection).
    struct Entry: Sendable, CustomTestStringConvertible {
        let name: String
        let quick: @Sendable (_ origin: String, _ n: Int) -> HTTPRequest
        let prompt: @Sendable (_ origin: String, _ n: Int) -> HTTPRequest
        let answersPending: Bool
        /// Whether a reply is this protocol's refusal of a denied host.
        let isDenial: @Sendable (HTTPResponse) -> Bool
        var testDescription: String { name }

        static let all: [Entry] = [
            Entry(
                name: "polkadot /v1/request",
                quick: { origin, n in request(origin, "/v1/request", wire("pub(ping)"), session: session(origin, n)) },
                prompt: { origin, n in
                    request(
                        origin, "/v1/request", wire("pub(authorize.tab)", #"{"origin":"x"}"#),
                        session: session(origin, n))
                },
                answersPending: true,
                isDenial: { $0.status.code == 200 && json($0)?["error"]?.stringValue?.contains("not allowed") == true }),
            Entry(
                name: "ICON relay /v1/request",
                quick: { origin, n in relay(origin, wire("icon(hasAccount)"), session: session(origin, n)) },
                prompt: { origin, n in relay(origin, wire("icon(address)"), session: session(origin, n)) },
                answersPending: true,
                isDenial: { $0.status.code == 200 && json($0)?["response"]?["code"] == -1000 }),
            Entry(
                name: "ICON POST /icon/connect",
                quick: { origin, _ in request(origin, "/icon/connect", #"{"id":1,"method":"nothing"}"#) },
                prompt: { origin, _ in request(origin, "/icon/connect", #"{"id":1,"method":"bind"}"#) },
                answersPending: false,
                isDenial: { $0.status.code == 200 && json($0)?["code"] == -1000 }),
            Entry(
                name: "ICON GET /icon/connect",
                quick: { origin, _ in connectURL(origin, #"{"id":1,"method":"nothing"}"#) },
                prompt: { origin, _ in connectURL(origin, #"{"id":1,"method":"bind"}"#) },
                answersPending: false,
                isDenial: { response in
                    guard response.status.code == 303, let location = response.headers["Location"],
                        let data = location.components(separatedBy: "data=").last?.removingPercentEncoding,
                        let bytes = Data(base64Encoded: data)
                    else { return false }
                    return (try? JSONValue.parse(Array(bytes)))?["code"] == -1000
                }),
            Entry(
                name: "ICRC /v1/icrc",
                quick: { origin, _ in request(origin, "/v1/icrc", rpc("icrc29_status")) },
                prompt: { origin, _ in request(origin, "/v1/icrc", rpc("icrc27_accounts")) },
                answersPending: false,
                isDenial: { $0.status.code == 200 && json($0)?["error"]?["code"] == 3000 }),
            Entry(
                name: "ICRC-29 relay /v1/icrc29",
                quick: { origin, _ in icrc29(origin, rpc("icrc29_status")) },
                prompt: { origin, _ in icrc29(origin, rpc("icrc27_accounts")) },
                answersPending: false,
                isDenial: { $0.status.code == 200 && json($0)?["error"]?["code"] == 3000 }),
            Entry(
                name: "Ethereum /v1/ethereum",
                quick: { origin, _ in request(origin, "/v1/ethereum", rpc("eth_chainId")) },
                prompt: { origin, _ in request(origin, "/v1/ethereum", rpc("eth_requestAccounts")) },
                answersPending: false,
                isDenial: { $0.status.code == 200 && json($0)?["error"]?["code"] == 4100 }),
            Entry(
                name: "fixture protocol /v1/fixture",
                quick: { origin, _ in request(origin, "/v1/fixture", rpc("fixture_status")) },
                prompt: { origin, _ in request(origin, "/v1/fixture", rpc("fixture_connect")) },
                answersPending: false,
                isDenial: { $0.status.code == 200 && json($0)?["error"]?["code"] == 4100 }),
        ]
    }

    // MARK: Requests

    static func session(_ origin: String, _ n: Int) -> String {
        "tab" + String(UInt32(truncatingIfNeeded: origin.hashValue), radix: 16) + "x\(n)"
    }

    static func wire(_ message: String, _ request: String = "null") -> String {
        #"{"id":"r1","message":"\#(message)","request":\#(request)}"#
    }

    static func rpc(_ method: String) -> String { #"{"jsonrpc":"2.0","id":7,"method":"\#(method)"}"# }

    static func headers(_ pairs: [(String, String)]) -> HTTPHeaders {
        var headers: HTTPHeaders = [:]
        for (name, value) in [("Host", "127.0.0.1:\(port)")] + pairs { headers.set(name, value) }
        return headers
    }

    static func request(_ origin: String, _ path: String, _ body: String, session: String? = nil) -> HTTPRequest {
        var pairs = [("Origin", origin), ("Content-Type", "application/json")]
        if let session { pairs.append(("X-Sigil-Session", session)) }
        var request = HTTPRequest(method: .post, target: path, headers: headers(pairs), body: Array(body.utf8))
        request.localPort = port
        return request
    }

    static func relay(_ origin: String, _ body: String, session: String, path: String = "/v1/request") -> HTTPRequest {
        var request = HTTPRequest(
            method: .post, target: path,
            headers: headers([
                ("Authorization", "Bearer \(relayToken)"), ("X-Sigil-Relay-Origin", origin),
                ("Content-Type", "application/json"), ("X-Sigil-Session", session),
            ]), body: Array(body.utf8))
        request.localPort = port
        return request
    }

    static func icrc29(_ origin: String, _ body: String) -> HTTPRequest {
        var request = HTTPRequest(
            method: .post, target: "/v1/icrc29",
            headers: headers([
                ("Origin", own), ("X-Sigil-ICRC29-Origin", origin), ("Content-Type", "application/json"),
            ]), body: Array(body.utf8))
        request.localPort = port
        return request
    }

    static func connectURL(_ origin: String, _ body: String) -> HTTPRequest {
        let data = Data(body.utf8).base64EncodedString().replacingOccurrences(of: "+", with: "%2B")
            .replacingOccurrences(of: "/", with: "%2F").replacingOccurrences(of: "=", with: "%3D")
        let caller = (origin + "/page").addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
        var request = HTTPRequest(
            method: .get, target: "/icon/connect?data=\(data)&caller=\(caller)",
            headers: headers([("Referer", origin + "/page")]))
        request.localPort = port
        return request
    }

    static func json(_ response: HTTPResponse) -> JSONValue? { try? JSONValue.parse(response.body) }

    // MARK: The gateway under test

    struct Gateway {
        let service: GatewayService
        let handler: DappHandler
        let store: SQLiteStateStore
        let journal: StateStoreJournal
        let clock: TestClock
        let signer: SigningService
    }

    static func iconPair() throws -> IconKeyPair {
        try IconKeyPair(secretKey: SecretBytes(try Hex.decode(iconKey, prefix: .forbidden)))
    }

    /// A gateway with //Alice and an ICON key, everything kept in one SQLite state store (grants, ICRC
    /// scopes, blind signing, the journal), `Fixture.site` connected; `store` restarts on an old one.
    static func gateway(
        denied: Set<String> = [], store: SQLiteStateStore? = nil, journal: StateStoreJournal? = nil,
        clock: TestClock = TestClock()
    ) async throws -> Gateway {
        let store = try store ?? SQLiteStateStore.inMemory()
        let journal = try journal ?? JournalPathTests.journal()
        let pair = try iconPair()
        let info = IconAccountInfo(address: pair.address, name: "K1", whenCreated: nil, isTesting: false, fileName: "")
        let signer = SigningService(
            accounts: [(TestAccounts.alice, try KeyPair(uri: "//Alice", scheme: .sr25519))],
            store: try SQLiteStateStore.inMemory(), icon: IconKeyring(accounts: [info], pairs: [pair.address: pair]))
        let persistence = StateStoreAuthorizations(store: store)
        if try store.connectedSites().isEmpty {
            _ = try await persistence.grant(
                AuthorizedSite(source: Fixture.site, appName: "Dapp", accounts: [TestAccounts.alice.key]))
        }
        let service = try await GatewayService(
            options: GatewayOptions(deniedHosts: denied), signer: signer, metadata: InMemoryMetadataRegistry(),
            persistence: persistence, clock: clock, serverID: "srv1",
            logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() }), journal: journal,
            blindSigning: StateStoreBlindSigning(store: store), icrcScopes: StateStoreIcrcPermissions(store: store))
        let icrc = IcrcService(
            registry: try MethodRegistry.standard(), signer: IcpCallSigner(keys: [try IcrcServiceTests.key()]),
            permissions: service, approver: service, network: nil, now: { IcrcServiceTests.now })
        let configuration = GatewayConfiguration(
            approvalToken: String(repeating: "a", count: 64), relayToken: relayToken, pollHold: .milliseconds(1))
        let ethereum = EthereumService(
            signer: EthereumTestSigner(inner: signer), grants: service, approver: service, endpoints: [])
        await ethereum.watchRevocations()
        let handler = DappHandler(
            service: service, configuration: configuration, files: StaticFiles(files: [:]),
            logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() }), adapters: [icrc, ethereum, try FixtureProtocol(seam: service, grants: service)])
        return Gateway(service: service, handler: handler, store: store, journal: journal, clock: clock, signer: signer)
    }

    /// Waits (yielding, no sleeping) until `condition` holds; false when it has not after a minute.
    /// The bound is a hang guard in wall time: a count of yields was not one (a journal entry's
    /// disk sync outlasted 200,000 yields on an idle machine, where yields are quickest).
    static func eventually(_ condition: () async throws -> Bool) async rethrows -> Bool {
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: .seconds(60))
        while clock.now < deadline {
            if try await condition() { return true }
            await Task.yield()
        }
        return try await condition()
    }

    /// Sends a prompt request and waits until it is answered or waits for a person.
    /// - Returns: the exchange and the approval it queued (nil when it was answered at once).
    static func ask(_ g: Gateway, _ entry: Entry, _ origin: String, _ n: Int) async throws -> (
        HTTPTestExchange, PendingApproval<ApprovalSubject>?
    ) {
        let before = Set(await g.service.pendingApprovals.map(\.id))
        let exchange = g.handler.start(entry.prompt(origin, n))
        var queued: PendingApproval<ApprovalSubject>?
        let settled = await eventually {
            // The answer is read first: a prompt is queued before any answer is sent.
            let answered = exchange.response != nil
            queued = await g.service.pendingApprovals.first { !before.contains($0.id) }
            return queued != nil ? (!entry.answersPending || answered) : answered
        }
        #expect(settled, "\(entry.name): neither answered nor queued")
        return (exchange, queued)
    }

    /// The client goes away: the connection drops, or the tab closes its session.
    static func leave(_ g: Gateway, _ entry: Entry, _ exchange: HTTPTestExchange, _ origin: String, _ n: Int) async {
        if entry.answersPending {
            let close =
                entry.name.contains("relay")
                ? relay(origin, "{}", session: session(origin, n), path: "/v1/session/close")
                : request(origin, "/v1/session/close", "{}", session: session(origin, n))
            _ = await g.handler.response(for: close)
        } else {
            exchange.drop()
        }
    }

    // MARK: The hostile script, one row per entry

    /// Item 7: 300 requests from one never-connected origin: its owner's burst is admitted, the rest
    /// is 429 before any parsing, on every entry alike (before: `/v1/icrc`, `/v1/icrc29` and
    /// `/icon/connect` answered 300 × 200).
    @Test(arguments: Entry.all) func aStrangerIsRateLimited(entry: Entry) async throws {
        let g = try await Self.gateway()
        var limited = 0
        for n in 0..<300 {
            let response = await g.handler.response(for: entry.quick("https://never.example", n % 4))
            if response.status == .tooManyRequests { limited += 1 }
        }
        #expect(limited == 300 - GatewayOptions().requestRates.stranger.capacity)
    }

    /// Item 4: a denied host is refused in its protocol's shape before anything is queued (before:
    /// ICRC showed the denied site's permission prompt with no warning).
    @Test(arguments: Entry.all) func aDeniedHostNeverReachesAPrompt(entry: Entry) async throws {
        let g = try await Self.gateway(denied: ["denied.example"])
        let (exchange, queued) = try await Self.ask(g, entry, "https://app.denied.example", 0)
        #expect(queued == nil)
        let response = try #require(exchange.response)
        #expect(entry.isDenial(response), "\(entry.name): \(String(decoding: response.body, as: UTF8.self))")
        #expect(await g.service.pendingApprovals.isEmpty)
        // Refused, and journaled as such by every protocol alike (a denied host's refusals are
        // budgeted like any stranger's).
        let entries = try JournalPathTests.entries(g.journal)
        #expect(entries.count == 1 && entries.allSatisfy { $0.content.decision == "refused" }, "\(entries.count)")
    }

    /// Items 1 and 3: 8 subdomains of one owner × 8 prompts, each client gone at once. Every prompt
    /// takes a strangers' place (at most 2 of the owner at a time) and ends with its client; the
    /// connected site's signing request still queues; the journal grows by at most the strangers'
    /// budget (before: ICRC's 64 prompts stayed for 10 minutes and filled the connected sites' queue;
    /// bind + drop journaled 3,912 entries in 10 s).
    @Test(arguments: Entry.all) func strangersTakeTheirPoolAndVanishedClientsEndTheirPrompts(entry: Entry)
        async throws
    {
        let g = try await Self.gateway()
        let owner = "evil.example"
        // Three prompts of one owner at once: the third gets no place.
        var waiting: [(HTTPTestExchange, String)] = []
        var queued = 0
        for i in 0..<3 {
            let origin = "https://w\(i).\(owner)"
            let (exchange, approval) = try await Self.ask(g, entry, origin, 100 + i)
            if let approval {
                queued += 1
                #expect(approval.isConnectionRequest, "\(entry.name): a stranger's prompt is a connection request")
            }
            waiting.append((exchange, origin))
        }
        #expect(queued == ApprovalLimits().maxPendingAuthorizationsPerOwner)
        for (i, (exchange, origin)) in waiting.enumerated() { await Self.leave(g, entry, exchange, origin, 100 + i) }
        #expect(await Self.eventually { await g.service.pendingApprovals.isEmpty })
        // 64 prompts, each dropped at once (the clock moves so the owner's rate refills).
        for sub in 0..<8 {
            for n in 0..<8 {
                let origin = "https://s\(sub).\(owner)"
                let (exchange, approval) = try await Self.ask(g, entry, origin, n)
                #expect(
                    approval != nil,
                    "\(entry.name): \(origin) #\(n) was not queued: \(exchange.response.map { String(decoding: $0.body, as: UTF8.self) } ?? "")"
                )
                await Self.leave(g, entry, exchange, origin, n)
                #expect(await Self.eventually { await g.service.pendingApprovals.isEmpty }, "prompt left waiting")
            }
            g.clock.advance(.seconds(1))
        }
        let sign = try await g.service.send(
            "pub(bytes.sign)", ["address": .string(TestAccounts.alice.address), "data": "hi"], session: "mine")
        #expect(sign == nil, "the connected site's request is queued, not refused")
        _ = await Self.eventually { false }  // let the last journal writes land
        let entries = try JournalPathTests.entries(g.journal)
        #expect(entries.count <= JournalBudget(now: .zero).strangers, "\(entries.count) entries")
    }

    /// Item 5: a grant of any protocol is in the one grant book: listed on `/api/state` and by `sigil
    /// origins list` (the store's connected sites), persisted across a restart, and ended by a
    /// revocation, also across a restart (before: ICRC grants were invisible, unrevocable and survived).
    @Test(arguments: Entry.all) func aGrantOfAnyProtocolIsListedAndRevocable(entry: Entry) async throws {
        let g = try await Self.gateway()
        let origin = "https://granted.example"
        let (exchange, approval) = try await Self.ask(g, entry, origin, 0)
        let pending = try #require(approval)
        try await g.service.approve(pending.id, accounts: g.signer.accounts().map(\.key))
        #expect(await Self.eventually { exchange.response != nil })
        let state = await ApprovalState.json(
            service: g.service, directory: g.signer, endpoints: GatewayEndpoints())
        #expect(state["sites"]?.arrayValue?.contains { $0["source"] == .string(origin) } == true)
        #expect(try g.store.connectedSites().contains { $0.origin == origin })
        // Restart: still granted.
        let again = try await Self.gateway(store: g.store, journal: g.journal)
        #expect(await again.service.sites.contains { $0.source == origin })
        // Revoke (`/api/revoke`), then restart: gone, and asking again needs a person again.
        #expect(try await again.service.revoke(origin))
        #expect(try !g.store.connectedSites().contains { $0.origin == origin })
        #expect(try StateStoreIcrcPermissions(store: g.store).grantedScopes(origin).isEmpty)
        let restarted = try await Self.gateway(store: g.store, journal: g.journal)
        #expect(await !restarted.service.sites.contains { $0.source == origin })
        if entry.name.hasPrefix("ICRC") {
            let (asking, queued) = try await Self.ask(restarted, entry, origin, 1)
            #expect(queued != nil, "icrc27_accounts must ask a person again after the revocation")
            asking.drop()
        }
    }
}

/// The items not tied to one entry's script.
@Suite struct ProtocolSeamSingleTests {
    /// Item 5: `sigil origins revoke` (another process: the store's revocation and the ICRC scopes
    /// cleared) ends an ICRC grant in the running gateway at its next reconcile.
    @Test func aRevocationByTheCommandLineEndsAnIcrcGrant() async throws {
        let entry = try #require(ProtocolSeamTests.Entry.all.first { $0.name == "ICRC /v1/icrc" })
        let g = try await ProtocolSeamTests.gateway()
        let origin = "https://ic.example"
        let (exchange, approval) = try await ProtocolSeamTests.ask(g, entry, origin, 0)
        try await g.service.approve(try #require(approval).id)
        #expect(await ProtocolSeamTests.eventually { exchange.response != nil })
        #expect(try StateStoreIcrcPermissions(store: g.store).grantedScopes(origin) == ["icrc27_accounts"])
        let listed = try g.store.connectedSites().contains { $0.origin == origin }
        #expect(listed)
        // What `sigil origins revoke` does.
        #expect(try await g.store.revoke(origin: origin) != nil)
        try await StateStoreIcrcPermissions(store: g.store).clear(origin)
        try await g.service.reconcile()
        let (asking, queued) = try await ProtocolSeamTests.ask(g, entry, origin, 1)
        #expect(queued != nil)
        asking.drop()
    }

    /// One grant book, several protocols: a site connected for the Internet Computer only (no
    /// Polkadot accounts) still gets a Polkadot connection prompt, and approving it keeps its ICRC scopes.
    @Test func anIcrcGrantDoesNotAnswerAPolkadotConnectionWithNoAccounts() async throws {
        let entry = try #require(ProtocolSeamTests.Entry.all.first { $0.name == "ICRC /v1/icrc" })
        let g = try await ProtocolSeamTests.gateway()
        let origin = "https://both.example"
        let (exchange, approval) = try await ProtocolSeamTests.ask(g, entry, origin, 0)
        try await g.service.approve(try #require(approval).id)
        #expect(await ProtocolSeamTests.eventually { exchange.response != nil })
        let asked = try await g.service.send(
            "pub(authorize.tab)", ["origin": "Both"], source: origin, session: "both-tab")
        #expect(asked == nil, "queued for the person")
        let pending = try #require(await g.service.pendingApprovals.first { $0.source == origin })
        try await g.service.approve(pending.id, accounts: [TestAccounts.alice.key])
        #expect(await g.service.sites.first { $0.source == origin }?.accounts == [TestAccounts.alice.key])
        #expect(try StateStoreIcrcPermissions(store: g.store).grantedScopes(origin) == ["icrc27_accounts"])
    }

    /// Item 2: the person turns blind signing off while an ICRC prompt of the site waits; the prompt is
    /// rejected: the switch stays off (before: the ICRC record loaded before the wait wrote its stale
    /// `blindSigning` back, and ICON `REQUEST_SIGNING` went from refused to pending).
    @Test func turningBlindSigningOffIsNotUndoneByAWaitingIcrcPrompt() async throws {
        let entry = try #require(ProtocolSeamTests.Entry.all.first { $0.name == "ICRC /v1/icrc" })
        let g = try await ProtocolSeamTests.gateway()
        let origin = "https://blind.example"
        try await g.service.setBlindSigning(true, for: origin)
        let (exchange, approval) = try await ProtocolSeamTests.ask(g, entry, origin, 0)
        try await g.service.setBlindSigning(false, for: origin)
        try await g.service.reject(try #require(approval).id)
        #expect(await ProtocolSeamTests.eventually { exchange.response != nil })
        #expect(await g.service.blindSigningOrigins().isEmpty)
        #expect(try await StateStoreBlindSigning(store: g.store).isAllowed(origin) == false)
        #expect(await g.service.isBlindSigningAllowed(origin) == false)
    }

    /// Item 11: event streams are capped per session and per origin (before: 100 accepted on one
    /// session id).
    @Test func eventStreamsAreCappedPerSessionAndPerOrigin() async throws {
        let g = try await ProtocolSeamTests.gateway()
        let options = GatewayOptions()
        var streams: [AsyncStream<SessionEvent>] = []
        let client = ClientIdentity(source: "https://streams.example", session: "one-session")
        for _ in 0..<options.maxStreamsPerSession {
            streams.append(try await g.service.events(for: client, after: nil))
        }
        await #expect(throws: GatewayError.self) { try await g.service.events(for: client, after: nil) }
        var opened = options.maxStreamsPerSession
        for s in 0..<100 {
            let other = ClientIdentity(source: client.source, session: "session-\(s)")
            do {
                for _ in 0..<options.maxStreamsPerSession {
                    streams.append(try await g.service.events(for: other, after: nil))
                    opened += 1
                }
            } catch let error as GatewayError where error.code == .tooManySessions {
                break
            }
        }
        #expect(opened == options.maxStreamsPerSource)
        _ = streams
    }
}
