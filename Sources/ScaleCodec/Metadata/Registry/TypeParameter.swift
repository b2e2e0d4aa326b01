/// A generic parameter of a type (`T`, `Call`…), with its concrete type id if any.
package struct TypeParameter: Hashable, Sendable {
    package var name: String
    package var type: UInt32?

    package init(name: String, type: UInt32?) {
        self.name = name
        self.type = type
    }

    init(from reader: inout ScaleReader) throws {
        name = try reader.readString()
        type = try reader.readOption { r in try r.readCompact(as: UInt32.self) }
    }

    func encode(to writer: inout ScaleWriter) {
        writer.writeString(name)
        writer.writeOption(type) { w, t in w.writeCompact(t) }
    }
}
