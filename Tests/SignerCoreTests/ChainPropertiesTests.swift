import PolkadotCodec
import ScaleCodec
import Testing

@testable import SignerCore

/// Which chain properties a person reads (`ChainProperties.resolve`), from the metadata alone.
@Suite struct ChainPropertiesTests {
    @Test func theMetadataNamesItsChainSs58PrefixAndSpecVersion() throws {
        let dot = try PayloadResources.metadata("polkadot-v15.scale")
        #expect(dot.ss58Prefix == 0)
        #expect(dot.specVersion == 2_000_000)
        #expect(dot.runtimeVersion?.specName == "polkadot")
        #expect(dot.runtimeVersion?.transactionVersion == 26)
        let ah = try PayloadResources.metadata("asset-hub-polkadot-v15.scale")
        #expect(ah.runtimeVersion?.specName == "statemint")
        #expect(ChainProperties.resolve(genesisHash: nil, metadata: ah).name == "Polkadot Asset Hub")
    }
}
