/// Chain metadata a dapp shared (`pub(metadata.provide)`, polkadot-js `MetadataDef`) and the user
/// accepted, stored per genesis hash: one row per chain, replaced when a newer one is saved.
public struct ChainMetadata: Sendable, Hashable {
    /// `0x` + 64 lower-case hex digits.
    public var genesisHash: String
    /// Runtime `specVersion` the metadata belongs to.
    public var specVersion: UInt32
    /// Chain name (display only).
    public var chain: String
    /// SS58 prefix, when known.
    public var ss58Format: UInt16?
    /// Token symbol, e.g. `DOT`.
    public var tokenSymbol: String?
    /// Token decimals, e.g. 10.
    public var tokenDecimals: UInt8?
    /// The raw runtime metadata bytes (SCALE, as `state_getMetadata` returns them). May be empty when a
    /// dapp gave only properties.
    public var metadata: [UInt8]
    /// Any other `MetadataDef` fields (icon, chainType, types, userExtensions) as JSON text, verbatim.
    public var extraJSON: String?
    /// When stored, milliseconds since 1970 (set by the store).
    public var updatedAt: Int64

    /// Creates a value; `updatedAt` is replaced by the store when saving.
    public init(
        genesisHash: String, specVersion: UInt32, chain: String, ss58Format: UInt16? = nil, tokenSymbol: String? = nil,
        tokenDecimals: UInt8? = nil, metadata: [UInt8], extraJSON: String? = nil, updatedAt: Int64 = 0
    ) {
        self.genesisHash = genesisHash
        self.specVersion = specVersion
        self.chain = chain
        self.ss58Format = ss58Format
        self.tokenSymbol = tokenSymbol
        self.tokenDecimals = tokenDecimals
        self.metadata = metadata
        self.extraJSON = extraJSON
        self.updatedAt = updatedAt
    }
}
