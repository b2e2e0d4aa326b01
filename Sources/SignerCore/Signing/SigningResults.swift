import Primitives
import ScaleCodec

/// The signature of an approved transaction.
package struct ExtrinsicSignature: Sendable, Hashable {
    /// The SCALE `MultiSignature` (scheme byte ‖ signature).
    package let signature: MultiSignature
    /// The signed v4 extrinsic, present exactly when the dapp asked (`withSignedTransaction`).
    package let signedTransaction: [UInt8]?

    package init(signature: MultiSignature, signedTransaction: [UInt8]?) {
        self.signature = signature
        self.signedTransaction = signedTransaction
    }

    /// The encoded `MultiSignature` (scheme byte ‖ signature), as delivered.
    package var signatureBytes: [UInt8] { signature.encoded }

    /// `0x` + the encoded `MultiSignature`, as polkadot-js `SignerResult.signature`.
    package var signatureHex: String { Hex.encode(signature.encoded) }
}

/// The signature of an approved message, without a `MultiSignature` prefix (polkadot-js `signRaw`).
package struct MessageSignature: Sendable, Hashable {
    package let signature: [UInt8]
    package init(signature: [UInt8]) { self.signature = signature }
    package var signatureHex: String { Hex.encode(signature) }
}
