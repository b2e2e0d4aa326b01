import Primitives
/// The portable type registry of runtime metadata (scale-info `PortableRegistry`): every type the
/// runtime mentions, by compact id.
///
/// Untrusted input: ids in the metadata are checked at lookup (``type(_:)`` throws
/// `unknownType`), never trusted as array indices.
package struct PortableRegistry: Hashable, Sendable {
    /// All types, in the order the metadata lists them.
    package var types: [PortableType]
    private var index: [UInt32: Int]

    /// Creates a registry from its types.
    package init(types: [PortableType]) {
        self.types = types
        var index: [UInt32: Int] = [:]
        index.reserveCapacity(types.count)
        for (i, t) in types.enumerated() where index[t.id] == nil { index[t.id] = i }
        self.index = index
    }

    /// The type with id `id`. - Throws: `unknownType` when the registry has none.
    package func type(_ id: UInt32) throws -> TypeInfo {
        if Int(id) < types.count, types[Int(id)].id == id { return types[Int(id)].type }
        guard let i = index[id] else { throw ScaleError(.unknownType, "type id \(id) is not in the registry") }
        return types[i].type
    }

    /// Reads a registry.
    package init(from reader: inout ScaleReader) throws {
        let types = try reader.readVector { r in try PortableType(from: &r) }
        self.init(types: types)
    }

    /// Appends the SCALE encoding.
    package func encode(to writer: inout ScaleWriter) {
        writer.writeVector(types) { w, t in t.encode(to: &w) }
    }

    package static func == (a: PortableRegistry, b: PortableRegistry) -> Bool { a.types == b.types }
    package func hash(into h: inout Hasher) { h.combine(types) }
}
