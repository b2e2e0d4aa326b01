/// How the runtime's extrinsics are built: versions, address/call/signature types, and the
/// signed (transaction) extensions in extrinsic order with their explicit and implicit types.
///
/// v14: `{ty, version, signed_extensions}`; v15: `{version, address_ty, call_ty, signature_ty,
/// extra_ty, signed_extensions}`; v16: `{versions, address_ty, call_ty, signature_ty,
/// transaction_extensions_by_version, transaction_extensions}` (frame-metadata).
package struct ExtrinsicMetadata: Hashable, Sendable {
    /// v14: the `UncheckedExtrinsic` type.
    package var extrinsicType: UInt32?
    /// Supported extrinsic versions (one entry before v16).
    package var versions: [UInt8]
    package var addressType: UInt32?
    package var callType: UInt32?
    package var signatureType: UInt32?
    /// v15: the tuple of all extensions' explicit types.
    package var extraType: UInt32?
    /// v16: extension indices per extrinsic version.
    package var extensionsByVersion: [(version: UInt8, indices: [UInt32])]
    /// The signed extensions in the order the runtime applies them.
    package var signedExtensions: [SignedExtensionMetadata]

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

    package static func == (a: ExtrinsicMetadata, b: ExtrinsicMetadata) -> Bool {
        a.extrinsicType == b.extrinsicType && a.versions == b.versions && a.addressType == b.addressType
            && a.callType == b.callType && a.signatureType == b.signatureType && a.extraType == b.extraType
            && a.extensionsByVersion.map(\.version) == b.extensionsByVersion.map(\.version)
            && a.extensionsByVersion.map(\.indices) == b.extensionsByVersion.map(\.indices)
            && a.signedExtensions == b.signedExtensions
    }

    package func hash(into h: inout Hasher) {
        h.combine(versions)
        h.combine(signedExtensions)
    }
}
