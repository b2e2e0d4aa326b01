import Foundation
import Gateway
import Keystore
import Primitives
import ScaleCodec
import SignerCore
import StateStore

/// Approved chain metadata kept in the keystore's SQLite state, per genesis hash.
struct StateStoreMetadata: MetadataRegistry {
    let store: any StateStore

    func known() async -> [(genesisHash: String, specVersion: UInt32)] {
        ((try? await store.allMetadata()) ?? []).map {
            ($0.genesisHash, $0.specVersion)
        }
    }

    func store(genesisHash: String, specVersion: UInt32, definition: JSONValue) async throws {
        var raw: [UInt8] = []
        if let hex = definition["rawMetadata"]?.stringValue { raw = (try? Hex.decode(hex, prefix: .required)) ?? [] }
        let decimals = definition["tokenDecimals"]?.integer(as: UInt8.self)
        let ss58 = definition["ss58Format"]?.integer(as: UInt16.self)
        // The definition without rawMetadata (kept as bytes above), for display fields and metaCalls.
        var rest = definition
        if case .object(var o) = definition {
            o["rawMetadata"] = nil
            rest = .object(o)
        }
        let metadata = ChainMetadata(
            genesisHash: genesisHash, specVersion: specVersion, chain: definition["chain"]?.stringValue ?? "",
            ss58Format: ss58, tokenSymbol: definition["tokenSymbol"]?.stringValue, tokenDecimals: decimals,
            metadata: raw, extraJSON: String(decoding: rest.encoded(), as: UTF8.self))
        try await store.saveMetadata(metadata)
    }
}
