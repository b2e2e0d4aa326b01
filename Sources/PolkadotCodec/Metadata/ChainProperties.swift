import ScaleCodec

/// What a chain says about itself for display: its name, address format and token, as a polkadot-js
/// `MetadataDef` carries them (`chain`, `ss58Format`, `tokenDecimals`, `tokenSymbol`; see
/// ``MetadataSource``). A plain value: which source wins for a chain (the built-in table of known
/// chains, a site's word, the metadata) is SignerCore's rule (`ChainProperties.resolve`), not the codec's.
package struct ChainProperties: Hashable, Sendable {
    /// The chain's name, `nil` when unknown.
    package var name: String?
    /// The SS58 prefix its addresses are written with, `nil` when unknown.
    package var ss58Prefix: UInt16?
    /// Decimals and symbol of its token, `nil` when unknown (amounts are then shown in planck).
    package var token: TokenFormat?

    /// Creates properties; anything left out is unknown.
    package init(name: String? = nil, ss58Prefix: UInt16? = nil, token: TokenFormat? = nil) {
        self.name = name
        self.ss58Prefix = ss58Prefix
        self.token = token
    }
}
