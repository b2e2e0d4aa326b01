import PolkadotCodec
import Primitives
import ScaleCodec
import SigningKeys

/// Which chain properties a person reads, and how values are rendered with them.
///
/// Precedence: for a genesis hash in ``KnownChains`` the table wins outright, so a site cannot make
/// 1,000 DOT read as "1 WND" (security: the amount a person approves must not be the site's word).
/// Otherwise: properties a dapp provided (`metadata.provide`: `tokenDecimals`, `tokenSymbol`,
/// `ss58Format`, `chain`), then ``KnownChains`` by the metadata's `spec_name` (when no genesis hash
/// is given), then the metadata's `System.SS58Prefix`. Anything still unknown stays `nil` and is
/// shown as such (raw planck, generic prefix 42). When provided properties contradict the table for
/// a known genesis hash, ``PayloadSummary`` also shows a warning naming both.
extension ChainProperties {
    /// Resolves the properties for a chain from the provided ones, the known-chain table and metadata.
    /// Without a genesis hash, the metadata's `spec_name` identifies well-known chains.
    package static func resolve(
        genesisHash: [UInt8]?, provided: ChainProperties? = nil, metadata: RuntimeMetadata? = nil
    ) -> ChainProperties {
        if let known = genesisHash.flatMap({ KnownChains.chain(genesisHash: $0) }) {
            return ChainProperties(name: known.name, ss58Prefix: known.ss58Prefix, token: known.token)
        }
        let known =
            genesisHash == nil
            ? metadata?.runtimeVersion.flatMap { KnownChains.chain(specName: $0.specName) } : nil
        return ChainProperties(
            name: provided?.name ?? known?.name,
            ss58Prefix: provided?.ss58Prefix ?? known?.ss58Prefix ?? metadata?.ss58Prefix,
            token: provided?.token ?? known?.token)
    }

    /// A renderer for this chain: accounts in SS58 with the chain's prefix (generic 42 when
    /// unknown; 20-byte accounts as hex), amounts with the chain's token when known.
    package var renderer: ValueRenderer {
        let prefix = ss58Prefix ?? SS58.genericSubstrate
        return ValueRenderer(
            accountFormatter: { bytes in
                if bytes.count == 32, let s = try? SS58.encode(bytes, prefix: prefix) { return s }
                return Hex.encode(bytes)
            }, token: token)
    }
}
