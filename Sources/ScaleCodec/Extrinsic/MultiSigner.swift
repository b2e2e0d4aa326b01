import Primitives
/// `sp_runtime::MultiSigner`: a public key tagged with its scheme (`0x00` ed25519 32 bytes,
/// `0x01` sr25519 32 bytes, `0x02` ecdsa 33-byte compressed). The initialiser checks the length.
package struct MultiSigner: Hashable, Sendable {
    /// The scheme (same variant indices as ``MultiSignature/Scheme``).
    package let scheme: MultiSignature.Scheme
    /// The public key.
    package let publicKey: [UInt8]

    /// Public-key length for a scheme.
    package static func keyLength(_ scheme: MultiSignature.Scheme) -> Int { scheme == .ecdsa ? 33 : 32 }

    /// Creates a tagged key. - Throws: `invalidLength` when the size does not match the scheme.
    package init(scheme: MultiSignature.Scheme, publicKey: [UInt8]) throws {
        guard publicKey.count == Self.keyLength(scheme) else {
            throw ScaleError(
                .invalidLength, "\(scheme) public key must be \(Self.keyLength(scheme)) bytes, got \(publicKey.count)")
        }
        self.scheme = scheme
        self.publicKey = publicKey
    }

    /// Reads a MultiSigner.
    package init(from reader: inout ScaleReader) throws {
        let start = reader.offset
        let tag = try reader.peekByte()
        guard let scheme = MultiSignature.Scheme(rawValue: tag) else {
            throw ScaleError(.invalidVariant, "MultiSigner variant \(tag) at offset \(start)")
        }
        var probe = reader
        _ = try probe.readByte()
        let key = try probe.readBytes(Self.keyLength(scheme))
        try self.init(scheme: scheme, publicKey: key)
        reader = probe
    }

    /// Appends the SCALE encoding.
    package func encode(to writer: inout ScaleWriter) {
        writer.writeByte(scheme.rawValue)
        writer.write(raw: publicKey)
    }
}
