import Keystore
import Primitives
import ScaleCodec
import Synchronization

/// Approved chain metadata from the state store, decoded once per (genesis hash, spec version) and
/// kept: a signing request reads only the stored spec version (`StateStore.metadataVersion`, an
/// index lookup, never the blob) and decodes the blob again only when a newer version was approved.
/// Metadata comes only from what a person approved through `metadata.provide`, never from a request.
public final class ChainMetadataCache: Sendable {
    private let store: any StateStore
    private let cache = Mutex<[String: (spec: UInt32, source: MetadataSource)]>([:])

    public init(store: any StateStore) { self.store = store }

    /// The decoded metadata and chain properties approved for `genesisHash`, or `nil` when none is
    /// stored (or it does not decode).
    public func source(genesisHash: String) -> MetadataSource? {
        let key = genesisHash.lowercased()
        guard Hex.isValid(key, prefix: .required, byteCount: 32),
            let spec = try? store.metadataVersion(genesisHash: key)
        else { return nil }
        if let hit = cache.withLock({ $0[key] }), hit.spec == spec { return hit.source }
        guard let stored = try? store.metadata(genesisHash: key) else { return nil }
        var properties = ChainProperties(name: stored.chain.isEmpty ? nil : stored.chain, ss58Prefix: stored.ss58Format)
        if let symbol = stored.tokenSymbol, let decimals = stored.tokenDecimals {
            properties.token = TokenFormat(decimals: Int(decimals), symbol: symbol)
        }
        let genesis = try? Hex.decode(key, prefix: .required)
        var source: MetadataSource?
        if !stored.metadata.isEmpty {
            source = try? MetadataSource(bytes: stored.metadata, properties: properties, genesisHash: genesis)
        } else if let extra = stored.extraJSON, let def = try? JSONValue.parse(Array(extra.utf8)),
            let calls = def["metaCalls"]?.stringValue
        {
            source = try? MetadataSource(metaCalls: calls, properties: properties, genesisHash: genesis)
        }
        guard let source else { return nil }
        cache.withLock { $0[key] = (stored.specVersion, source) }
        return source
    }
}
