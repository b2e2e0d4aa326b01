/// A field of a struct or enum variant.
package struct TypeField: Hashable, Sendable {
    /// Field name; `nil` for tuple-like fields.
    package var name: String?
    /// Field type id.
    package var type: UInt32
    /// The Rust type as written in the source (`T::Balance`, `BalanceOf<T>`), useful for display.
    package var typeName: String?
    /// Documentation lines.
    package var docs: [String]

    package init(name: String?, type: UInt32, typeName: String?, docs: [String] = []) {
        self.name = name
        self.type = type
        self.typeName = typeName
        self.docs = docs
    }

    init(from reader: inout ScaleReader) throws {
        name = try reader.readOption { r in try r.readString() }
        type = try reader.readCompact(as: UInt32.self)
        typeName = try reader.readOption { r in try r.readString() }
        docs = try reader.readVector { r in try r.readString() }
    }

    func encode(to writer: inout ScaleWriter) {
        writer.writeOption(name) { w, s in w.writeString(s) }
        writer.writeCompact(type)
        writer.writeOption(typeName) { w, s in w.writeString(s) }
        writer.writeVector(docs) { w, s in w.writeString(s) }
    }
}
