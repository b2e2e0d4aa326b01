import Keystore
import MetadataHash
import PolkadotCodec
import Primitives
import ScaleCodec
import StateStore
import Synchronization

/// Metadata a person approved for one chain, decoded.
package struct ApprovedMetadata: Sendable {
    /// The chain's genesis hash (32 bytes).
    package let genesisHash: [UInt8]
    /// The decoded metadata and the chain properties stored with it.
    package let source: MetadataSource
    /// Whether the whole runtime metadata was approved (`rawMetadata`), not the calls-only
    /// `metaCalls` form, which lacks the constants and types the RFC-0078 hash needs.
    package let isComplete: Bool
}

/// Approved chain metadata from the state store, decoded once per (genesis hash, spec version) and
/// kept: a signing request reads only the stored spec version (`StateStore.metadataVersion`, an
/// index lookup, never the blob) and decodes the blob again only when a newer version was approved.
/// Metadata comes only from what a person approved through `metadata.provide`, never from a request.
///
/// It also computes the RFC-0078 metadata hash of that metadata through a ``MetadataHashCache``
/// (the process's one, ``SigningService``), so the hash is always of the metadata the call is
/// decoded with: when a chain's metadata is decoded anew, its cached roots are dropped.
package final class ChainMetadataCache: Sendable {
    private let store: any StateStore
    private let cache = Mutex<[String: (spec: UInt32, approved: ApprovedMetadata)]>([:])
    /// Metadata-hash roots per (genesis hash, spec version).
    package let hashes: MetadataHashCache

    package init(store: any StateStore, hashes: MetadataHashCache = MetadataHashCache()) {
        self.store = store
        self.hashes = hashes
    }

    /// The decoded metadata and chain properties approved for `genesisHash`, or `nil` when none is
    /// stored (or it does not decode).
    package func source(genesisHash: String) -> MetadataSource? { approved(genesisHash: genesisHash)?.source }

    /// The RFC-0078 metadata hash of `approved`'s metadata with `extra` (computed once per genesis
    /// hash and spec version). - Throws: `MetadataHashError` (a spec version other than the
    /// metadata's, metadata other than v15, types the RFC cannot express).
    package func metadataHash(of approved: ApprovedMetadata, extra: ExtraInfo) throws -> [UInt8] {
        try hashes.metadataHash(genesisHash: approved.genesisHash, extra: extra) { approved.source.metadata }
    }

    /// What was approved for `genesisHash`, or `nil` when nothing is stored (or it does not decode).
    package func approved(genesisHash: String) -> ApprovedMetadata? {
        let key = genesisHash.lowercased()
        guard let genesis = try? Hex.decode(key, prefix: .required, byteCount: 32) else { return nil }
        return approved(key: key, genesis: genesis)
    }

    /// The same for a payload's genesis hash, already 32 bytes (no hex to check or decode; the
    /// cache key is its lower-case hex).
    package func approved(genesisHash: [UInt8]) -> ApprovedMetadata? {
        guard genesisHash.count == 32 else { return nil }
        return approved(key: Hex.encode(genesisHash), genesis: genesisHash)
    }

    /// `key`: the genesis hash as `0x` + lower-case hex; `genesis`: its 32 bytes.
    private func approved(key: String, genesis: [UInt8]) -> ApprovedMetadata? {
        guard let spec = try? store.metadataVersion(genesisHash: key) else { return nil }
        if let hit = cache.withLock({ $0[key] }), hit.spec == spec { return hit.approved }
        guard let stored = try? store.metadata(genesisHash: key) else { return nil }
        var properties = ChainProperties(name: stored.chain.isEmpty ? nil : stored.chain, ss58Prefix: stored.ss58Format)
        if let symbol = stored.tokenSymbol, let decimals = stored.tokenDecimals {
            properties.token = TokenFormat(decimals: Int(decimals), symbol: symbol)
        }
        var source: MetadataSource?
        let complete = !stored.metadata.isEmpty
        if complete {
            source = try? MetadataSource(bytes: stored.metadata, properties: properties, genesisHash: genesis)
        } else if let extra = stored.extraJSON, let def = try? JSONValue.parse(Array(extra.utf8)),
            let calls = def["metaCalls"]?.stringValue
        {
            source = try? MetadataSource(metaCalls: calls, properties: properties, genesisHash: genesis)
        }
        guard let source else { return nil }
        let approved = ApprovedMetadata(genesisHash: genesis, source: source, isComplete: complete)
        // Roots computed from the metadata decoded before belong to that metadata only.
        hashes.removeAll(genesisHash: genesis)
        cache.withLock { $0[key] = (stored.specVersion, approved) }
        return approved
    }
}
