import Foundation
import Keystore
import PolkadotCodec
import Primitives
import ScaleCodec
import SigilTesting
import SigningKeys
import StateStore
import Testing

@testable import SignerCore

/// The signing service with real keys (//Alice in each scheme): what is approved is what is signed,
/// every signature verifies, and approved metadata is used for the summary.
@Suite struct SigningServiceTests {
    static let polkadotGenesis = "0x91b171bb158e2d3848fa23a9f1c25182fb8e20313b2c1eb49219da7a70ce90c3"

    struct Account {
        let account: SignerAccount
        let pair: KeyPair
    }

    static func account(_ scheme: KeyScheme, name: String = "Alice") throws -> Account {
        let pair = try KeyPair(uri: "//Alice", scheme: scheme)
        let key = Hex.encode(pair.accountId)
        // A 0x account id is an address every payload parser accepts for every scheme.
        return Account(
            account: SignerAccount(key: key, address: key, name: name, type: scheme.rawValue, genesisHash: nil),
            pair: pair)
    }

    static func payload(address: String, specVersion: String = "0x001e8480", withSignedTransaction: Bool = false)
        throws -> JSONValue
    {
        try JSONValue.parse(
            String(decoding: PayloadFixtures.polkadotA(replacing: "address", with: "\"\(address)\""), as: UTF8.self)
                .replacingOccurrences(of: "\"specVersion\":\"0x001e8480\"", with: "\"specVersion\":\"\(specVersion)\"")
                .replacingOccurrences(
                    of: "\"withSignedTransaction\":false", with: "\"withSignedTransaction\":\(withSignedTransaction)"))
    }

    @Test(arguments: [KeyScheme.sr25519, .ed25519, .ecdsa])
    func signsExactlyThePreparedPayloadInEveryScheme(scheme: KeyScheme) throws {
        let alice = try Self.account(scheme)
        let service = SigningService(accounts: [(alice.account, alice.pair)], store: try SQLiteStateStore.inMemory())
        let request = try service.prepareExtrinsic(
            payload: try Self.payload(address: alice.account.address), account: alice.account)
        // The account row names the account in the chain's own format (the signer row's), not the site's.
        #expect(request.summary.first == SummaryRow("account", "Alice (\(request.prepared.summary.signer))"))
        #expect(request.prepared.summary.signer.hasPrefix("1"))
        let result = try service.signExtrinsic(request)
        #expect(result.signature.scheme.rawValue == scheme.multiSignatureIndex)
        #expect(
            scheme.verify(
                signature: result.signature.signature, message: request.prepared.signing.signedBytes,
                signer: alice.pair.publicKey))
        #expect(result.signedTransaction == nil)
    }

    @Test func theSignedTransactionIsBuiltWhenAskedAndCarriesTheSignature() throws {
        let alice = try Self.account(.sr25519)
        let service = SigningService(accounts: [(alice.account, alice.pair)], store: try SQLiteStateStore.inMemory())
        let request = try service.prepareExtrinsic(
            payload: try Self.payload(address: alice.account.address, withSignedTransaction: true),
            account: alice.account)
        let result = try service.signExtrinsic(request)
        let expected = SignedExtrinsicV4(
            address: .id(alice.pair.accountId), signature: result.signature,
            extra: request.prepared.signing.extra, call: request.prepared.signing.call)
        #expect(result.signedTransaction == expected.encoded)
    }

    @Test func aRequestForAnotherAccountOrAnUnknownKeyIsRefused() throws {
        let alice = try Self.account(.sr25519)
        let bob = try Self.account(.ed25519, name: "Bob")
        let service = SigningService(accounts: [(alice.account, alice.pair)], store: try SQLiteStateStore.inMemory())
        #expect(throws: SignerError(.unknownAccount, "")) {
            try service.prepareExtrinsic(
                payload: try Self.payload(address: bob.account.address), account: alice.account)
        }
        let other = SigningService(accounts: [(bob.account, bob.pair)], store: try SQLiteStateStore.inMemory())
        let request = try other.prepareExtrinsic(
            payload: try Self.payload(address: bob.account.address), account: bob.account)
        #expect(throws: SignerError(.unknownAccount, "")) { try service.signExtrinsic(request) }
    }

    @Test func messagesAreWrappedAndSigned() throws {
        let alice = try Self.account(.sr25519)
        let service = SigningService(accounts: [(alice.account, alice.pair)], store: try SQLiteStateStore.inMemory())
        let request = service.prepareMessage(
            data: "0x68656c6c6f", address: alice.account.address, account: alice.account)
        #expect(request.message == Array("<Bytes>hello</Bytes>".utf8))
        #expect(request.summary.last == SummaryRow("message", "hello"))
        let signature = try service.signMessage(request)
        #expect(
            KeyScheme.sr25519.verify(
                signature: signature.signature, message: request.message, signer: alice.pair.publicKey))
    }

    /// Approved metadata is decoded for the summary; a newer approved spec version replaces the cached one.
    @Test func approvedMetadataDecodesTheCallAndANewerVersionReplacesIt() throws {
        let alice = try Self.account(.sr25519)
        let store = try SQLiteStateStore.inMemory()
        let bytes = try PayloadResources.data("polkadot-v15.scale")
        let spec = try #require(try RuntimeMetadata(bytes: bytes).runtimeVersion?.specVersion)
        let service = SigningService(accounts: [(alice.account, alice.pair)], store: store)
        let payload = try Self.payload(
            address: alice.account.address, specVersion: Hex.encode(withUnsafeBytes(of: spec.bigEndian) { Array($0) }))
        let before = try service.prepareExtrinsic(payload: payload, account: alice.account)
        #expect(!before.summary.contains { $0.value.contains("System.remark") })
        try store.saveMetadata(
            ChainMetadata(
                genesisHash: Self.polkadotGenesis, specVersion: spec, chain: "Polkadot", ss58Format: 0,
                tokenSymbol: "DOT", tokenDecimals: 10, metadata: bytes, extraJSON: nil))
        let after = try service.prepareExtrinsic(payload: payload, account: alice.account)
        #expect(after.summary.contains { $0.value.contains("remark") })
        #expect(try store.metadataVersion(genesisHash: Self.polkadotGenesis) == spec)
        // The same prepared request signs identically whatever metadata arrives later.
        let signedBefore = try service.signExtrinsic(after)
        try store.saveMetadata(
            ChainMetadata(
                genesisHash: Self.polkadotGenesis, specVersion: spec + 1, chain: "Polkadot", ss58Format: 0,
                tokenSymbol: "DOT", tokenDecimals: 10, metadata: bytes, extraJSON: nil))
        #expect(try store.metadataVersion(genesisHash: Self.polkadotGenesis) == spec + 1)
        #expect(
            KeyScheme.sr25519.verify(
                signature: signedBefore.signature.signature, message: after.prepared.signing.signedBytes,
                signer: alice.pair.publicKey))
    }
}
