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
}
