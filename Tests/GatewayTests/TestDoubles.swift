import Gateway
import Journal
import Keystore
import Logging
import Primitives
import SignerCore
import SigningKeys
import StateStore
import Synchronization

/// A clock tests advance by hand.
final class TestClock: MonotonicClock, @unchecked Sendable {
    private let value = Mutex<Duration>(.zero)
    var now: Duration { value.withLock { $0 } }
    func advance(_ by: Duration) { value.withLock { $0 += by } }
}

/// The development accounts //Alice and //Bob (sr25519) with their real keys.
enum TestAccounts {
    static let alice = SignerAccount(
        key: "0xd43593c715fdd31c61141abd04a99fd6822c8558854ccde39a5684e7a56da27d",
        address: "5GrwvaEF5zXb26Fz9rcQpDWS57CtERHpNehXCPcNoHGKutQY", name: "Alice", type: "sr25519", genesisHash: nil)
    static let bob = SignerAccount(
        key: "0x8eaf04151687736326c9fea17e25fc5287613693c912909cb226aa4794f26a48",
        address: "5FHneW46xGXgs5mUiveU4sbTyGBzmstUspZC92UhjJM694ty", name: "Bob", type: "sr25519", genesisHash: nil)
    /// Alice's key under the Polkadot prefix (dapps re-encode addresses).
    static let alicePolkadot = "15oF4uVJwmo4TdGW7VfQxNLavjCXviqxT9S1MgbjMNHr6Sp5"

    /// The real signing service over //Alice and //Bob, with an empty in-memory state store.
    static func service() throws -> SigningService {
        SigningService(
            accounts: [
                (alice, try KeyPair(uri: "//Alice", scheme: .sr25519)),
                (bob, try KeyPair(uri: "//Bob", scheme: .sr25519)),
            ],
            store: try SQLiteStateStore.inMemory())
    }
}

/// The real ``SigningService`` (real dev keys), recording what it was asked to sign.
final class RecordingSigner: RequestSigner {
    private let inner: SigningService
    private let record = Mutex<(extrinsics: [ExtrinsicSigningRequest], messages: [[UInt8]])>(([], []))

    init() {
        // The dev keys derive from a fixed phrase; failing here is a broken build, not input.
        do { inner = try TestAccounts.service() } catch { fatalError("dev keys: \(error)") }
    }

    var signedExtrinsics: [ExtrinsicSigningRequest] { record.withLock { $0.extrinsics } }
    var signedMessages: [[UInt8]] { record.withLock { $0.messages } }

    func accounts() -> [SignerAccount] { inner.accounts() }
    func accountKey(forAddress address: String) -> String? { inner.accountKey(forAddress: address) }
    func prepareExtrinsic(payload: JSONValue, account: SignerAccount) throws -> ExtrinsicSigningRequest {
        try inner.prepareExtrinsic(payload: payload, account: account)
    }
    func prepareMessage(data: String, address: String, account: SignerAccount) -> BytesSigningRequest {
        inner.prepareMessage(data: data, address: address, account: account)
    }
    func signExtrinsic(_ request: ExtrinsicSigningRequest) throws -> ExtrinsicSignature {
        record.withLock { $0.extrinsics.append(request) }
        return try inner.signExtrinsic(request)
    }
    func signMessage(_ request: BytesSigningRequest) throws -> MessageSignature {
        record.withLock { $0.messages.append(request.message) }
        return try inner.signMessage(request)
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
        metrics: GatewayMetrics = GatewayMetrics(), journal: (any SigningJournal)? = nil
    ) async throws -> GatewayService {
        try await GatewayService(
            options: GatewayOptions(approvalMode: mode, limits: limits, deniedHosts: denied),
            signer: signer, metadata: InMemoryMetadataRegistry(),
            persistence: InMemoryAuthorizations(sites), clock: clock, serverID: "srv1",
            logger: logger, metrics: metrics, journal: journal)
    }

