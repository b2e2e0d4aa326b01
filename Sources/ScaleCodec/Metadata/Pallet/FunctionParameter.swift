/// A named, typed parameter (runtime API method input, view function input).
package struct FunctionParameter: Hashable, Sendable {
    package var name: String
    package var type: UInt32

    init(from r: inout ScaleReader) throws {
        name = try r.readString()
        type = try r.readCompact(as: UInt32.self)
    }

    func encode(to w: inout ScaleWriter) {
        w.writeString(name)
        w.writeCompact(type)
    }
}
