import Primitives
/// The shape of a type (scale-info `TypeDef`, SCALE index order).
package indirect enum TypeDefinition: Hashable, Sendable {
    case composite([TypeField])
    case variant([TypeVariant])
    case sequence(UInt32)
    case array(length: UInt32, element: UInt32)
    case tuple([UInt32])
    case primitive(PrimitiveType)
    case compact(UInt32)
    case bitSequence(store: UInt32, order: UInt32)

    init(from reader: inout ScaleReader) throws {
        let start = reader.offset
        let tag = try reader.readU8()
        switch tag {
        case 0: self = .composite(try reader.readVector { r in try TypeField(from: &r) })
        case 1: self = .variant(try reader.readVector { r in try TypeVariant(from: &r) })
        case 2: self = .sequence(try reader.readCompact(as: UInt32.self))
        case 3:
            let len = try reader.readU32()
            self = .array(length: len, element: try reader.readCompact(as: UInt32.self))
        case 4: self = .tuple(try reader.readVector { r in try r.readCompact(as: UInt32.self) })
        case 5:
            let p = try reader.readU8()
            guard let prim = PrimitiveType(rawValue: p) else {
                throw ScaleError(.invalidVariant, "primitive type \(p) at offset \(reader.offset - 1)")
            }
            self = .primitive(prim)
        case 6: self = .compact(try reader.readCompact(as: UInt32.self))
        case 7:
            let store = try reader.readCompact(as: UInt32.self)
            self = .bitSequence(store: store, order: try reader.readCompact(as: UInt32.self))
        default:
            throw ScaleError(.invalidVariant, "type definition \(tag) at offset \(start)")
        }
    }

    func encode(to writer: inout ScaleWriter) {
        switch self {
        case .composite(let fields):
            writer.writeByte(0)
            writer.writeVector(fields) { w, f in f.encode(to: &w) }
        case .variant(let variants):
            writer.writeByte(1)
            writer.writeVector(variants) { w, v in v.encode(to: &w) }
        case .sequence(let t):
            writer.writeByte(2)
            writer.writeCompact(t)
        case .array(let len, let t):
            writer.writeByte(3)
            writer.writeU32(len)
            writer.writeCompact(t)
        case .tuple(let ts):
            writer.writeByte(4)
            writer.writeVector(ts) { w, t in w.writeCompact(t) }
        case .primitive(let p):
            writer.writeByte(5)
            writer.writeU8(p.rawValue)
        case .compact(let t):
            writer.writeByte(6)
            writer.writeCompact(t)
        case .bitSequence(let s, let o):
            writer.writeByte(7)
            writer.writeCompact(s)
            writer.writeCompact(o)
        }
    }
}
