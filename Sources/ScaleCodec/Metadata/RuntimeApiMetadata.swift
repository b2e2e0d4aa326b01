/// A runtime API trait (v15+): name, methods, docs, and in v16 its version and deprecation.
package struct RuntimeApiMetadata: Hashable, Sendable {
    package var name: String
    package var methods: [RuntimeApiMethod]
    package var docs: [String]
    /// v16 only.
    package var version: UInt32
    /// v16 only.
    package var deprecation: DeprecationInfo

    init(from r: inout ScaleReader, version v: UInt8) throws {
        name = try r.readString()
        methods = try r.readVector { r in try RuntimeApiMethod(from: &r, version: v) }
        docs = try r.readVector { r in try r.readString() }
        if v >= 16 {
            version = try r.readCompact(as: UInt32.self)
            deprecation = try DeprecationInfo(from: &r)
        } else {
            version = 0
            deprecation = .notDeprecated
        }
    }

    func encode(to w: inout ScaleWriter, version v: UInt8) {
        w.writeString(name)
        w.writeVector(methods) { w, m in m.encode(to: &w, version: v) }
        w.writeVector(docs) { w, s in w.writeString(s) }
        if v >= 16 {
            w.writeCompact(version)
            deprecation.encode(to: &w)
        }
    }
}
