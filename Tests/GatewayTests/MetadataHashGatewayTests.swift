import Foundation
import Gateway
import Keystore
import Logging
import Primitives
import ScaleCodec
import SigilTesting
import SignerCore
import SigningKeys
import StateStore
import Testing

/// RFC-0078 through the gateway (docs/protocol.md §3, docs/reference/metadata-hash.md §10): the
/// real `GatewayService` and `SigningService` (//Alice), a state store holding approved Polkadot
/// metadata, messages as a dapp sends them. The expected hash is the reference crate's
/// (`Resources/metadata-hash.json`).
@Suite struct MetadataHashGatewayTests {
    let alice = TestAccounts.alice
    static let polkadot = "0x91b171bb158e2d3848fa23a9f1c25182fb8e20313b2c1eb49219da7a70ce90c3"
    static let call = "0x0503008eaf04151687736326c9fea17e25fc5287613693c912909cb226aa4794f26a480700e40b5402"

    /// A file copied into this target's `Resources` (see its README.md).
    static func resource(_ name: String) throws -> [UInt8] {
        let url = try #require(SharedVectors.url(name, preferring: Bundle.module))
        return [UInt8](try Data(contentsOf: url))
    }

    static func referenceHash() throws -> [UInt8] {
        let vector = try JSONValue.parse(try resource("metadata-hash.json"))
        return try Hex.decode(try #require(vector["metadataHash"]?.stringValue), prefix: .required, byteCount: 32)
    }

    /// The gateway with Alice connected to `Fixture.site`; the store holds the approved Polkadot metadata
    /// (as `metadata.provide` stores it) unless `approved` is false.
    func gateway(approved: Bool = true) async throws -> GatewayService {
        let store = try SQLiteStateStore.inMemory()
        if approved {
            try await store.saveMetadata(
                ChainMetadata(
                    genesisHash: Self.polkadot, specVersion: 2_000_000, chain: "Polkadot", ss58Format: 0,
                    tokenSymbol: "DOT", tokenDecimals: 10, metadata: try Self.resource("polkadot-v15.scale")))
        }
        let signer = SigningService(
            accounts: [(alice, try KeyPair(uri: "//Alice", scheme: .sr25519))], store: store)
        return try await GatewayService(
            options: GatewayOptions(approvalMode: .person, limits: ApprovalLimits(), deniedHosts: []),
            signer: signer, metadata: InMemoryMetadataRegistry(),
            persistence: InMemoryAuthorizations(Fixture.connected()), clock: TestClock(), serverID: "srv1",
            logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() }), metrics: GatewayMetrics())
    }

    func payload(mode: Int, hash: [UInt8]? = nil, withSignedTransaction: Bool = true) throws -> JSONValue {
        try JSONValue.parse(
            Array(
                """
                {"address":"\(alice.address)","assetId":null,
                "blockHash":"0xabababababababababababababababababababababababababababababababab","blockNumber":"0x014fb1fb",
                "era":"0xb503","genesisHash":"\(Self.polkadot)",
                "metadataHash":\(hash.map { "\"\(Hex.encode($0))\"" } ?? "null"),"method":"\(Self.call)","mode":\(mode),
                "nonce":"0x00000008","signedExtensions":["AuthorizeCall","CheckNonZeroSender","CheckSpecVersion",
                "CheckTxVersion","CheckGenesis","CheckMortality","CheckNonce","CheckWeight","ChargeTransactionPayment",
                "PrevalidateAttests","CheckMetadataHash"],"specVersion":"0x001e8480",
                "tip":"0x00000000000000000000000000000000","transactionVersion":"0x0000001a","version":4,
                "withSignedTransaction":\(withSignedTransaction)}
                """.utf8))
    }

    /// Sends `extrinsic.sign`; returns the pending request's summary rows.
    func queue(_ service: GatewayService, _ payload: JSONValue) async throws -> [SummaryRow] {
        #expect(try await service.send("pub(extrinsic.sign)", payload, id: "s1") == nil)
        let approval = try #require(await service.pendingApprovals.first)
        guard case .adapter(let request) = approval.subject, request.kind == "extrinsic" else {
            throw SignerError(.invalidInput, "kind")
        }
        return request.summary
    }

    /// Approves the one pending request and returns the dapp's response.
    func approve(_ service: GatewayService) async throws -> JSONValue {
        let approval = try #require(await service.pendingApprovals.first)
        try await service.approve(approval.id)
        let reply = try #require(try await service.logged().last)
        guard case .response(let result) = reply.body else { throw SignerError(.invalidInput, "\(reply.body)") }
        return result
    }

    func signature(_ result: JSONValue) throws -> MultiSignature {
        var r = ScaleReader(try Hex.decode(try #require(result["signature"]?.stringValue), prefix: .required))
        return try MultiSignature(from: &r)
    }

    /// call ‖ extra ‖ additional-signed for the Polkadot extension list with `mode` and `hash`, by hand.
    func message(mode: UInt8, hash: [UInt8]?) throws -> [UInt8] {
        var m = try Hex.decode(Self.call, prefix: .required) + [0xb5, 0x03, 8 << 2, 0, mode]
        m += [0x80, 0x84, 0x1e, 0x00, 26, 0, 0, 0] + (try Hex.decode(Self.polkadot, prefix: .required))
        m += [UInt8](repeating: 0xab, count: 32) + (hash.map { [1] + $0 } ?? [0])
        return m
    }

    func verifies(_ signature: MultiSignature, _ message: [UInt8]) throws -> Bool {
        KeyScheme.sr25519.verify(
            signature: signature.signature, message: message, signer: try Hex.decode(alice.key, prefix: .required))
    }

    @Test func aPayloadWithTheRightHashSaysVerifiedAndSigns() async throws {
        let hash = try Self.referenceHash()
        let service = try await gateway()
        let rows = try await queue(service, payload(mode: 1, hash: hash))
        let row = try #require(rows.first { $0.label == "metadata hash" })
        #expect(row.value.hasPrefix("verified (CheckMetadataHash)") && !row.isWarning)
        let result = try await approve(service)
        #expect(try verifies(signature(result), message(mode: 1, hash: hash)))
    }

    @Test func aPayloadWithAWrongHashIsRefusedBeforeAnyPrompt() async throws {
        var hash = try Self.referenceHash()
        hash[0] ^= 0x80
        let service = try await gateway()
        let reply = try await service.send("pub(extrinsic.sign)", payload(mode: 1, hash: hash), id: "s1")
        #expect(reply == WireReply(id: "s1", .error(WireErrorText.metadataHashMismatch)))
        #expect(WireErrorText.metadataHashMismatch.hasPrefix("Metadata hash mismatch"))
        #expect(await service.pendingApprovals.isEmpty)
    }

    /// Mode 0 with `withSignedTransaction`: the person sees "added by Sigil"; the signed
    /// transaction's extra has mode 1, the signature covers additional-signed data ending in
    /// `Some(hash)`, and the extrinsic is the site's otherwise.
    @Test func aModeZeroSignedTransactionComesBackWithModeOneAndTheHash() async throws {
        let hash = try Self.referenceHash()
        let service = try await gateway()
        let rows = try await queue(service, payload(mode: 0))
        let row = try #require(rows.first { $0.label == "metadata hash" })
        #expect(row.value.hasPrefix("added by Sigil") && row.value.contains(Hex.encode(hash)))
        let result = try await approve(service)
        let sig = try signature(result)
        #expect(try verifies(sig, message(mode: 1, hash: hash)))
        #expect(try !verifies(sig, message(mode: 0, hash: nil)))
        var body = [0x84, 0x00] + (try Hex.decode(alice.key, prefix: .required)) + sig.encoded
        body += [0xb5, 0x03, 8 << 2, 0, 1] + (try Hex.decode(Self.call, prefix: .required))
        var length = ScaleWriter()
        length.writeCompact(UInt128(body.count))
        #expect(result["signedTransaction"]?.stringValue == Hex.encode(length.bytes + body))
    }

    @Test func withoutApprovedMetadataTheSummarySaysItCannotVerify() async throws {
        let hash = try Self.referenceHash()
        let service = try await gateway(approved: false)
        let rows = try await queue(service, payload(mode: 1, hash: hash))
        let row = try #require(rows.first { $0.label == "metadata hash" })
        #expect(row.isWarning && row.value.hasPrefix("cannot verify") && row.value.contains("no metadata"))
        let result = try await approve(service)
        #expect(try verifies(signature(result), message(mode: 1, hash: hash)))
    }
}
