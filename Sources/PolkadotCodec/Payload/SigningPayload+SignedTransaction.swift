import Primitives
import ScaleCodec

extension SigningPayload {
    /// The signed v4 extrinsic for `signedTransaction` (docs/reference/polkadot-extension.md §2.9, §4): the signer as
    /// `MultiAddress::Id`, the MultiSignature, this payload's explicit extension bytes, the call.
    ///
    /// Only for MultiAddress/MultiSignature chains (32-byte account ids). Deterministic.
    /// - Throws: `PolkadotCodecError.badAddress` when the account id is not 32 bytes.
    package func signedTransaction(accountId: [UInt8], signature: MultiSignature) throws(PolkadotCodecError) -> [UInt8]
    {
        guard accountId.count == 32 else {
            throw PolkadotCodecError(.badAddress, "signedTransaction needs a 32-byte account id (MultiAddress::Id)")
        }
        return SignedExtrinsicV4(address: .id(accountId), signature: signature, extra: extra, call: call).encoded
    }
}
