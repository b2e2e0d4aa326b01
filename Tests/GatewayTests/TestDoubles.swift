import Gateway
import Logging
import Primitives
import SignerCore
import Synchronization

/// A clock tests advance by hand.
final class TestClock: MonotonicClock, @unchecked Sendable {
    private let value = Mutex<Duration>(.zero)
    var now: Duration { value.withLock { $0 } }
    func advance(_ by: Duration) { value.withLock { $0 += by } }
}

/// Two fixed accounts; addresses map to keys through a table (any "prefix" spelling listed).
struct TestAccounts: AccountDirectory {
    static let alice = GatewayAccount(
        key: "0xd43593c715fdd31c61141abd04a99fd6822c8558854ccde39a5684e7a56da27d",
        address: "5GrwvaEF5zXb26Fz9rcQpDWS57CtERHpNehXCPcNoHGKutQY", name: "Alice", type: "sr25519", genesisHash: nil)
    static let bob = GatewayAccount(
        key: "0x8eaf04151687736326c9fea17e25fc5287613693c912909cb226aa4794f26a48",
        address: "5FHneW46xGXgs5mUiveU4sbTyGBzmstUspZC92UhjJM694ty", name: "Bob", type: "ed25519", genesisHash: nil)
    /// Alice's key under the Polkadot prefix (dapps re-encode addresses).
    static let alicePolkadot = "15oF4uVJwmo4TdGW7VfQxNLavjCXviqxT9S1MgbjMNHr6Sp5"

    func accounts() async -> [GatewayAccount] { [Self.alice, Self.bob] }
    func accountKey(forAddress address: String) -> String? {
        switch address {
        case Self.alice.address, Self.alicePolkadot: Self.alice.key
        case Self.bob.address: Self.bob.key
        default: nil
        }
    }
}

/// Records what it was asked to sign and answers with a recognisable value.
actor RecordingSigner: RequestSigner {
    var signedMessages: [[UInt8]] = []
    var signedPayloads: [JSONValue] = []

    func describeExtrinsic(payload: JSONValue, account: GatewayAccount) async throws -> [SummaryRow] {
        guard payload["method"]?.stringValue != nil else { throw SignerError(.invalidInput, "field method") }
        return [SummaryRow("call", payload["method"]?.stringValue ?? "")]
    }

    func signExtrinsic(payload: JSONValue, account: GatewayAccount) async throws -> (
        signature: String, signedTransaction: String?
    ) {
        signedPayloads.append(payload)
        return ("0x01" + String(repeating: "ab", count: 64), "0x45028400")
    }

    func signMessage(_ message: [UInt8], account: GatewayAccount) async throws -> String {
        signedMessages.append(message)
        return "0x" + String(repeating: "cd", count: 64)
    }
}

enum Fixture {
    static let site = "https://dapp.example"
    static let other = "https://other.example"

    static func service(
        mode: GatewayOptions.ApprovalMode = .person, clock: TestClock = TestClock(),
        limits: ApprovalLimits = ApprovalLimits(), sites: [AuthorizedSite] = [],
        signer: RecordingSigner = RecordingSigner(), denied: Set<String> = [],
        logger: Logger = Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() }),
        metrics: GatewayMetrics = GatewayMetrics()
    ) async throws -> GatewayService {
        try await GatewayService(
            options: GatewayOptions(approvalMode: mode, limits: limits, deniedHosts: denied),
            accounts: TestAccounts(), signer: signer, metadata: InMemoryMetadataRegistry(),
            persistence: InMemoryAuthorizations(sites), clock: clock, serverID: "srv1",
            logger: logger, metrics: metrics)
    }

    static func connected(_ accounts: [String] = [TestAccounts.alice.key]) -> [AuthorizedSite] {
        [AuthorizedSite(source: site, appName: "Dapp", accounts: accounts)]
    }

    static let transfer: JSONValue = [
        "address": .string(TestAccounts.alice.address),
        "method": "0x0503008eaf04151687736326c9fea17e25fc5287613693c912909cb226aa4794f26a480b00407a10f35a",
        "version": 4, "withSignedTransaction": true,
    ]
}

extension GatewayService {
    /// Sends one message and returns the immediate reply (nil when queued).
    func send(
        _ message: String, _ request: JSONValue = .null, id: String = "r1",
        source: String = Fixture.site, session: String = "session-1"
    ) async throws -> WireReply? {
        let outcome = try await handle(
            WireRequest(id: id, message: message, request: request),
            from: ClientIdentity(source: source, session: session))
        if case .reply(let reply) = outcome { return reply }
        return nil
    }

    /// Everything logged for a session so far.
    func logged(source: String = Fixture.site, session: String = "session-1") throws -> [WireReply] {
        try keptEvents(for: ClientIdentity(source: source, session: session), after: nil).map(\.reply)
    }
}
