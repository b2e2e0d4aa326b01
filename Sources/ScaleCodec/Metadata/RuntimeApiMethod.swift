/// A runtime API method.
package struct RuntimeApiMethod: Hashable, Sendable {
    package var name: String
    package var inputs: [FunctionParameter]
    package var output: UInt32
    package var docs: [String]
    package var deprecation: DeprecationInfo

    init(from r: inout ScaleReader, version: UInt8) throws {
        name = try r.readString()
        inputs = try r.readVector { r in try FunctionParameter(from: &r) }
        output = try r.readCompact(as: UInt32.self)
        docs = try r.readVector { r in try r.readString() }
        deprecation = version >= 16 ? try DeprecationInfo(from: &r) : .notDeprecated
    }

    func encode(to w: inout ScaleWriter, version: UInt8) {
        w.writeString(name)
        w.writeVector(inputs) { w, p in p.encode(to: &w) }
        w.writeCompact(output)
        w.writeVector(docs) { w, s in w.writeString(s) }
        if version >= 16 { deprecation.encode(to: &w) }
    }
}
