import Foundation
import Gateway
import Keystore
import ScaleCodec
import SignerCore

/// Approved chain metadata kept in the keystore's SQLite state, per genesis hash.
struct StateStoreMetadata: MetadataRegistry {
    let store: any StateStore

    func known() async -> [(genesisHash: String, specVersion: UInt32)] {
        ((try? store.allMetadata()) ?? []).map { ($0.genesisHash, $0.specVersion) }
    }

    func store(genesisHash: String, specVersion: UInt32, definition: WireJSON) async throws {
        var raw: [UInt8] = []
        if let hex = definition["rawMetadata"]?.stringValue { raw = (try? HexCoding.decode(hex)) ?? [] }
        let decimals = definition["tokenDecimals"]?.numberValue.flatMap { UInt8(exactly: $0) }
        let ss58 = definition["ss58Format"]?.numberValue.flatMap { UInt16(exactly: $0) }
        // The definition without rawMetadata (kept as bytes above), for display fields and metaCalls.
        var rest = definition
        if case .object(var o) = definition {
            o["rawMetadata"] = nil
            rest = .object(o)
        }
        try store.saveMetadata(
            ChainMetadata(
                genesisHash: genesisHash, specVersion: specVersion, chain: definition["chain"]?.stringValue ?? "",
                ss58Format: ss58, tokenSymbol: definition["tokenSymbol"]?.stringValue, tokenDecimals: decimals,
                metadata: raw, extraJSON: String(decoding: rest.encoded(), as: UTF8.self)))
    }
}
