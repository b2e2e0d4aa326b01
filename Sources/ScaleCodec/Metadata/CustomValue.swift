/// A custom metadata value (v15+), by key in encoded order.
package struct CustomValue: Hashable, Sendable {
    package var key: String
    package var type: UInt32
    package var value: [UInt8]

    init(from r: inout ScaleReader) throws {
        key = try r.readString()
        type = try r.readCompact(as: UInt32.self)
        value = try r.readByteVector()
    }

    func encode(to w: inout ScaleWriter) {
        w.writeString(key)
        w.writeCompact(type)
        w.writeByteVector(value)
    }
}
