/// Per-variant deprecation of an enum (frame-metadata v16 `EnumDeprecationInfo`, a
/// `BTreeMap<u8, VariantDeprecationInfo>` encoded as a vector of pairs in key order).
package struct EnumDeprecationInfo: Hashable, Sendable {
    /// Deprecated variants by index, in the order encoded.
    package var variants: [(index: UInt8, info: DeprecationInfo)]

    package init(variants: [(index: UInt8, info: DeprecationInfo)] = []) { self.variants = variants }

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

    package static func == (a: EnumDeprecationInfo, b: EnumDeprecationInfo) -> Bool {
        a.variants.map(\.index) == b.variants.map(\.index) && a.variants.map(\.info) == b.variants.map(\.info)
    }

    package func hash(into h: inout Hasher) {
        for v in variants {
            h.combine(v.index)
            h.combine(v.info)
        }
    }
}
