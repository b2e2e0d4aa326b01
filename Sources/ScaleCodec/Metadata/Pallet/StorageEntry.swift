import Primitives
/// One storage item.
package struct StorageEntry: Hashable, Sendable {
    /// `StorageEntryType`: a plain value, or a map with hashers, key and value types.
    package enum Kind: Hashable, Sendable {
        case plain(UInt32)
        case map(hashers: [UInt8], key: UInt32, value: UInt32)
    }

    package var name: String
    /// `0` Optional, `1` Default.
    package var modifier: UInt8
    package var kind: Kind
    package var defaultValue: [UInt8]
    package var docs: [String]
    package var deprecation: DeprecationInfo

    init(from r: inout ScaleReader, version: UInt8) throws {
        name = try r.readString()
        let start = r.offset
        modifier = try r.readU8()
        guard modifier <= 1 else {
            throw ScaleError(.invalidVariant, "storage modifier \(modifier) at offset \(start)")
        }
        let kindStart = r.offset
        switch try r.readU8() {
        case 0: kind = .plain(try r.readCompact(as: UInt32.self))
        case 1:
            let hashers = try r.readVector { r in
                let at = r.offset
                let h = try r.readU8()
                guard h <= 6 else { throw ScaleError(.invalidVariant, "storage hasher \(h) at offset \(at)") }
                return h
            }
            let key = try r.readCompact(as: UInt32.self)
            kind = .map(hashers: hashers, key: key, value: try r.readCompact(as: UInt32.self))
        default: throw ScaleError(.invalidVariant, "storage entry type at offset \(kindStart)")
        }
        defaultValue = try r.readByteVector()
        docs = try r.readVector { r in try r.readString() }
        deprecation = version >= 16 ? try DeprecationInfo(from: &r) : .notDeprecated
    }

    func encode(to w: inout ScaleWriter, version: UInt8) {
        w.writeString(name)
        w.writeU8(modifier)
        switch kind {
        case .plain(let t):
            w.writeByte(0)
            w.writeCompact(t)
        case .map(let hashers, let key, let value):
            w.writeByte(1)
            w.writeVector(hashers) { w, h in w.writeU8(h) }
            w.writeCompact(key)
            w.writeCompact(value)
        }
        w.writeByteVector(defaultValue)
        w.writeVector(docs) { w, s in w.writeString(s) }
        if version >= 16 { deprecation.encode(to: &w) }
    }
}
