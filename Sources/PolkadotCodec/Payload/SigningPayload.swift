import Primitives
import ScaleCodec
import SigningKeys

/// The exact bytes a key signs for a `SignerPayloadJSON`, and how they were put together.
///
/// Layout (docs/reference/polkadot-extension.md §2.2; polkadot-js `GenericExtrinsicPayloadV4` signs
/// `toU8a({method: true})`; Substrate `SignedPayload = (call, extension, extension.implicit())`):
/// `call ‖ extra fields of every extension in list order ‖ additional-signed fields in list
/// order`, a field named twice encoded once at its first position (polkadot-js merges the field
/// sets with `objectSpread`), and the BLAKE2b-256 of all that when it is longer than 256 bytes
/// (exactly 256 is signed raw). Deterministic; a pure function of the payload and metadata.
package struct SigningPayload: Hashable, Sendable {
    /// The call bytes.
    package var call: [UInt8]
    /// The explicit bytes of all extensions: what the signed extrinsic carries after the signature.
    package var extra: [UInt8]
    /// The implicit bytes of all extensions (payload only).
    package var additionalSigned: [UInt8]
    /// `call ‖ extra ‖ additionalSigned`.
    package var bytes: [UInt8]
    /// Whether `bytes` is longer than 256 and the hash is signed.
    package var hashed: Bool
    /// What the key signs: `bytes`, or `blake2b-256(bytes)` when ``hashed``.
    package var signedBytes: [UInt8]
    /// The `Option<Location>` fee asset, when `ChargeAssetTxPayment` is in the list.
    package var asset: AssetIdResolver.Resolved?
    /// Things a person should see before approving (unknown zero-size extensions, a list that
    /// differs from the metadata's).
    package var warnings: [String]

    /// Builds the signing payload.
    ///
    /// - Parameters:
    ///   - payload: the validated request.
    ///   - metadata: the chain's metadata when we have it. It decides whether an extension we do
    ///     not know carries data (then we refuse) and supplies the fee asset type.
    /// - Throws: `PolkadotCodecError.unknownSignedExtension` for an unknown extension that carries data
    ///   per the metadata; `badAssetId`.
    package init(payload p: SignerPayload, metadata: RuntimeMetadata? = nil) throws(PolkadotCodecError) {
        var warnings: [String] = []
        // At most the ten fields there are: a list is cheaper than hashing into a set.
        var seen: [SignedExtensionTable.Field] = []
        var extraFields: [SignedExtensionTable.Field] = []
        var additionalFields: [SignedExtensionTable.Field] = []

        if let metadata {
            let ours = metadata.signedExtensionIdentifiers
            if ours != p.signedExtensions {
                warnings.append(Self.extensionDifference(payload: p.signedExtensions, chain: ours))
            }
        }
        var entries: [SignedExtensionTable.Entry] = []
        for id in p.signedExtensions {
            if let e = SignedExtensionTable.entries[id] {
                entries.append(e)
                continue
            }
            try Self.checkUnknown(id, metadata: metadata, warnings: &warnings)
        }
        for e in entries {
            for f in e.extra where !seen.contains(f) {
                seen.append(f)
                extraFields.append(f)
            }
        }
        for e in entries {
            for f in e.additional where !seen.contains(f) {
                seen.append(f)
                additionalFields.append(f)
            }
        }

        var asset: AssetIdResolver.Resolved?
        if extraFields.contains(.assetId) {
            asset = try AssetIdResolver(metadata: metadata).resolve(p.assetIdBytes)
        } else if p.assetIdBytes != nil && p.assetIdBytes != [0] {
            warnings.append("assetId is given but no extension in the list signs it; it is ignored")
        }
        if p.mode == 1 && !extraFields.contains(.mode) {
            warnings.append("CheckMetadataHash mode 1 is asked but the extension is not in the list; it is ignored")
        }
        if p.tip > 0 && !extraFields.contains(.tip) {
            warnings.append("a tip is given but no extension in the list pays it; it is ignored")
        }

        var extra = ScaleWriter()
        for f in extraFields { Self.write(f, p, asset: asset, to: &extra) }
        var additional = ScaleWriter()
        for f in additionalFields { Self.write(f, p, asset: asset, to: &additional) }

        call = p.method
        self.extra = extra.bytes
        additionalSigned = additional.bytes
        var bytes: [UInt8] = []
        bytes.reserveCapacity(p.method.count + extra.bytes.count + additional.bytes.count)
        bytes += p.method
        bytes += extra.bytes
        bytes += additional.bytes
        self.bytes = bytes
        // polkadot-js extrinsic/util.ts: `u8a.length > 256 ? blake2AsU8a(u8a) : u8a`.
        hashed = bytes.count > 256
        signedBytes = hashed ? Blake2b.hash256(bytes) : bytes
        self.asset = asset
        self.warnings = warnings
    }

    static func write(
        _ f: SignedExtensionTable.Field, _ p: SignerPayload, asset: AssetIdResolver.Resolved?, to w: inout ScaleWriter
    ) {
        switch f {
        case .era: p.era.encode(to: &w)
        case .nonce: w.writeCompact(UInt128(p.nonce))
        case .tip: w.writeCompact(p.tip)
        case .assetId: w.write(raw: asset?.optionBytes ?? [0])
        case .mode: w.writeU8(p.mode)
        case .specVersion: w.writeU32(p.specVersion)
        case .transactionVersion: w.writeU32(p.transactionVersion)
        case .genesisHash: w.write(raw: p.genesisHash)
        case .blockHash: w.write(raw: p.blockHash)
        case .metadataHash: w.writeOption(p.metadataHash) { w, h in w.write(raw: h) }
        }
    }

    /// The site's signed-extension list against the chain metadata's, naming only what differs
    /// (not both lists): which are missing, which the chain does not have, or that only the order differs.
    static func extensionDifference(payload: [String], chain: [String]) -> String {
        let missing = chain.filter { !payload.contains($0) }
        let extra = payload.filter { !chain.contains($0) }
        var parts: [String] = []
        if !missing.isEmpty { parts.append("it lacks \(missing.joined(separator: ", "))") }
        if !extra.isEmpty { parts.append("it adds \(extra.joined(separator: ", ")), which the chain does not have") }
        if parts.isEmpty { parts.append("the same names in another order") }
        return
            "the transaction's signed extensions differ from the chain metadata's: \(parts.joined(separator: "; ")). "
            + "The chain will likely reject this signature, so the transaction would fail"
    }

    /// An extension outside our table: refused when the metadata says it carries data (we could
    /// not encode it, and skipping it would make a bad signature); a warning otherwise.
    static func checkUnknown(_ id: String, metadata: RuntimeMetadata?, warnings: inout [String])
        throws(PolkadotCodecError)
    {
        guard let metadata, let ext = metadata.signedExtensionsForV4.first(where: { $0.identifier == id }) else {
            warnings.append(
                "unknown signed extension \(id) is treated as carrying no data (no chain metadata says otherwise)")
            return
        }
        let sizer = TypeSizer(registry: metadata.registry)
        let explicitEmpty = (try? sizer.isZeroSized(ext.type)) ?? false
        let implicitEmpty = (try? sizer.isZeroSized(ext.additionalSigned)) ?? false
        guard explicitEmpty && implicitEmpty else {
            throw PolkadotCodecError(
                .unknownSignedExtension,
                "signed extension \(id) carries data this signer cannot encode; signing would give a bad signature")
        }
        warnings.append("unknown signed extension \(id) carries no data per the chain metadata")
    }
}
