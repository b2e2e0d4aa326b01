/// A pallet constant: its type and SCALE-encoded value (e.g. `System.SS58Prefix`).
package struct PalletConstant: Hashable, Sendable {
    package var name: String
    package var type: UInt32
    package var value: [UInt8]
    package var docs: [String]
    package var deprecation: DeprecationInfo

    init(from r: inout ScaleReader, version: UInt8) throws {
        name = try r.readString()
        type = try r.readCompact(as: UInt32.self)
        value = try r.readByteVector()
        docs = try r.readVector { r in try r.readString() }
        deprecation = version >= 16 ? try DeprecationInfo(from: &r) : .notDeprecated
    }

    func encode(to w: inout ScaleWriter, version: UInt8) {
        w.writeString(name)
        w.writeCompact(type)
        w.writeByteVector(value)
        w.writeVector(docs) { w, s in w.writeString(s) }
        if version >= 16 { deprecation.encode(to: &w) }
    }
}
