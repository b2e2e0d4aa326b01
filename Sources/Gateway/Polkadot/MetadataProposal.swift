import SignerCore

/// Chain metadata a dapp offers (`pub(metadata.provide)`), stored per genesis hash only after a
/// person approves ("upgrade 1002005 → 2000000 for Polkadot"); queued as ``PolkadotApproval``'s
/// update, stored by the adapter's store step.
package struct MetadataProposal: Sendable, Equatable {
    /// The chain's genesis hash, `0x` + 64 lower-case hex digits.
    package var genesisHash: String
    /// The chain name the dapp declares (display only).
    package var chain: String
    /// The offered runtime spec version.
    package var specVersion: UInt32
    /// The spec version already stored for this genesis hash, if any.
    package var knownSpecVersion: UInt32?
    /// The `MetadataDef` JSON object as the gateway serialised it again from the parsed request (not
    /// the bytes received); stored on approval.
    package var definitionJSON: [UInt8]
    /// What the person sees.
    package var summary: [SummaryRow]

    /// Creates a proposal.
    package init(
        genesisHash: String, chain: String, specVersion: UInt32, knownSpecVersion: UInt32?,
        definitionJSON: [UInt8], summary: [SummaryRow]
    ) {
        self.genesisHash = genesisHash
        self.chain = chain
        self.specVersion = specVersion
        self.knownSpecVersion = knownSpecVersion
        self.definitionJSON = definitionJSON
        self.summary = summary
    }
}
