import Testing

@testable import ScaleCodec

@Suite struct RuntimeMetadataTests {
    @Test(arguments: TestResources.metadataFixtures)
    func everyMetadataFixtureDecodesAndReEncodesByteForByte(name: String) throws {
        let bytes = try TestResources.data("\(name).scale")
        let md = try RuntimeMetadata(bytes: bytes)
        #expect(md.encoded == bytes, "\(name) round trip")
        #expect(!md.pallets.isEmpty)
        #expect(md.registry.types.count > 100)
        #expect(md.pallet(named: "System")?.index == 0)
        #expect(md.signedExtensionIdentifiers.contains("CheckNonce"))
        #expect(md.runtimeCallType != nil)
    }

    @Test func metadataVersionsAreRead() throws {
        #expect(try RuntimeMetadata(bytes: TestResources.data("polkadot-v14.scale")).version == 14)
        #expect(try RuntimeMetadata(bytes: TestResources.data("polkadot-v15.scale")).version == 15)
        #expect(try RuntimeMetadata(bytes: TestResources.data("polkadot-v16.scale")).version == 16)
    }

    @Test func constantsNameThePrefixSpecVersionAndExtensionsOfEachRuntime() throws {
        let cases: [(String, UInt16, UInt32, String)] = [
            ("polkadot-v14", 0, 1_002_005, "polkadot"), ("polkadot-v15", 0, 2_000_000, "polkadot"),
            ("polkadot-v16", 0, 2_003_000, "polkadot"), ("kusama-v15", 2, 1_009_002, "kusama"),
            ("asset-hub-polkadot-v15", 0, 2_000_000, "statemint"),
        ]
        for (name, prefix, spec, specName) in cases {
            let md = try RuntimeMetadata(bytes: TestResources.data("\(name).scale"))
            #expect(md.ss58Prefix == prefix, "\(name)")
            #expect(md.specVersion == spec, "\(name)")
            #expect(md.runtimeVersion?.specName == specName, "\(name)")
            let version = try TestResources.json("\(name).version.json")
            #expect(
                md.runtimeVersion?.transactionVersion == UInt32(version["transactionVersion"] as? Int ?? -1), "\(name)")
        }
        // v16 lists the current Polkadot extensions, AuthorizeCall first (docs/reference/polkadot-extension.md §2.3)
        let v16 = try RuntimeMetadata(bytes: TestResources.data("polkadot-v16.scale"))
        #expect(
            v16.signedExtensionIdentifiers == [
                "AuthorizeCall", "CheckNonZeroSender", "CheckSpecVersion", "CheckTxVersion", "CheckGenesis",
                "CheckMortality", "CheckNonce", "CheckWeight", "ChargeTransactionPayment", "PrevalidateAttests",
                "CheckMetadataHash",
            ])
        let v15 = try RuntimeMetadata(bytes: TestResources.data("polkadot-v15.scale"))
        #expect(v15.signedExtensionIdentifiers.first == "CheckNonZeroSender")
    }
}
