/// The outer enum types (v15+): `RuntimeCall`, `RuntimeEvent`, and the module error enum.
package struct OuterEnums: Hashable, Sendable {
    package var callType: UInt32
    package var eventType: UInt32
    package var errorType: UInt32

    init(from r: inout ScaleReader) throws {
        callType = try r.readCompact(as: UInt32.self)
        eventType = try r.readCompact(as: UInt32.self)
        errorType = try r.readCompact(as: UInt32.self)
    }

    func encode(to w: inout ScaleWriter) {
        w.writeCompact(callType)
        w.writeCompact(eventType)
        w.writeCompact(errorType)
    }
}
