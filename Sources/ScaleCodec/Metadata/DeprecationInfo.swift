/// Deprecation status of a metadata item (frame-metadata v16 `ItemDeprecationInfo`, and with
/// indices 1/2 only, `VariantDeprecationInfo`). Absent before v16.
public enum DeprecationInfo: Hashable, Sendable {
    case notDeprecated
    case deprecatedWithoutNote
    case deprecated(note: String, since: String?)

    init(from reader: inout ScaleReader, allowNotDeprecated: Bool = true) throws {
        let start = reader.offset
        let tag = try reader.readU8()
        switch tag {
        case 0 where allowNotDeprecated: self = .notDeprecated
        case 1: self = .deprecatedWithoutNote
        case 2:
            let note = try reader.readString()
            self = .deprecated(note: note, since: try reader.readOption { r in try r.readString() })
        default: throw ScaleError(.invalidVariant, "deprecation info \(tag) at offset \(start)")
        }
    }

    func encode(to writer: inout ScaleWriter) {
        switch self {
        case .notDeprecated: writer.writeByte(0)
        case .deprecatedWithoutNote: writer.writeByte(1)
        case .deprecated(let note, let since):
            writer.writeByte(2)
            writer.writeString(note)
            writer.writeOption(since) { w, s in w.writeString(s) }
        }
    }
}

/// Per-variant deprecation of an enum (frame-metadata v16 `EnumDeprecationInfo`, a
/// `BTreeMap<u8, VariantDeprecationInfo>` encoded as a vector of pairs in key order).
public struct EnumDeprecationInfo: Hashable, Sendable {
    /// Deprecated variants by index, in the order encoded.
    public var variants: [(index: UInt8, info: DeprecationInfo)]

    public init(variants: [(index: UInt8, info: DeprecationInfo)] = []) { self.variants = variants }

    init(from reader: inout ScaleReader) throws {
        variants = try reader.readVector(minimumElementSize: 2) { r in
            let i = try r.readU8()
            return (i, try DeprecationInfo(from: &r, allowNotDeprecated: false))
        }
    }

    func encode(to writer: inout ScaleWriter) {
        writer.writeVector(variants) { w, v in
            w.writeU8(v.index)
            v.info.encode(to: &w)
        }
    }

    public static func == (a: EnumDeprecationInfo, b: EnumDeprecationInfo) -> Bool {
        a.variants.map(\.index) == b.variants.map(\.index) && a.variants.map(\.info) == b.variants.map(\.info)
    }

    public func hash(into h: inout Hasher) {
        for v in variants {
            h.combine(v.index)
            h.combine(v.info)
        }
    }
}
