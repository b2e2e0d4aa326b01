/// How the runtime's extrinsics are built: versions, address/call/signature types, and the
/// signed (transaction) extensions in extrinsic order with their explicit and implicit types.
///
/// v14: `{ty, version, signed_extensions}`; v15: `{version, address_ty, call_ty, signature_ty,
/// extra_ty, signed_extensions}`; v16: `{versions, address_ty, call_ty, signature_ty,
/// transaction_extensions_by_version, transaction_extensions}` (frame-metadata).
public struct ExtrinsicMetadata: Hashable, Sendable {
    /// v14: the `UncheckedExtrinsic` type.
    public var extrinsicType: UInt32?
    /// Supported extrinsic versions (one entry before v16).
    public var versions: [UInt8]
    public var addressType: UInt32?
    public var callType: UInt32?
    public var signatureType: UInt32?
    /// v15: the tuple of all extensions' explicit types.
    public var extraType: UInt32?
    /// v16: extension indices per extrinsic version.
    public var extensionsByVersion: [(version: UInt8, indices: [UInt32])]
    /// The signed extensions in the order the runtime applies them.
    public var signedExtensions: [SignedExtensionMetadata]

    init(from r: inout ScaleReader, version: UInt8) throws {
        extensionsByVersion = []
        switch version {
        case 14:
            extrinsicType = try r.readCompact(as: UInt32.self)
            versions = [try r.readU8()]
        case 15:
            versions = [try r.readU8()]
            addressType = try r.readCompact(as: UInt32.self)
            callType = try r.readCompact(as: UInt32.self)
            signatureType = try r.readCompact(as: UInt32.self)
            extraType = try r.readCompact(as: UInt32.self)
        default:
            versions = try r.readByteVector()
            addressType = try r.readCompact(as: UInt32.self)
            callType = try r.readCompact(as: UInt32.self)
            signatureType = try r.readCompact(as: UInt32.self)
            extensionsByVersion = try r.readVector(minimumElementSize: 2) { r in
                let v = try r.readU8()
                return (v, try r.readVector { r in try r.readCompact(as: UInt32.self) })
            }
        }
        signedExtensions = try r.readVector { r in try SignedExtensionMetadata(from: &r) }
    }

    func encode(to w: inout ScaleWriter, version: UInt8) {
        switch version {
        case 14:
            w.writeCompact(extrinsicType ?? 0)
            w.writeU8(versions.first ?? 4)
        case 15:
            w.writeU8(versions.first ?? 4)
            w.writeCompact(addressType ?? 0)
            w.writeCompact(callType ?? 0)
            w.writeCompact(signatureType ?? 0)
            w.writeCompact(extraType ?? 0)
        default:
            w.writeByteVector(versions)
            w.writeCompact(addressType ?? 0)
            w.writeCompact(callType ?? 0)
            w.writeCompact(signatureType ?? 0)
            w.writeVector(extensionsByVersion) { w, e in
                w.writeU8(e.version)
                w.writeVector(e.indices) { w, i in w.writeCompact(i) }
            }
        }
        w.writeVector(signedExtensions) { w, e in e.encode(to: &w) }
    }

    public static func == (a: ExtrinsicMetadata, b: ExtrinsicMetadata) -> Bool {
        a.extrinsicType == b.extrinsicType && a.versions == b.versions && a.addressType == b.addressType
            && a.callType == b.callType && a.signatureType == b.signatureType && a.extraType == b.extraType
            && a.extensionsByVersion.map(\.version) == b.extensionsByVersion.map(\.version)
            && a.extensionsByVersion.map(\.indices) == b.extensionsByVersion.map(\.indices)
            && a.signedExtensions == b.signedExtensions
    }

    public func hash(into h: inout Hasher) {
        h.combine(versions)
        h.combine(signedExtensions)
    }
}

/// One signed (transaction) extension: its identifier (`CheckNonce`…), the type of its explicit
/// data (in the extrinsic and the payload), and of its implicit data (payload only).
public struct SignedExtensionMetadata: Hashable, Sendable {
    public var identifier: String
    /// Explicit ("extra") type.
    public var type: UInt32
    /// Implicit ("additional signed") type.
    public var additionalSigned: UInt32

    public init(identifier: String, type: UInt32, additionalSigned: UInt32) {
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
