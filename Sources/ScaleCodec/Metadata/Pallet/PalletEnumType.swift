/// A pallet's call, event or error enum type, with (v16) per-variant deprecation.
package struct PalletEnumType: Hashable, Sendable {
    package var type: UInt32
    package var deprecation: EnumDeprecationInfo

    init(from r: inout ScaleReader, version: UInt8) throws {
        type = try r.readCompact(as: UInt32.self)
        deprecation = version >= 16 ? try EnumDeprecationInfo(from: &r) : EnumDeprecationInfo()
    }

    func encode(to w: inout ScaleWriter, version: UInt8) {
        w.writeCompact(type)
        if version >= 16 { deprecation.encode(to: &w) }
    }
}
