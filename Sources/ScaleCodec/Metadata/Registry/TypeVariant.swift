/// A variant of an enum type.
public struct TypeVariant: Hashable, Sendable {
    public var name: String
    public var fields: [TypeField]
    /// The SCALE index byte of the variant.
    public var index: UInt8
    public var docs: [String]

    public init(name: String, fields: [TypeField], index: UInt8, docs: [String] = []) {
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
