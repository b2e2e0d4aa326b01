/// Primitive types (scale-info `TypeDefPrimitive`, SCALE index order).
package enum PrimitiveType: UInt8, Hashable, Sendable, CaseIterable {
    case bool = 0, char, str, u8, u16, u32, u64, u128, u256, i8, i16, i32, i64, i128, i256

    /// Encoded width in bytes, or `nil` for `str`.
    package var byteWidth: Int? {
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
