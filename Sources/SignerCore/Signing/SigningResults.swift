import Primitives
import ScaleCodec

/// The signature of an approved transaction.
public struct ExtrinsicSignature: Sendable, Hashable {
    /// The SCALE `MultiSignature` (scheme byte ‖ signature).
    public let signature: MultiSignature
    /// The signed v4 extrinsic, present exactly when the dapp asked (`withSignedTransaction`).
    public let signedTransaction: [UInt8]?

    public init(signature: MultiSignature, signedTransaction: [UInt8]?) {
        self.signature = signature
        self.signedTransaction = signedTransaction
    }

    /// The encoded `MultiSignature` (scheme byte ‖ signature), as delivered.
    public var signatureBytes: [UInt8] { signature.encoded }

    /// `0x` + the encoded `MultiSignature`, as polkadot-js `SignerResult.signature`.
    public var signatureHex: String { Hex.encode(signature.encoded) }
}

/// The signature of an approved message, without a `MultiSignature` prefix (polkadot-js `signRaw`).
public struct MessageSignature: Sendable, Hashable {
    public let signature: [UInt8]
    public init(signature: [UInt8]) { self.signature = signature }
    public var signatureHex: String { Hex.encode(signature) }
}
