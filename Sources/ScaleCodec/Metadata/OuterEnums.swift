/// The outer enum types (v15+): `RuntimeCall`, `RuntimeEvent`, and the module error enum.
public struct OuterEnums: Hashable, Sendable {
    public var callType: UInt32
    public var eventType: UInt32
    public var errorType: UInt32

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
