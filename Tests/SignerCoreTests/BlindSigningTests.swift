import Foundation
import Keystore
import Primitives
import ScaleCodec
import SigilTesting
import SigningKeys
import StateStore
import Testing

@testable import SignerCore

/// Blind signing (docs/blind-signing.md): a Polkadot call that does not decode with the chain's
/// stored metadata is refused unless the person allowed the site, and then led by a loud warning;
/// the per-site switch is the same in memory and in the state database.
@Suite struct BlindSigningTests {
    static let a = "https://a.example"
    static let b = "http://127.0.0.1:8080"

    /// What a script of switches answered.
    struct Transcript: Equatable {
        var answers: [Bool] = []
        var origins: [[String]] = []
    }

    static func run(_ settings: any BlindSigningSettings) async throws -> Transcript {
        var t = Transcript()
        t.answers.append(try await settings.isAllowed(a))
        try await settings.setAllowed(true, for: a)
        try await settings.setAllowed(true, for: b)
        t.answers.append(try await settings.isAllowed(a))
        t.origins.append(try await settings.allowedOrigins())
        try await settings.setAllowed(false, for: a)
        try await settings.setAllowed(false, for: "https://never.example")
        t.answers.append(try await settings.isAllowed(a))
        t.answers.append(try await settings.isAllowed(b))
        t.origins.append(try await settings.allowedOrigins())
        return t
    }

    @Test func theSQLiteAndTheInMemorySettingsAgree() async throws {
        let sqlite = try await Self.run(StateStoreBlindSigning(store: try SQLiteStateStore.inMemory()))
        let memory = try await Self.run(InMemoryBlindSigning())
        #expect(sqlite == memory)
        #expect(sqlite.answers == [false, true, false, true])
        #expect(sqlite.origins == [[Self.b, Self.a], [Self.b]])
    }

    /// The switch is per exact origin: another port, scheme or a subdomain is another site; a
    /// setting with another value or another prefix is not a switch.
    @Test func onlyTheExactOriginIsAllowed() async throws {
        let store = try SQLiteStateStore.inMemory()
        let settings = StateStoreBlindSigning(store: store)
        try await settings.setAllowed(true, for: Self.a)
        for other in ["https://a.example:443", "http://a.example", "https://x.a.example", "https://A.example"] {
            #expect(try await !settings.isAllowed(other))
        }
        try await store.setSetting(StateStoreBlindSigning.key("https://c.example"), to: "yes")
        try await store.setSetting("icrc.permissions.https://d.example", to: "{}")
        #expect(try await settings.allowedOrigins() == [Self.a])
    }

    static func prepared(method: String, metadata: Bool) throws -> ExtrinsicSigningRequest {
        let alice = try SigningServiceTests.account(.sr25519)
        let store = try SQLiteStateStore.inMemory()
        let bytes = try PayloadResources.data("polkadot-v15.scale")
        let spec = try #require(try RuntimeMetadata(bytes: bytes).runtimeVersion?.specVersion)
        if metadata {
            try store.saveMetadata(
                ChainMetadata(
                    genesisHash: SigningServiceTests.polkadotGenesis, specVersion: spec, chain: "Polkadot",
                    ss58Format: 0, tokenSymbol: "DOT", tokenDecimals: 10, metadata: bytes, extraJSON: nil))
        }
        let service = SigningService(accounts: [(alice.account, alice.pair)], store: store)
        var text = String(
            decoding: PayloadFixtures.polkadotA(replacing: "address", with: "\"\(alice.account.address)\""),
            as: UTF8.self)
        text = text.replacingOccurrences(
            of: "\"specVersion\":\"0x001e8480\"",
            with: "\"specVersion\":\"\(Hex.encode(withUnsafeBytes(of: spec.bigEndian) { Array($0) }))\"")
        var payload = try JSONValue.parse(text)
        if case .object(var object) = payload {
            object["method"] = .string(method)
            payload = .object(object)
        }
        return try service.prepareExtrinsic(payload: payload, account: alice.account)
    }

    /// (call bytes, metadata stored, blind?): pallet 0xff does not exist in Polkadot's runtime;
    /// `System.remark` (0x0000 + compact length + bytes) decodes, cut short it does not; without metadata nothing is claimed blind
    /// (the call is shown as "no metadata", the existing warning).
    static let cases: [(String, Bool, Bool)] = [
        ("0xff00", true, true),
        ("0x000008abcd", true, false),
        ("0x0000", true, true),
        ("0xff00", false, false),
    ]

    @Test(arguments: cases)
    func anUndecodableCallIsBlindOnlyWithMetadata(method: String, metadata: Bool, blind: Bool) throws {
        let request = try Self.prepared(method: method, metadata: metadata)
        #expect(request.isBlind == blind)
        // Not blind: unchanged whatever the switch says.
        if !blind {
            #expect(try request.checkedForBlindSigning(allowed: false) == request)
            #expect(try request.checkedForBlindSigning(allowed: true) == request)
        }
    }

    @Test func aBlindCallIsRefusedWithoutTheSwitchAndLedByAWarningWithIt() throws {
        let request = try Self.prepared(method: "0xff00", metadata: true)
        #expect(throws: SignerError.self) { try request.checkedForBlindSigning(allowed: false) }
        do {
            _ = try request.checkedForBlindSigning(allowed: false)
        } catch let error as SignerError {
            #expect(error.code == .blindSigningOff)
        }
        let allowed = try request.checkedForBlindSigning(allowed: true)
        #expect(allowed.summary.first == SummaryRow("warning", ExtrinsicSigningRequest.blindWarning, warning: true))
        #expect(allowed.summary.dropFirst() == request.summary[...])
        // What is signed is the very prepared payload: the warning changes only what is shown.
        #expect(allowed.prepared == request.prepared)
        #expect(allowed.summary.contains { $0.label == "call" && $0.value.contains("does not decode") && $0.isWarning })
    }
}
