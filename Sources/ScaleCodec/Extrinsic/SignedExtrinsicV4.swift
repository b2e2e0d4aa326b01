/// A signed extrinsic in format version 4, as a dapp receives it in `signedTransaction`.
///
/// Bytes: `compact(len) ‖ 0x84 ‖ address ‖ signature ‖ extra ‖ call` where `0x84` is the signed
/// bit with version 4 and `extra` are the signed extensions' explicit fields in extension order
/// (docs/reference/polkadot-extension.md §2.9; polkadot-sdk `unchecked_extrinsic.rs`
/// `Preamble::Signed`). Deterministic.
package struct SignedExtrinsicV4: Hashable, Sendable {
    /// The signer (`MultiAddress::Id` on MultiAddress chains).
    package var address: MultiAddress
    /// The tagged signature.
    package var signature: MultiSignature
    /// The explicit ("extra") bytes of every signed extension, concatenated in order.
    package var extra: [UInt8]
    /// The call bytes (pallet index, call index, arguments).
    package var call: [UInt8]

    /// Creates the extrinsic from its parts.
    package init(address: MultiAddress, signature: MultiSignature, extra: [UInt8], call: [UInt8]) {
        self.address = address
        self.signature = signature
        self.extra = extra
        self.call = call
    }

    /// The full encoding, length-prefixed.
    package var encoded: [UInt8] {
        var body = ScaleWriter()
        body.writeByte(0b1000_0100)
        address.encode(to: &body)
        signature.encode(to: &body)
        body.write(raw: extra)
        body.write(raw: call)
        var out = ScaleWriter(capacity: body.bytes.count + 5)
        out.writeByteVector(body.bytes)
        return out.bytes
    }
}
