/// A runtime API trait (v15+): name, methods, docs, and in v16 its version and deprecation.
public struct RuntimeApiMetadata: Hashable, Sendable {
    public var name: String
    public var methods: [RuntimeApiMethod]
    public var docs: [String]
    /// v16 only.
    public var version: UInt32
    /// v16 only.
    public var deprecation: DeprecationInfo

    init(from r: inout ScaleReader, version v: UInt8) throws {
        name = try r.readString()
        methods = try r.readVector { r in try RuntimeApiMethod(from: &r, version: v) }
        docs = try r.readVector { r in try r.readString() }
        if v >= 16 {
            version = try r.readCompact(as: UInt32.self)
            deprecation = try DeprecationInfo(from: &r)
        } else {
            version = 0
            deprecation = .notDeprecated
        }
    }

    func encode(to w: inout ScaleWriter, version v: UInt8) {
        w.writeString(name)
        w.writeVector(methods) { w, m in m.encode(to: &w, version: v) }
        w.writeVector(docs) { w, s in w.writeString(s) }
        if v >= 16 {
            w.writeCompact(version)
            deprecation.encode(to: &w)
        }
    }
}

/// A runtime API method.
public struct RuntimeApiMethod: Hashable, Sendable {
    public var name: String
    public var inputs: [FunctionParameter]
    public var output: UInt32
    public var docs: [String]
    public var deprecation: DeprecationInfo

    init(from r: inout ScaleReader, version: UInt8) throws {
        name = try r.readString()
        inputs = try r.readVector { r in try FunctionParameter(from: &r) }
        output = try r.readCompact(as: UInt32.self)
        docs = try r.readVector { r in try r.readString() }
        deprecation = version >= 16 ? try DeprecationInfo(from: &r) : .notDeprecated
    }

    func encode(to w: inout ScaleWriter, version: UInt8) {
        w.writeString(name)
        w.writeVector(inputs) { w, p in p.encode(to: &w) }
        w.writeCompact(output)
        w.writeVector(docs) { w, s in w.writeString(s) }
        if version >= 16 { deprecation.encode(to: &w) }
    }
}

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

/// A custom metadata value (v15+), by key in encoded order.
public struct CustomValue: Hashable, Sendable {
    public var key: String
    public var type: UInt32
    public var value: [UInt8]

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
