import ScaleCodec
import SigningKeys

/// One leaf of the type-information tree (RFC-0078 `Type`): a type of the runtime metadata in the
/// RFC's reduced form, or one variant of an enum (an enum is one leaf per variant).
///
/// Its hash is BLAKE3 of its SCALE encoding: `path: Vec<String>`, `type_def: TypeDef`,
/// `type_id: Compact<u32>` (docs/reference/metadata-hash.md §3.2).
package struct TypeLeaf: Hashable, Sendable {
    /// The Rust path of the metadata type (`["sp_core", "crypto", "AccountId32"]`), may be empty.
    package var path: [String]
    /// The shape.
    package var definition: Definition
    /// The new id: the position of the metadata type among the kept types (shared by an enum's variants).
    package var typeId: UInt32

    /// RFC-0078 `TypeDef` (SCALE indices 0…5 in this order).
    package enum Definition: Hashable, Sendable {
        case composite([LeafField])
        /// One variant of an enum.
        case enumeration(LeafVariant)
        case sequence(TypeRef)
        case array(length: UInt32, element: TypeRef)
        case tuple([TypeRef])
        /// `num_bytes` of the store type (1, 2, 4 or 8) and the bit order.
        case bitSequence(numBytes: UInt8, leastSignificantBitFirst: Bool)
    }

    package init(path: [String], definition: Definition, typeId: UInt32) {
        self.path = path
        self.definition = definition
        self.typeId = typeId
    }

    /// Appends the SCALE encoding.
    package func encode(to w: inout ScaleWriter) {
        w.writeVector(path) { w, s in w.writeString(s) }
        switch definition {
        case .composite(let fields):
            w.writeU8(0)
            w.writeVector(fields) { w, f in f.encode(to: &w) }
        case .enumeration(let variant):
            w.writeU8(1)
            variant.encode(to: &w)
        case .sequence(let element):
            w.writeU8(2)
            element.encode(to: &w)
        case .array(let length, let element):
            w.writeU8(3)
            w.writeU32(length)
            element.encode(to: &w)
        case .tuple(let elements):
            w.writeU8(4)
            w.writeVector(elements) { w, t in t.encode(to: &w) }
        case .bitSequence(let numBytes, let lsbFirst):
            w.writeU8(5)
            w.writeU8(numBytes)
            w.writeBool(lsbFirst)
        }
        w.writeCompact(typeId)
    }

    /// The SCALE encoding.
    package var encoded: [UInt8] {
        var w = ScaleWriter(capacity: 64)
        encode(to: &w)
        return w.bytes
    }

    /// BLAKE3 of the encoding: the leaf's hash in the tree.
    package var hash: [UInt8] { Blake3.hash(encoded) }

    /// The variant index when this leaf is an enum variant.
    package var variantIndex: UInt32? {
        if case .enumeration(let v) = definition { return v.index }
        return nil
    }
}

/// A field of a composite or variant (RFC-0078 `Field`): docs are dropped.
package struct LeafField: Hashable, Sendable {
    package var name: String?
    package var type: TypeRef
    package var typeName: String?

    package init(name: String?, type: TypeRef, typeName: String?) {
        self.name = name
        self.type = type
        self.typeName = typeName
    }

    package func encode(to w: inout ScaleWriter) {
        w.writeOption(name) { w, s in w.writeString(s) }
        type.encode(to: &w)
        w.writeOption(typeName) { w, s in w.writeString(s) }
    }
}

/// One variant of an enum (RFC-0078 `EnumerationVariant`): its index is a `Compact<u32>`.
package struct LeafVariant: Hashable, Sendable {
    package var name: String
    package var fields: [LeafField]
    package var index: UInt32

    package init(name: String, fields: [LeafField], index: UInt32) {
        self.name = name
        self.fields = fields
        self.index = index
    }

    package func encode(to w: inout ScaleWriter) {
        w.writeString(name)
        w.writeVector(fields) { w, f in f.encode(to: &w) }
        w.writeCompact(index)
    }
}
