import Primitives
import ScaleCodec

/// Reads `SignerPayloadJSON.assetId` in both wire forms and gives the `Option<Location>` bytes
/// that `ChargeAssetTxPayment` signs (docs/reference/polkadot-extension.md §2.5).
///
/// polkadot-js sends the Option-prefixed form (`0x01` ‖ Location); PAPI sends the bare Location
/// (and omits the field for None). Following polkadot-js `decodeAssetId`: `0x00` is None; bytes
/// that decode exactly as `0x01` ‖ Location are that Location; otherwise the bytes must decode
/// exactly as a Location. Anything else (trailing bytes, bad variants) is `badAssetId`, where
/// polkadot-js would silently drop bytes. Decoding uses the chain's metadata type when known.
package struct AssetIdResolver: Sendable {
    /// The resolved asset.
    package struct Resolved: Hashable, Sendable {
        /// `Option<Location>` SCALE bytes as signed (`0x00` for the native token).
        package var optionBytes: [UInt8]
        /// The decoded Location, `nil` for the native token.
        package var location: ScaleValue?
    }

    let registry: PortableRegistry
    let optionType: UInt32
    let innerType: UInt32

    /// Uses the `asset_id` type of the chain's `ChargeAssetTxPayment` when the metadata has it,
    /// else the built-in XCM v4 Location.
    package init(metadata: RuntimeMetadata?) {
        if let metadata,
            let ext = metadata.extrinsic.signedExtensions.first(where: { $0.identifier == "ChargeAssetTxPayment" }),
            case .composite(let fields)? = try? metadata.registry.type(ext.type).def,
            let assetField = fields.first(where: { $0.name == "asset_id" }) ?? fields.last,
            case .variant(let vs)? = try? metadata.registry.type(assetField.type).def,
            let some = vs.first(where: { $0.name == "Some" }), some.fields.count == 1
        {
            registry = metadata.registry
            optionType = assetField.type
            innerType = some.fields[0].type
        } else {
            registry = XcmLocationRegistry.registry
            optionType = XcmLocationRegistry.optionLocation
            innerType = XcmLocationRegistry.location
        }
    }

    /// Resolves `assetId` bytes (`nil` = absent or null = native token).
    /// - Throws: `PolkadotCodecError.badAssetId` when neither form decodes exactly.
    package func resolve(_ bytes: [UInt8]?) throws(PolkadotCodecError) -> Resolved {
        guard let bytes, bytes != [0] else { return Resolved(optionBytes: [0], location: nil) }
        let decoder = ValueDecoder(registry: registry)
        if bytes.first == 1, let v = try? decoder.decode(Array(bytes.dropFirst()), as: innerType) {
            return Resolved(optionBytes: bytes, location: v)
        }
        if let v = try? decoder.decode(bytes, as: innerType) {
            return Resolved(optionBytes: [1] + bytes, location: v)
        }
        throw PolkadotCodecError(
            .badAssetId, "assetId is neither Option<Location> nor a Location without trailing bytes")
    }
}
