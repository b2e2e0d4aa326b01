import MetadataHash
import PolkadotCodec
import Primitives
import ScaleCodec

/// RFC-0078 in the signer (docs/reference/metadata-hash.md §10): the metadata hash of the chain as
/// Sigil knows it (approved metadata, the chain's spec name, version and prefix from it, decimals
/// and symbol from the approved chain properties or the known-chain table), compared with what a
/// site sends, or put into a mode-0 payload that asks for the signed transaction.
///
/// Pure apart from the hash cache; the signing service runs it before a request is queued, so what
/// the person approves already carries the final mode and hash.
package enum MetadataHashCheck {
    /// The signed extension's identifier.
    package static let extensionName = "CheckMetadataHash"

    /// The state-store setting that turns adding the check off for one chain:
    /// `metadata-hash.add.<genesis hash, 0x + lower-case hex>` = `off` (anything else, or no row, is on).
    package static func settingKey(genesisHash: [UInt8]) -> String { "metadata-hash.add." + Hex.encode(genesisHash) }

    /// The chain's metadata hash for `payload`, or why Sigil cannot know it.
    package enum Expected: Equatable {
        case known([UInt8])
        case unknown(String)
    }

    /// The metadata hash the chain will put into the signed data for `payload`, from what a person
    /// approved for its genesis hash. Unknown (with the reason a person reads) when there is no
    /// approved metadata, only the calls-only form, another version than v15, another spec version
    /// than the payload's, or no known token decimals and symbol.
    package static func expected(
        for payload: SignerPayload, approved: ApprovedMetadata?, cache: ChainMetadataCache
    ) -> Expected {
        guard let approved else { return .unknown("no metadata for this chain was approved in Sigil") }
        guard approved.isComplete else {
            return .unknown("the approved metadata is the calls-only form (metaCalls), which cannot be hashed")
        }
        let metadata = approved.source.metadata
        guard metadata.version == 15 else {
            return .unknown("the approved metadata is version \(metadata.version); the hash is defined on version 15")
        }
        guard let version = metadata.runtimeVersion else {
            return .unknown("the approved metadata has no System.Version constant")
        }
        guard version.specVersion == payload.specVersion else {
            return .unknown(
                "the approved metadata is for spec version \(version.specVersion), the payload for \(payload.specVersion)"
            )
        }
        // The same decimals and symbol the summary shows: the known-chain table wins for a known
        // genesis hash, else the properties approved with the metadata.
        let properties = ChainProperties.resolve(
            genesisHash: payload.genesisHash, provided: approved.source.properties, metadata: metadata)
        guard let token = properties.token, let decimals = UInt8(exactly: token.decimals) else {
            return .unknown(
                "the chain's token decimals and symbol are not known (not in the approved chain properties)")
        }
        do {
            let extra = try ExtraInfo(metadata: metadata, decimals: decimals, tokenSymbol: token.symbol)
            return .known(try cache.metadataHash(of: approved, extra: extra))
        } catch let error as MetadataHashError {
            return .unknown("the approved metadata cannot be hashed (\(error.code))")
        } catch {
            return .unknown("the approved metadata cannot be hashed")
        }
    }

    /// Checks `payload`'s metadata hash against `expected`, or adds it.
    ///
    /// - Mode 1 whose hash is signed (the extension is in the payload's list and the approved
    ///   metadata's): equal → verified; different → refused; unknown → unverified.
    /// - Mode 0 with `withSignedTransaction`, when `addsCheck` (the chain's setting), the payload's
    ///   list and the approved metadata both have `CheckMetadataHash`, and the hash is known: the
    ///   payload becomes mode 1 with that hash (nothing else changes) → added.
    /// - Otherwise mode 0 → not used, with a note saying why nothing was added.
    ///
    /// `addsCheck` is asked only for a mode-0 payload that would get the check (it reads a setting).
    /// - Throws: `SignerError.metadataHashMismatch` when the site's hash is not the chain's as Sigil knows it.
    package static func apply(
        to payload: inout SignerPayload, expected: Expected, chainHasExtension: Bool,
        addsCheck: @autoclosure () -> Bool
    ) throws -> MetadataHashStatus {
        let listed = payload.signedExtensions.contains(extensionName)
        if let sent = payload.metadataHash {
            guard listed else { return .unchecked(payload) }
            if case .known = expected, !chainHasExtension {
                return .unverified(
                    sent, reason: "the approved metadata has no CheckMetadataHash, so the chain does not check it")
            }
            switch expected {
            case .known(let ours) where ours == sent: return .verified(ours)
            case .known:
                throw SignerError(
                    .metadataHashMismatch,
                    "the site's metadata hash differs from the hash of the metadata and chain properties approved in Sigil"
                )
            case .unknown(let reason): return .unverified(sent, reason: reason)
            }
        }
        guard listed else { return .notUsed(note: nil) }
        guard payload.withSignedTransaction else {
            return .notUsed(note: "Sigil adds the check only when the site asks for the signed transaction")
        }
        guard addsCheck() else { return .notUsed(note: "adding the check is turned off for this chain") }
        switch expected {
        case .unknown(let reason):
            return .notUsed(note: "Sigil cannot add it: \(reason)")
        case .known(let ours):
            guard chainHasExtension else { return .notUsed(note: "the approved metadata has no CheckMetadataHash") }
            payload.mode = 1
            payload.metadataHash = ours
            return .added(ours)
        }
    }
}