    static func connected(_ accounts: [String] = [TestAccounts.alice.key]) -> [AuthorizedSite] {
        [AuthorizedSite(source: site, appName: "Dapp", accounts: accounts)]
    }

    /// A complete Polkadot `SignerPayloadJSON` from Alice (System.remark("hello"), mortal era, nonce 7).
    static let transfer: JSONValue = {
        let text = """
            {"address":"5GrwvaEF5zXb26Fz9rcQpDWS57CtERHpNehXCPcNoHGKutQY","assetId":null,
            "blockHash":"0x1111111111111111111111111111111111111111111111111111111111111111","blockNumber":"0x014fb1fb",
            "era":"0xb503","genesisHash":"0x91b171bb158e2d3848fa23a9f1c25182fb8e20313b2c1eb49219da7a70ce90c3",
            "metadataHash":null,"method":"0x00001468656c6c6f","mode":0,"nonce":"0x00000007",
            "signedExtensions":["AuthorizeCall","CheckNonZeroSender","CheckSpecVersion","CheckTxVersion","CheckGenesis",
            "CheckMortality","CheckNonce","CheckWeight","ChargeTransactionPayment","PrevalidateAttests",
            "CheckMetadataHash"],
            "specVersion":"0x001e8480","tip":"0x00000000000000000000000000000000","transactionVersion":"0x0000001a",
            "version":4,"withSignedTransaction":true}
            """
        return (try? JSONValue.parse(text)) ?? .null
    }()
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

/// A signer with Ethereum keys: the `--dev` accounts 0 and 1 of the public development mnemonic
/// (`SigningKeys.EthereumKeyPair.devAccount(index:)`), as `ethereum` accounts whose key and address
/// are the EIP-55 address, over another signer's accounts (default: //Alice and //Bob). Records every
/// hash it signed.
final class EthereumTestSigner: RequestSigner {
    private let inner: any RequestSigner
    private let pairs: [EthereumKeyPair]
    private let record = Mutex<[[UInt8]]>([])

    init(inner: any RequestSigner = RecordingSigner()) {
        self.inner = inner
        // The dev keys derive from a fixed phrase; failing here is a broken build, not input.
        do { pairs = try [0, 1].map { try EthereumKeyPair.devAccount(index: $0) } } catch {
            fatalError("dev keys: \(error)")
        }
    }

    /// The Ethereum accounts, in order (account 0 is `0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266`).
    var ethereumAccounts: [SignerAccount] {
        pairs.enumerated().map { i, pair in
            SignerAccount(
                key: pair.address, address: pair.address, name: "Dev \(i)", type: "ethereum", genesisHash: nil)
        }
    }

    /// Every hash signed, in order.
    var signedHashes: [[UInt8]] { record.withLock { $0 } }

    func accounts() -> [SignerAccount] { inner.accounts() + ethereumAccounts }
    func accountKey(forAddress address: String) -> String? {
        ethereumAccounts.first { $0.address.lowercased() == address.lowercased() }?.key
            ?? inner.accountKey(forAddress: address)
    }
    func prepareExtrinsic(payload: JSONValue, account: SignerAccount) throws -> ExtrinsicSigningRequest {
        try inner.prepareExtrinsic(payload: payload, account: account)
    }
    func prepareMessage(data: String, address: String, account: SignerAccount) -> BytesSigningRequest {
        inner.prepareMessage(data: data, address: address, account: account)
    }
    func signExtrinsic(_ request: ExtrinsicSigningRequest) throws -> ExtrinsicSignature {
        try inner.signExtrinsic(request)
    }
    func signMessage(_ request: BytesSigningRequest) throws -> MessageSignature { try inner.signMessage(request) }
    func signEthereumHash(_ hash: [UInt8], account: SignerAccount) throws -> [UInt8] {
        guard account.type == "ethereum", let pair = pairs.first(where: { $0.address == account.key }) else {
            throw SignerError(.unknownAccount, "no such Ethereum key")
        }
        let signature = try pair.signHash(hash)
        record.withLock { $0.append(hash) }
        return signature
    }
}
