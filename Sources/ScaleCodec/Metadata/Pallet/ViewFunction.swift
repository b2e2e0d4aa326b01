/// A v16 pallet view function.
package struct ViewFunction: Hashable, Sendable {
    package var id: [UInt8]
    package var name: String
    package var inputs: [FunctionParameter]
    package var output: UInt32
    package var docs: [String]
    package var deprecation: DeprecationInfo

    init(from r: inout ScaleReader) throws {
        id = try r.readBytes(32)
        name = try r.readString()
        inputs = try r.readVector { r in try FunctionParameter(from: &r) }
        output = try r.readCompact(as: UInt32.self)
        docs = try r.readVector { r in try r.readString() }
        deprecation = try DeprecationInfo(from: &r)
    }

    func encode(to w: inout ScaleWriter) {
        w.write(raw: id)
        w.writeString(name)
        w.writeVector(inputs) { w, p in p.encode(to: &w) }
        w.writeCompact(output)
        w.writeVector(docs) { w, s in w.writeString(s) }
        deprecation.encode(to: &w)
    }
}
