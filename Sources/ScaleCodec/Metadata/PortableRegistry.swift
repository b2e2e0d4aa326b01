/// The portable type registry of runtime metadata (scale-info `PortableRegistry`): every type the
/// runtime mentions, by compact id.
///
/// Untrusted input: ids in the metadata are checked at lookup (``type(_:)`` throws
/// `unknownType`), never trusted as array indices.
public struct PortableRegistry: Hashable, Sendable {
    /// All types, in the order the metadata lists them.
    public var types: [PortableType]
    private var index: [UInt32: Int]

    /// Creates a registry from its types.
    public init(types: [PortableType]) {
        self.types = types
        var index: [UInt32: Int] = [:]
        index.reserveCapacity(types.count)
        for (i, t) in types.enumerated() where index[t.id] == nil { index[t.id] = i }
        self.index = index
    }

    /// The type with id `id`. - Throws: `unknownType` when the registry has none.
    public func type(_ id: UInt32) throws -> TypeInfo {
        if Int(id) < types.count, types[Int(id)].id == id { return types[Int(id)].type }
        guard let i = index[id] else { throw ScaleError(.unknownType, "type id \(id) is not in the registry") }
        return types[i].type
    }

    /// Reads a registry.
    public init(from reader: inout ScaleReader) throws {
        let types = try reader.readVector { r in try PortableType(from: &r) }
        self.init(types: types)
    }

    /// Appends the SCALE encoding.
    public func encode(to writer: inout ScaleWriter) {
        writer.writeVector(types) { w, t in t.encode(to: &w) }
    }

    public static func == (a: PortableRegistry, b: PortableRegistry) -> Bool { a.types == b.types }
    public func hash(into h: inout Hasher) { h.combine(types) }
}

/// One registry entry: a compact id and its type.
public struct PortableType: Hashable, Sendable {
    /// The id other types and the metadata use to refer to it.
    public var id: UInt32
    /// The type.
    public var type: TypeInfo

    /// Creates an entry.
    public init(id: UInt32, type: TypeInfo) {
        self.id = id
        self.type = type
    }

    /// Reads an entry.
    public init(from reader: inout ScaleReader) throws {
        id = try reader.readCompact(as: UInt32.self)
        type = try TypeInfo(from: &reader)
    }

    /// Appends the SCALE encoding.
    public func encode(to writer: inout ScaleWriter) {
        writer.writeCompact(id)
        type.encode(to: &writer)
    }
}

/// A type: its Rust path (`["sp_core", "crypto", "AccountId32"]`), generic parameters, shape and docs.
public struct TypeInfo: Hashable, Sendable {
    /// Rust path segments; empty for primitives, tuples, arrays and sequences.
    public var path: [String]
    /// Generic parameters by name, with the concrete type when known.
    public var params: [TypeParameter]
    /// The shape.
    public var def: TypeDefinition
    /// Documentation lines.
    public var docs: [String]

    /// Creates a type.
    public init(path: [String] = [], params: [TypeParameter] = [], def: TypeDefinition, docs: [String] = []) {
        self.path = path
        self.params = params
        self.def = def
        self.docs = docs
    }

    /// Reads a type.
    public init(from reader: inout ScaleReader) throws {
        path = try reader.readVector { r in try r.readString() }
        params = try reader.readVector { r in try TypeParameter(from: &r) }
        def = try TypeDefinition(from: &reader)
        docs = try reader.readVector { r in try r.readString() }
    }

    /// Appends the SCALE encoding.
    public func encode(to writer: inout ScaleWriter) {
        writer.writeVector(path) { w, s in w.writeString(s) }
        writer.writeVector(params) { w, p in p.encode(to: &w) }
        def.encode(to: &writer)
        writer.writeVector(docs) { w, s in w.writeString(s) }
    }
}

/// A generic parameter of a type (`T`, `Call`…), with its concrete type id if any.
public struct TypeParameter: Hashable, Sendable {
    public var name: String
    public var type: UInt32?

    public init(name: String, type: UInt32?) {
        self.name = name
        self.type = type
    }

    init(from reader: inout ScaleReader) throws {
        name = try reader.readString()
        type = try reader.readOption { r in try r.readCompact(as: UInt32.self) }
    }

    func encode(to writer: inout ScaleWriter) {
        writer.writeString(name)
        writer.writeOption(type) { w, t in w.writeCompact(t) }
    }
}

/// A field of a struct or enum variant.
public struct TypeField: Hashable, Sendable {
    /// Field name; `nil` for tuple-like fields.
    public var name: String?
    /// Field type id.
    public var type: UInt32
    /// The Rust type as written in the source (`T::Balance`, `BalanceOf<T>`), useful for display.
    public var typeName: String?
    /// Documentation lines.
    public var docs: [String]

    public init(name: String?, type: UInt32, typeName: String?, docs: [String] = []) {
        self.name = name
        self.type = type
        self.typeName = typeName
        self.docs = docs
    }

    init(from reader: inout ScaleReader) throws {
        name = try reader.readOption { r in try r.readString() }
        type = try reader.readCompact(as: UInt32.self)
        typeName = try reader.readOption { r in try r.readString() }
        docs = try reader.readVector { r in try r.readString() }
    }

    func encode(to writer: inout ScaleWriter) {
        writer.writeOption(name) { w, s in w.writeString(s) }
        writer.writeCompact(type)
        writer.writeOption(typeName) { w, s in w.writeString(s) }
        writer.writeVector(docs) { w, s in w.writeString(s) }
    }
}

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

/// Primitive types (scale-info `TypeDefPrimitive`, SCALE index order).
public enum PrimitiveType: UInt8, Hashable, Sendable, CaseIterable {
    case bool = 0, char, str, u8, u16, u32, u64, u128, u256, i8, i16, i32, i64, i128, i256

    /// Encoded width in bytes, or `nil` for `str`.
    public var byteWidth: Int? {
        switch self {
        case .bool, .u8, .i8: return 1
        case .u16, .i16: return 2
        case .char, .u32, .i32: return 4
        case .u64, .i64: return 8
        case .u128, .i128: return 16
        case .u256, .i256: return 32
        case .str: return nil
        }
    }
}

/// The shape of a type (scale-info `TypeDef`, SCALE index order).
public indirect enum TypeDefinition: Hashable, Sendable {
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
