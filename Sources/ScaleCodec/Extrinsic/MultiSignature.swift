import Primitives
/// `sp_runtime::MultiSignature`: a signature tagged with its scheme (docs/reference/polkadot-extension.md §2.7).
///
/// Encoding is the variant byte (`0x00` ed25519, `0x01` sr25519, `0x02` ecdsa) then the raw
/// signature; the initialiser checks the length (64/64/65) so a wrong-sized signature can never be
/// encoded. This is what `pub(extrinsic.sign)` returns on MultiSignature chains.
package struct MultiSignature: Hashable, Sendable {
    /// The signature scheme and its SCALE variant index.
    package enum Scheme: UInt8, Sendable, CaseIterable {
        case ed25519 = 0
        case sr25519 = 1
        case ecdsa = 2

        /// Raw signature length for the scheme.
        package var signatureLength: Int { self == .ecdsa ? 65 : 64 }
    }

    /// The scheme.
    package let scheme: Scheme
    /// The raw signature (64 bytes, or 65 `r ‖ s ‖ v` for ecdsa).
    package let signature: [UInt8]

    /// Creates a tagged signature. - Throws: `invalidLength` when the size does not match the scheme.
    package init(scheme: Scheme, signature: [UInt8]) throws {
        guard signature.count == scheme.signatureLength else {
            throw ScaleError(
                .invalidLength, "\(scheme) signature must be \(scheme.signatureLength) bytes, got \(signature.count)")
        }
        self.scheme = scheme
        self.signature = signature
    }

    /// Reads a MultiSignature.
    package init(from reader: inout ScaleReader) throws {
        let start = reader.offset
        let tag = try reader.peekByte()
        guard let scheme = Scheme(rawValue: tag) else {
            throw ScaleError(.invalidVariant, "MultiSignature variant \(tag) at offset \(start)")
        }
        var probe = reader
        _ = try probe.readByte()
        let sig = try probe.readBytes(scheme.signatureLength)
        try self.init(scheme: scheme, signature: sig)
        reader = probe
    }

    /// Appends the SCALE encoding.
    package func encode(to writer: inout ScaleWriter) {
        writer.writeByte(scheme.rawValue)
        writer.write(raw: signature)
    }

    /// The SCALE bytes (variant byte then the signature).
    package var encoded: [UInt8] { ScaleWriter.encode { encode(to: &$0) } }
}
