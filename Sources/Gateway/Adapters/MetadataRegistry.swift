import Primitives

/// Stored chain metadata (per genesis hash), provided by dapps through `pub(metadata.provide)`
/// after a person approved. Implemented over the keystore's state store.
package protocol MetadataRegistry: Sendable {
    /// What is stored: `[(genesisHash, specVersion)]`.
    func known() async -> [(genesisHash: String, specVersion: UInt32)]
    /// Stores an approved `MetadataDef` (the JSON object as received).
    func store(genesisHash: String, specVersion: UInt32, definition: JSONValue) async throws
}

/// Metadata kept in memory only (dev mode and tests).
package actor InMemoryMetadataRegistry: MetadataRegistry {
    private var entries: [String: (UInt32, JSONValue)] = [:]

    /// Creates an empty registry.
    package init() {}

    package func known() -> [(genesisHash: String, specVersion: UInt32)] {
        entries.sorted { $0.key < $1.key }.map { ($0.key, $0.value.0) }
    }

    package func store(genesisHash: String, specVersion: UInt32, definition: JSONValue) {
        entries[genesisHash] = (specVersion, definition)
    }

    /// The stored definition for a genesis hash.
    package func definition(genesisHash: String) -> JSONValue? { entries[genesisHash]?.1 }
}
