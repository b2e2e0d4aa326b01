import Foundation
import Primitives
import ScaleCodec
import SigilTesting
import Testing

@testable import PolkadotCodec

@Suite struct SignerPayloadParsingTests {
    @Test func polkadotJsHexAndPlainNumbersAndPapiPaddingAllParse() throws {
        let a = try SignerPayload(json: Array(PayloadFixtures.polkadotA.utf8))
        #expect(a.nonce == 7 && a.specVersion == 2_000_000 && a.transactionVersion == 26 && a.tip == 0)
        #expect(a.blockNumber == 22_000_123)
        #expect(a.addressPrefix == 0)
        let plain = try SignerPayload(json: PayloadFixtures.polkadotA(replacing: "nonce", with: "7"))
        #expect(plain.nonce == 7)
        // PAPI pads to at least 4/16 bytes; longer big-endian hex with leading zeros is the same number.
        let padded = try SignerPayload(
            json: PayloadFixtures.polkadotA(replacing: "nonce", with: "\"0x0000000000000007\""))
        #expect(padded.nonce == 7)
        let shortTip = try SignerPayload(json: PayloadFixtures.polkadotA(replacing: "tip", with: "\"0x05\""))
        #expect(shortTip.tip == 5)
    }

    @Test func unknownExtraFieldsAreKept() throws {
        let json = PayloadFixtures.polkadotA(replacing: "mode", with: "0,\"customThing\":{\"b\":[1,true]}")
        let p = try SignerPayload(json: json)
        #expect(p.otherFields["customThing"] == ["b": [1, true]])
    }

    @Test(arguments: [
        ("nonce", "-1", PolkadotCodecError.Code.badField), ("nonce", "1.5", .badField), ("nonce", "true", .badField),
        ("specVersion", "\"0x0100000000\"", .overflow), ("mode", "\"1\"", .badMode), ("mode", "true", .badMode),
        ("withSignedTransaction", "1", .badField), ("signedExtensions", "\"CheckNonce\"", .badField),
        ("signedExtensions", "[1]", .badField), ("address", "42", .badField), ("address", "\"0x1234\"", .badAddress),
        ("version", "\"4\"", .badField), ("blockHash", "null", .badField), ("era", "\"0x\"", .invalidEra),
        ("assetId", "7", .badAssetId), ("tip", "1e40", .badField),
    ])
    func wrongTypesAndValuesAreRefusedWithTheirReason(field: String, json: String, code: PolkadotCodecError.Code) {
        #expect(throws: PolkadotCodecError(code, "")) {
            try SignerPayload(json: PayloadFixtures.polkadotA(replacing: field, with: json))
        }
    }

    @Test(arguments: ["", "[]", "{", "null", "\"x\"", "{\"version\":4"])
    func textThatIsNotAPayloadObjectIsRefused(text: String) {
        #expect(throws: PolkadotCodecError.self) { try SignerPayload(json: Array(text.utf8)) }
    }

    @Test func anEthereumStyleTwentyByteAddressIsAccepted() throws {
        let p = try SignerPayload(
            json: PayloadFixtures.polkadotA(
                replacing: "address", with: "\"0xf24ff3a9cf04c71dbc94d0b566f7a27b94566cac\""))
        #expect(p.accountId.count == 20)
        #expect(p.addressPrefix == nil)
    }
}

