import ScaleCodec

/// What we know about a chain for display: its name, address format and token.
///
/// Precedence: properties a dapp provided (`metadata.provide`: `tokenDecimals`, `tokenSymbol`,
/// `ss58Format`, `chain`), then ``KnownChains`` by genesis hash, then the metadata's
/// `System.SS58Prefix`. Anything still unknown stays `nil` and is shown as such (raw planck,
/// generic prefix 42).
public struct ChainProperties: Hashable, Sendable {
    public var name: String?
    public var ss58Prefix: UInt16?
    public var token: TokenFormat?

    public init(name: String? = nil, ss58Prefix: UInt16? = nil, token: TokenFormat? = nil) {
        self.name = name
        self.ss58Prefix = ss58Prefix
        self.token = token
    }

    /// Resolves the properties for a chain from the provided ones, the known-chain table and metadata.
    public static func resolve(
        genesisHash: [UInt8], provided: ChainProperties? = nil, metadata: RuntimeMetadata? = nil
    ) -> ChainProperties {
        let known = KnownChains.chain(genesisHash: genesisHash)
        return ChainProperties(
            name: provided?.name ?? known?.name,
            ss58Prefix: provided?.ss58Prefix ?? known?.ss58Prefix ?? metadata?.ss58Prefix,
            token: provided?.token ?? known?.token)
    }
}
