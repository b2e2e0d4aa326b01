import Primitives

/// `PolkadotCodec`'s error (docs/reference/conventions.md §1; the shape, equality and security rules
/// are `CodedError`'s). A payload refusal names its field in the reason (`badField`, reason
/// `tip must be …`), never the field's value beyond a short bounded excerpt (a number the request
/// gave, at most 4 bytes of an `era`).
///
/// The case names are the reasons of the payload vectors (`payloads.json` `invalid[].reason`,
/// lower camel case) and what `sigil` prints (`<code>: <reason>`). SignerCore passes every one on
/// under the same name (`SignerError(polkadotCodecError)`), so a case is added here and in
/// `SignerErrorCode` together, and never renamed.
package typealias PolkadotCodecError = CodedError<PolkadotCodecErrorCode>

/// Why a `PolkadotCodecError` was thrown; the case name is what messages and logs show
/// (`PolkadotCodecError.<case>: reason`).
package enum PolkadotCodecErrorCode: String, ErrorCode, CaseIterable {
    package static let domain = "PolkadotCodecError"

    // MARK: SignerPayloadJSON (Payload/SignerPayload)
    /// Text that is not the JSON object expected (`SignerPayload(json:)`).
    case badJSON
    /// A required `SignerPayloadJSON` field is absent (`MissingField`).
    case missingField
    /// A field has the wrong JSON type or an impossible value.
    case badField
    /// A hex field is not `0x` + an even number of hex digits (`NotHex`).
    case notHex
    /// A hash has the wrong number of bytes (`BadLength`).
    case badLength
    /// A number does not fit its type (`Overflow`), e.g. a tip over u128.
    case overflow
    /// `era` does not decode as an extrinsic era (`InvalidEra`).
    case invalidEra
    /// `version` is not 4 (`UnsupportedVersion`).
    case unsupportedVersion
    /// `mode` is neither 0 nor 1 (`BadMode`).
    case badMode
    /// `mode` 1 without `metadataHash` (`ModeWithoutMetadataHash`).
    case modeWithoutMetadataHash
    /// `metadataHash` with `mode` 0 (`MetadataHashWithoutMode`).
    case metadataHashWithoutMode
    /// An immortal era whose `blockHash` is not the genesis hash (`ImmortalBlockHash`).
    case immortalBlockHash
    /// `address` is neither valid SS58 nor a 20- or 32-byte hex address (`BadAddress`); also a signed
    /// transaction asked for an account id that is not 32 bytes (`MultiAddress::Id`).
    case badAddress
    /// `assetId` is neither an Option-prefixed nor a bare Location (`BadAssetId`).
    case badAssetId

    // MARK: The signing payload (Payload/SigningPayload)
    /// A signed extension outside `SignedExtensionTable` carries data according to the chain's metadata.
    case unknownSignedExtension

    // MARK: Metadata input (Metadata/MetadataSource)
    /// Runtime metadata (or a `MetadataDef`) that does not decode, or is too large.
    case badMetadata
}
