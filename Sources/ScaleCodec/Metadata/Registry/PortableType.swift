/// One registry entry: a compact id and its type.
package struct PortableType: Hashable, Sendable {
    /// The id other types and the metadata use to refer to it.
    package var id: UInt32
    /// The type.
    package var type: TypeInfo

    /// Creates an entry.
    package init(id: UInt32, type: TypeInfo) {
        self.id = id
        self.type = type
    }

    /// Reads an entry.
    package init(from reader: inout ScaleReader) throws {
        id = try reader.readCompact(as: UInt32.self)
        type = try TypeInfo(from: &reader)
    }

    /// Appends the SCALE encoding.
    package func encode(to writer: inout ScaleWriter) {
        writer.writeCompact(id)
        type.encode(to: &writer)
    }
}
