/// What each signed extension adds to the signing payload: its explicit ("extra") fields, which
/// also go into the extrinsic, and its implicit ("additional signed") fields, payload only.
///
/// Source: docs/reference/polkadot-extension.md §2.2 (polkadot-js
/// `packages/types/src/extrinsic/signedExtensions/{substrate,polkadot,statemint,shell,emptyCheck}.ts`)
/// plus the zero-size extensions of current runtimes: `AuthorizeCall`
/// (`frame_system::AuthorizeCall`), `EthSetOrigin` (`pallet_revive` `SetOrigin`, its only field is
/// `#[codec(skip)]`) and `StorageWeightReclaim` (`cumulus_pallet_weight_reclaim`).
package enum SignedExtensionTable {
    /// A payload field an extension contributes. The raw value names the `SignerPayloadJSON` key.
    package enum Field: String, Sendable, CaseIterable {
        case era, nonce, tip, assetId, mode
        case specVersion, transactionVersion, genesisHash, blockHash, metadataHash
    }

    /// The fields of one extension.
    package struct Entry: Sendable, Equatable {
        package let extra: [Field]
        package let additional: [Field]
    }

    /// Every extension we know, by metadata identifier.
    package static let entries: [String: Entry] = {
        let none = Entry(extra: [], additional: [])
        var t: [String: Entry] = [
            "CheckSpecVersion": Entry(extra: [], additional: [.specVersion]),
            "CheckVersion": Entry(extra: [], additional: [.specVersion]),
            "CheckTxVersion": Entry(extra: [], additional: [.transactionVersion]),
            "CheckGenesis": Entry(extra: [], additional: [.genesisHash]),
            "CheckMortality": Entry(extra: [.era], additional: [.blockHash]),
            "CheckEra": Entry(extra: [.era], additional: [.blockHash]),
            "CheckNonce": Entry(extra: [.nonce], additional: []),
            "ChargeTransactionPayment": Entry(extra: [.tip], additional: []),
            "SkipCheckIfFeeless": Entry(extra: [.tip], additional: []),
            "ChargeAssetTxPayment": Entry(extra: [.tip, .assetId], additional: []),
            "CheckMetadataHash": Entry(extra: [.mode], additional: [.metadataHash]),
        ]
        for id in zeroSized { t[id] = none }
        return t
    }()

    /// Known extensions that add no bytes.
    package static let zeroSized: [String] = [
        "CheckNonZeroSender", "CheckWeight", "PrevalidateAttests", "LimitParathreadCommits", "OnlyStakingAndClaims",
        "RestrictFunctionality", "TransactionCallFilter", "ValidateDoubleVoteReports", "CheckBlockGasLimit",
        "LockStakingStatus", "ValidateEquivocationReport", "WeightReclaim", "DisallowSigned",
        "AuthorizeCall", "EthSetOrigin", "StorageWeightReclaim",
    ]
}
