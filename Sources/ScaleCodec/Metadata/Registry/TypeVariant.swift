/// A variant of an enum type.
package struct TypeVariant: Hashable, Sendable {
    package var name: String
    package var fields: [TypeField]
    /// The SCALE index byte of the variant.
    package var index: UInt8
    package var docs: [String]

    package init(name: String, fields: [TypeField], index: UInt8, docs: [String] = []) {
        self.name = name
        self.fields = fields
        self.index = index
        self.docs = docs
    }

    init(from reader: inout ScaleReader) throws {
        name = try reader.readString()
        fields = try reader.readVector { r in try TypeField(from: &r) }
        index = try reader.readU8()
        docs = try reader.readVector { r in try r.readString() }
    }

    func encode(to writer: inout ScaleWriter) {
        writer.writeString(name)
        writer.writeVector(fields) { w, f in f.encode(to: &w) }
        writer.writeU8(index)
        writer.writeVector(docs) { w, s in w.writeString(s) }
    }
}
