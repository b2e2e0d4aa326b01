import Journal
import Keystore
/// Chain metadata a dapp shared (`pub(metadata.provide)`, polkadot-js `MetadataDef`) and the user
/// accepted, stored per genesis hash: one row per chain, replaced when a newer one is saved.
package struct ChainMetadata: Sendable, Hashable {
    /// `0x` + 64 lower-case hex digits.
    package var genesisHash: String
    /// Runtime `specVersion` the metadata belongs to.
    package var specVersion: UInt32
    /// Chain name (display only).
    package var chain: String
    /// SS58 prefix, when known.
    package var ss58Format: UInt16?
    /// Token symbol, e.g. `DOT`.
    package var tokenSymbol: String?
    /// Token decimals, e.g. 10.
    package var tokenDecimals: UInt8?
    /// The raw runtime metadata bytes (SCALE, as `state_getMetadata` returns them). May be empty when a
    /// dapp gave only properties.
    package var metadata: [UInt8]
    /// Any other `MetadataDef` fields (icon, chainType, types, userExtensions) as JSON text, verbatim.
    package var extraJSON: String?
    /// When stored, milliseconds since 1970 (set by the store).
    package var updatedAt: Int64

    /// Creates a value; `updatedAt` is replaced by the store when saving.
    package init(
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
