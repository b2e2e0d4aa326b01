import Foundation
import Primitives
import ScaleCodec
import Testing

@testable import PolkadotCodec

@Suite struct MetadataSourceTests {
    @Test func metadataIsReadFromBytesHexAndMetadataDefJSON() throws {
        let bytes = try PayloadResources.data("polkadot-v15.scale")
        let hex = Hex.encode(bytes)
        #expect(try MetadataSource(contents: bytes).metadata.version == 15)
        #expect(try MetadataSource(contents: Array((hex + "\n").utf8)).metadata.version == 15)
        let def: [String: Any] = [
            "chain": "Polkadot", "genesisHash": "0x91b171bb158e2d3848fa23a9f1c25182fb8e20313b2c1eb49219da7a70ce90c3",
            "ss58Format": 0, "tokenDecimals": 10, "tokenSymbol": "DOT", "rawMetadata": hex,
        ]
        let fromDef = try MetadataSource(contents: [UInt8](JSONSerialization.data(withJSONObject: def)))
        #expect(
            fromDef.properties
                == ChainProperties(name: "Polkadot", ss58Prefix: 0, token: TokenFormat(decimals: 10, symbol: "DOT")))
        #expect(fromDef.genesisHash?.count == 32)
        let calls: [String: Any] = [
            "metaCalls": Data(bytes).base64EncodedString(), "tokenDecimals": 12, "tokenSymbol": "X",
        ]
        let fromCalls = try MetadataSource(contents: [UInt8](JSONSerialization.data(withJSONObject: calls)))
        #expect(fromCalls.properties?.token?.decimals == 12)
        #expect(try MetadataSource(rawMetadata: hex).metadata.pallets.count == fromDef.metadata.pallets.count)
        #expect(try MetadataSource(metaCalls: Data(bytes).base64EncodedString()).metadata.version == 15)
    }

    @Test(arguments: ["", "0x", "0xzz", "{}", "{\"rawMetadata\":\"0x6d657461\"}", "{\"metaCalls\":\"%%%\"}", "meta"])
    func badMetadataInputIsRefused(text: String) {
        #expect(throws: PolkadotCodecError(.badMetadata, "")) { try MetadataSource(contents: Array(text.utf8)) }
    }
}
