/// A v16 pallet associated type (`Config` trait type exposed in metadata).
package struct AssociatedType: Hashable, Sendable {
    package var name: String
    package var type: UInt32
    package var docs: [String]

    init(from r: inout ScaleReader) throws {
        name = try r.readString()
        type = try r.readCompact(as: UInt32.self)
        docs = try r.readVector { r in try r.readString() }
    }

    func encode(to w: inout ScaleWriter) {
        w.writeString(name)
        w.writeCompact(type)
        w.writeVector(docs) { w, s in w.writeString(s) }
    }
}
