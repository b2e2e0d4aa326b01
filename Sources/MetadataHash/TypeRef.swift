import ScaleCodec

/// A reference from one RFC-0078 type to another (RFC-0078 "Type Information", `TypeRef`): a
/// primitive inline (one byte), `Void` for types that encode to nothing, or the new id of a type
/// in the type information (docs/reference/metadata-hash.md §3.1).
package enum TypeRef: Hashable, Sendable {
    case bool, char, str, u8, u16, u32, u64, u128, u256, i8, i16, i32, i64, i128, i256
    case compactU8, compactU16, compactU32, compactU64, compactU128, compactU256
    /// An empty composite, tuple or enum, or a `Compact<()>`.
    case void
    /// A type of the type information, by its new id (its position among the kept types).
    case byId(UInt32)

    /// The primitive with the same meaning (`PrimitiveType` and `TypeRef` share indices 0…14).
    init(_ primitive: PrimitiveType) {
        switch primitive {
        case .bool: self = .bool
        case .char: self = .char
        case .str: self = .str
        case .u8: self = .u8
        case .u16: self = .u16
        case .u32: self = .u32
        case .u64: self = .u64
        case .u128: self = .u128
        case .u256: self = .u256
        case .i8: self = .i8
        case .i16: self = .i16
        case .i32: self = .i32
        case .i64: self = .i64
        case .i128: self = .i128
        case .i256: self = .i256
        }
    }

    /// The SCALE variant index (0…22).
    var index: UInt8 {
        switch self {
        case .bool: 0
        case .char: 1
        case .str: 2
        case .u8: 3
        case .u16: 4
        case .u32: 5
        case .u64: 6
        case .u128: 7
        case .u256: 8
        case .i8: 9
        case .i16: 10
        case .i32: 11
        case .i64: 12
        case .i128: 13
        case .i256: 14
        case .compactU8: 15
        case .compactU16: 16
        case .compactU32: 17
        case .compactU64: 18
        case .compactU128: 19
        case .compactU256: 20
        case .void: 21
        case .byId: 22
        }
    }

    /// Appends the SCALE encoding: the variant index, then for `byId` the compact id.
    package func encode(to w: inout ScaleWriter) {
        w.writeU8(index)
        if case .byId(let id) = self { w.writeCompact(id) }
    }
}
