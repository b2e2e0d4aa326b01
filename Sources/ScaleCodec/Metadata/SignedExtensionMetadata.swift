/// One signed (transaction) extension: its identifier (`CheckNonce`…), the type of its explicit
/// data (in the extrinsic and the payload), and of its implicit data (payload only).
package struct SignedExtensionMetadata: Hashable, Sendable {
    package var identifier: String
    /// Explicit ("extra") type.
    package var type: UInt32
    /// Implicit ("additional signed") type.
    package var additionalSigned: UInt32

    package init(identifier: String, type: UInt32, additionalSigned: UInt32) {
        self.identifier = identifier
        self.type = type
        self.additionalSigned = additionalSigned
    }

    init(from r: inout ScaleReader) throws {
        identifier = try r.readString()
        type = try r.readCompact(as: UInt32.self)
        additionalSigned = try r.readCompact(as: UInt32.self)
    }

    func encode(to w: inout ScaleWriter) {
        w.writeString(identifier)
        w.writeCompact(type)
        w.writeCompact(additionalSigned)
    }
}
