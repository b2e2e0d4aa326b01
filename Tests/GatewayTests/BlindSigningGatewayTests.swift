import Foundation
import Gateway
import Keystore
import Logging
import Primitives
import ScaleCodec
import SignerCore
import SigningKeys
import StateStore
import Testing

/// Blind signing through the gateway (docs/blind-signing.md): a connected site's Polkadot call that
/// does not decode with the stored metadata is refused with a clear error until the person turns
/// blind signing on for that site (the approval page's call), then queued with the warning first;
/// another site stays refused; the page's switch rejects anything but an exact origin.
@Suite struct BlindSigningGatewayTests {
    let base = MetadataHashGatewayTests()

    func gateway(_ settings: any BlindSigningSettings) async throws -> GatewayService {
        let store = try SQLiteStateStore.inMemory()
        try await store.saveMetadata(
            ChainMetadata(
                genesisHash: MetadataHashGatewayTests.polkadot, specVersion: 2_000_000, chain: "Polkadot",
                ss58Format: 0, tokenSymbol: "DOT", tokenDecimals: 10,
                metadata: try MetadataHashGatewayTests.resource("polkadot-v15.scale")))
        let signer = SigningService(
            accounts: [(TestAccounts.alice, try KeyPair(uri: "//Alice", scheme: .sr25519))], store: store)
        return try await GatewayService(
            options: GatewayOptions(approvalMode: .person, limits: ApprovalLimits(), deniedHosts: []),
            signer: signer, metadata: InMemoryMetadataRegistry(),
            persistence: InMemoryAuthorizations(Fixture.connected()), clock: TestClock(), serverID: "srv1",
            logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() }), metrics: GatewayMetrics(),
            blindSigning: settings)
    }

    /// The test payload with `method` replaced (pallet 0xff does not exist in Polkadot's runtime).
    func payload(method: String) throws -> JSONValue {
        guard case .object(var object) = try base.payload(mode: 0) else { throw SignerError(.invalidInput, "payload") }
        object["method"] = .string(method)
        return .object(object)
    }

    @Test func anUndecodableCallNeedsTheSitesSwitch() async throws {
        let settings = InMemoryBlindSigning()
        let service = try await gateway(settings)
        let refused = try #require(
            try await service.send("pub(extrinsic.sign)", try payload(method: "0xff00"), id: "s1"))
        #expect(refused.body == .error(WireErrorText.blindSigningOff))
        #expect(await service.pendingApprovals.isEmpty)

        try await service.setBlindSigning(true, for: Fixture.site)
        #expect(try await settings.isAllowed(Fixture.site))
        #expect(await service.blindSigningOrigins() == [Fixture.site])
        #expect(try await service.send("pub(extrinsic.sign)", try payload(method: "0xff00"), id: "s2") == nil)
        let approval = try #require(await service.pendingApprovals.first)
        guard case .adapter(let request) = approval.subject, request.kind == "extrinsic" else {
            Issue.record("kind")
            return
        }
        #expect(request.summary.first == SummaryRow("warning", ExtrinsicSigningRequest.blindWarning, warning: true))
        let result = try await base.approve(service)
        #expect(result["signature"]?.stringValue?.hasPrefix("0x01") == true)

        // A decodable call never carries the warning, switch or not.
        #expect(
            try await service.send("pub(extrinsic.sign)", try payload(method: MetadataHashGatewayTests.call), id: "s3")
                == nil)
        let plain = try #require(await service.pendingApprovals.first)
        guard case .adapter(let decoded) = plain.subject, decoded.kind == "extrinsic" else {
            Issue.record("kind")
            return
        }
        #expect(!decoded.summary.contains { $0.value == ExtrinsicSigningRequest.blindWarning })

        // Off again: refused again.
        try await service.reject(plain.id)
        try await service.setBlindSigning(false, for: Fixture.site)
        let again = try #require(try await service.send("pub(extrinsic.sign)", try payload(method: "0xff00"), id: "s4"))
        #expect(again.body == .error(WireErrorText.blindSigningOff))
    }

    @Test(arguments: [
        "app.example", "https://app.example/", "https://app.example/path", "", "client:backend", "javascript:x",
    ])
    func theSwitchTakesOnlyAnExactOrigin(source: String) async throws {
        let settings = InMemoryBlindSigning()
        let service = try await gateway(settings)
        await #expect(throws: GatewayError.self) { try await service.setBlindSigning(true, for: source) }
        #expect(try await settings.allowedOrigins().isEmpty)
    }

    /// A store that cannot be read counts as off: nothing is signed blind.
    @Test func anUnreadableSettingIsOff() async throws {
        let service = try await gateway(UnreadableBlindSigning())
        let refused = try #require(
            try await service.send("pub(extrinsic.sign)", try payload(method: "0xff00"), id: "s1"))
        #expect(refused.body == .error(WireErrorText.blindSigningOff))
        await #expect(throws: GatewayError.self) { try await service.setBlindSigning(true, for: Fixture.site) }
    }
}

/// Settings whose store always fails (a damaged or vanished state database).
struct UnreadableBlindSigning: BlindSigningSettings {
    func isAllowed(_ origin: String) async throws -> Bool { throw KeystoreError(.invalidInput, "unreadable") }
    func setAllowed(_ allowed: Bool, for origin: String) async throws {
        throw KeystoreError(.invalidInput, "unreadable")
    }
    func allowedOrigins() async throws -> [String] { throw KeystoreError(.invalidInput, "unreadable") }
}
