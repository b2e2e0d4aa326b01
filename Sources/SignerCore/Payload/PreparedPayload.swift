import PolkadotCodec
import Primitives
import ScaleCodec

/// A `SignerPayloadJSON` taken all the way to what is signed and what is shown: the validated
/// request, the signing payload rebuilt from it (both `PolkadotCodec`), and the human summary. The
/// one entry point for the gateway's `pub(extrinsic.sign)` and for `sigil payload`. It stays in
/// SignerCore because the summary (`PayloadSummary`: known chains, the metadata-hash status,
/// escaped text) is what a person approves, not codec.
package struct PreparedPayload: Hashable, Sendable {
    /// The validated request.
    package let payload: SignerPayload
    /// The exact bytes to sign.
    package let signing: SigningPayload
    /// What a person reads before approving.
    package let summary: PayloadSummary

    /// Parses, validates, rebuilds and summarises.
    /// - Parameters:
    ///   - json: the `SignerPayloadJSON` bytes as received (untrusted).
    ///   - metadata: the chain's metadata, if known (call decoding, extension checks, asset type).
    ///   - provided: chain properties a dapp provided through `metadata.provide`.
    /// - Throws: ``SignerError`` naming the reason (the `PolkadotCodecError` of `SignerPayload` or
    ///   `SigningPayload`, passed on under the same code).
    package init(json: [UInt8], metadata: RuntimeMetadata? = nil, provided: ChainProperties? = nil) throws {
        let payload = try polkadotCodec { () throws(PolkadotCodecError) in try SignerPayload(json: json) }
        try self.init(payload: payload, metadata: metadata, provided: provided)
    }
}

extension PreparedPayload {
    /// As ``init(json:metadata:provided:)`` for a payload already parsed (the gateway parses each
    /// request body once; numbers keep their exact text).
    package init(value: JSONValue, metadata: RuntimeMetadata? = nil, provided: ChainProperties? = nil) throws {
        let payload = try polkadotCodec { () throws(PolkadotCodecError) in try SignerPayload(value: value) }
        try self.init(payload: payload, metadata: metadata, provided: provided)
    }

    /// From a validated payload. `metadataHash` is what the signer established about the payload's
    /// RFC-0078 hash (``MetadataHashStatus``; the signing service passes it, after setting mode 1 and
    /// its own hash where it adds the check).
    /// - Throws: ``SignerError`` (`unknownSignedExtension`, `badAssetId`) from rebuilding the signing payload.
    package init(
        payload: SignerPayload, metadata: RuntimeMetadata? = nil, provided: ChainProperties? = nil,
        metadataHash: MetadataHashStatus? = nil
    ) throws {
        self.payload = payload
        signing = try polkadotCodec { () throws(PolkadotCodecError) in
            try SigningPayload(payload: payload, metadata: metadata)
        }
        summary = PayloadSummary(
            payload: payload, signing: signing, metadata: metadata, provided: provided, metadataHashStatus: metadataHash
        )
    }
}