@Suite struct SigningPayloadMetadataTests {
    @Test func anUnknownExtensionThatCarriesDataPerTheMetadataIsRefused() throws {
        // CheckNonce carries a Compact<u32>: pretend we did not know it by renaming it in the metadata.
        var md = try PayloadResources.metadata("polkadot-v15.scale")
        let i = try #require(md.extrinsic.signedExtensions.firstIndex { $0.identifier == "CheckNonce" })
        md.extrinsic.signedExtensions[i].identifier = "CustomNonce"
        let json = PayloadFixtures.polkadotA(
            replacing: "signedExtensions", with: "[\"CheckSpecVersion\",\"CustomNonce\",\"CheckMortality\"]")
        let p = try SignerPayload(json: json)
        #expect(throws: PolkadotCodecError(.unknownSignedExtension, "")) {
            try SigningPayload(payload: p, metadata: md)
        }
        // without metadata we cannot know: a visible warning, never silence
        let s = try SigningPayload(payload: p)
        #expect(s.warnings.contains { $0.contains("CustomNonce") })
    }

    @Test func anUnknownZeroSizedExtensionIsAWarningNotAnError() throws {
        var md = try PayloadResources.metadata("polkadot-v15.scale")
        let i = try #require(md.extrinsic.signedExtensions.firstIndex { $0.identifier == "CheckWeight" })
        md.extrinsic.signedExtensions[i].identifier = "CheckSomethingNew"
        var ids = md.signedExtensionIdentifiers
        ids[i] = "CheckSomethingNew"
        let list = "[" + ids.map { "\"\($0)\"" }.joined(separator: ",") + "]"
        let p = try SignerPayload(json: PayloadFixtures.polkadotA(replacing: "signedExtensions", with: list))
        let s = try SigningPayload(payload: p, metadata: md)
        #expect(s.warnings.count == 1)
        #expect(s.warnings[0].contains("CheckSomethingNew carries no data"))
    }

    @Test func aPayloadListDifferentFromTheMetadataListIsReported() throws {
        let md = try PayloadResources.metadata("polkadot-v15.scale")
        let p = try SignerPayload(json: Array(PayloadFixtures.polkadotA.utf8))
        // vector A's list starts with AuthorizeCall, which the v15 fixture's runtime does not have
        let s = try SigningPayload(payload: p, metadata: md)
        #expect(s.warnings.contains { $0.contains("differ from the chain metadata") && $0.contains("reject") })
        let matching = "[" + md.signedExtensionIdentifiers.map { "\"\($0)\"" }.joined(separator: ",") + "]"
        let q = try SignerPayload(json: PayloadFixtures.polkadotA(replacing: "signedExtensions", with: matching))
        #expect(try SigningPayload(payload: q, metadata: md).warnings.isEmpty)
    }

    @Test func everyExtensionOfTheFixturesIsKnown() throws {
        for file in ["polkadot-v15.scale", "asset-hub-polkadot-v15.scale"] {
            for id in try PayloadResources.metadata(file).signedExtensionIdentifiers {
                #expect(SignedExtensionTable.entries[id] != nil, "\(file): \(id)")
            }
        }
    }

    @Test func assetIdDecodesThroughTheChainsOwnType() throws {
        let md = try PayloadResources.metadata("asset-hub-polkadot-v15.scale")
        let r = AssetIdResolver(metadata: md)
        #expect(
            try r.resolve(Hex.decode("0x0002043205011f", prefix: .required)).optionBytes
                == Hex.decode("0x010002043205011f", prefix: .required))
        #expect(
            try r.resolve(Hex.decode("0x010002043205011f", prefix: .required)).optionBytes
                == Hex.decode("0x010002043205011f", prefix: .required))
        #expect(try r.resolve(nil).optionBytes == [0])
        #expect(throws: PolkadotCodecError(.badAssetId, "")) {
            try r.resolve(Hex.decode("0x01000000", prefix: .required))
        }
        #expect(throws: PolkadotCodecError(.badAssetId, "")) { try r.resolve(Hex.decode("0x02", prefix: .required)) }
    }
}

@Suite struct SignerPayloadHostileJSONTests {
    @Test func deeplyNestedJSONIsRefusedWithoutExhaustingTheStack() {
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        let json = PayloadFixtures.polkadotA(replacing: "mode", with: "0,\"x\":" + deep)
        #expect(throws: PolkadotCodecError(.badJSON, "")) { try SignerPayload(json: json) }
    }
}
