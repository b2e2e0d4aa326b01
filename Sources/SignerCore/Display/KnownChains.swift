import Primitives
import ScaleCodec

/// Chains we can name and whose token we know, by genesis hash.
///
/// Runtime metadata does not carry token decimals or symbol (only `System.SS58Prefix`), so a
/// small table fills the gap for well-known chains; a dapp's `metadata.provide` properties
/// (`tokenDecimals`, `tokenSymbol`, `ss58Format`) take precedence (``ChainProperties``).
/// Genesis hashes: polkadot-js/common `packages/networks/src/defaults/genesis.ts`
/// (docs/reference/polkadot-extension.md §5.1). Decimals/symbols: the chains' `system_properties`.
package enum KnownChains {
    /// A known chain.
    package struct Chain: Hashable, Sendable {
        package let name: String
        /// `RuntimeVersion.spec_name`, to recognise the chain from metadata alone.
        package let specName: String
        package let genesisHash: String
        package let ss58Prefix: UInt16
        package let token: TokenFormat
    }

    /// The table.
    package static let all: [Chain] = [
        Chain(
            name: "Polkadot", specName: "polkadot",
            genesisHash: "0x91b171bb158e2d3848fa23a9f1c25182fb8e20313b2c1eb49219da7a70ce90c3",
            ss58Prefix: 0, token: TokenFormat(decimals: 10, symbol: "DOT")),
        Chain(
            name: "Kusama", specName: "kusama",
            genesisHash: "0xb0a8d493285c2df73290dfb7e61f870f17b41801197a149ca93654499ea3dafe",
            ss58Prefix: 2, token: TokenFormat(decimals: 12, symbol: "KSM")),
        Chain(
            name: "Westend", specName: "westend",
            genesisHash: "0xe143f23803ac50e8f6f8e62695d1ce9e4e1d68aa36c1cd2cfd15340213f3423e",
            ss58Prefix: 42, token: TokenFormat(decimals: 12, symbol: "WND")),
        Chain(
            name: "Polkadot Asset Hub", specName: "statemint",
            genesisHash: "0x68d56f15f85d3136970ec16946040bc1752654e906147f7e43e9d539d7c3de2f",
            ss58Prefix: 0, token: TokenFormat(decimals: 10, symbol: "DOT")),
        Chain(
            name: "Kusama Asset Hub", specName: "statemine",
            genesisHash: "0x48239ef607d7928874027a43a67689209727dfb3d3dc5e5b03a39bdc2eda771a",
            ss58Prefix: 2, token: TokenFormat(decimals: 12, symbol: "KSM")),
    ]

    /// The chain whose runtime has this spec name, if known.
    package static func chain(specName: String) -> Chain? { all.first { $0.specName == specName } }

    /// The chain with this genesis hash, if known.
    package static func chain(genesisHash: [UInt8]) -> Chain? {
        zip(all, genesisHashes).first { $0.1 == genesisHash }?.0
    }

    /// The table's genesis hashes as bytes (compared as they are, not encoded per look-up).
    private static let genesisHashes: [[UInt8]] = all.map { (try? Hex.decode($0.genesisHash, prefix: .required)) ?? [] }
}
