/// One pallet of the runtime: name, index, storage, calls, events, constants, errors, and the
/// v15/v16 additions (docs, associated types, view functions, deprecation).
///
/// One model serves versions 14–16; fields a version lacks stay empty and are not encoded for it
/// (frame-metadata `v14.rs`/`v15.rs`/`v16.rs` `PalletMetadata`).
public struct PalletMetadata: Hashable, Sendable {
    public var name: String
    public var storage: PalletStorage?
    /// The call enum type and (v16) its deprecation info.
    public var calls: PalletEnumType?
    public var event: PalletEnumType?
    public var constants: [PalletConstant]
    public var error: PalletEnumType?
    /// v16 only.
    public var associatedTypes: [AssociatedType]
    /// v16 only.
    public var viewFunctions: [ViewFunction]
    /// The pallet index: the first byte of its calls.
    public var index: UInt8
    /// v15+.
    public var docs: [String]
    /// v16 only.
    public var deprecation: DeprecationInfo

    init(from r: inout ScaleReader, version: UInt8) throws {
        name = try r.readString()
        storage = try r.readOption { r in try PalletStorage(from: &r, version: version) }
        calls = try r.readOption { r in try PalletEnumType(from: &r, version: version) }
        event = try r.readOption { r in try PalletEnumType(from: &r, version: version) }
        constants = try r.readVector { r in try PalletConstant(from: &r, version: version) }
        error = try r.readOption { r in try PalletEnumType(from: &r, version: version) }
        if version >= 16 {
            associatedTypes = try r.readVector { r in try AssociatedType(from: &r) }
            viewFunctions = try r.readVector(minimumElementSize: 32) { r in try ViewFunction(from: &r) }
        } else {
            associatedTypes = []
            viewFunctions = []
        }
        index = try r.readU8()
        docs = version >= 15 ? try r.readVector { r in try r.readString() } : []
        deprecation = version >= 16 ? try DeprecationInfo(from: &r) : .notDeprecated
    }

    func encode(to w: inout ScaleWriter, version: UInt8) {
        w.writeString(name)
        w.writeOption(storage) { w, s in s.encode(to: &w, version: version) }
        w.writeOption(calls) { w, c in c.encode(to: &w, version: version) }
        w.writeOption(event) { w, c in c.encode(to: &w, version: version) }
        w.writeVector(constants) { w, c in c.encode(to: &w, version: version) }
        w.writeOption(error) { w, c in c.encode(to: &w, version: version) }
        if version >= 16 {
            w.writeVector(associatedTypes) { w, a in a.encode(to: &w) }
            w.writeVector(viewFunctions) { w, v in v.encode(to: &w) }
        }
        w.writeU8(index)
        if version >= 15 { w.writeVector(docs) { w, s in w.writeString(s) } }
        if version >= 16 { deprecation.encode(to: &w) }
    }
}

/// A pallet's call, event or error enum type, with (v16) per-variant deprecation.
public struct PalletEnumType: Hashable, Sendable {
    public var type: UInt32
    public var deprecation: EnumDeprecationInfo

    init(from r: inout ScaleReader, version: UInt8) throws {
        type = try r.readCompact(as: UInt32.self)
        deprecation = version >= 16 ? try EnumDeprecationInfo(from: &r) : EnumDeprecationInfo()
    }

    func encode(to w: inout ScaleWriter, version: UInt8) {
        w.writeCompact(type)
        if version >= 16 { deprecation.encode(to: &w) }
    }
}

/// A pallet constant: its type and SCALE-encoded value (e.g. `System.SS58Prefix`).
public struct PalletConstant: Hashable, Sendable {
    public var name: String
    public var type: UInt32
    public var value: [UInt8]
    public var docs: [String]
    public var deprecation: DeprecationInfo

    init(from r: inout ScaleReader, version: UInt8) throws {
        name = try r.readString()
        type = try r.readCompact(as: UInt32.self)
        value = try r.readByteVector()
        docs = try r.readVector { r in try r.readString() }
        deprecation = version >= 16 ? try DeprecationInfo(from: &r) : .notDeprecated
    }

    func encode(to w: inout ScaleWriter, version: UInt8) {
        w.writeString(name)
        w.writeCompact(type)
        w.writeByteVector(value)
        w.writeVector(docs) { w, s in w.writeString(s) }
        if version >= 16 { deprecation.encode(to: &w) }
    }
}

/// A v16 pallet associated type (`Config` trait type exposed in metadata).
public struct AssociatedType: Hashable, Sendable {
    public var name: String
    public var type: UInt32
    public var docs: [String]

    init(from r: inout ScaleReader) throws {
        name = try r.readString()
        type = try r.readCompact(as: UInt32.self)
        docs = try r.readVector { r in try r.readString() }
    }

    func encode(to w: inout ScaleWriter) {
        w.writeString(name)
        w.writeCompact(type)
        w.writeVector(docs) { w, s in w.writeString(s) }
    }
}

/// A named, typed parameter (runtime API method input, view function input).
public struct FunctionParameter: Hashable, Sendable {
    public var name: String
    public var type: UInt32

    init(from r: inout ScaleReader) throws {
        name = try r.readString()
        type = try r.readCompact(as: UInt32.self)
    }

    func encode(to w: inout ScaleWriter) {
        w.writeString(name)
        w.writeCompact(type)
    }
}

/// A v16 pallet view function.
public struct ViewFunction: Hashable, Sendable {
    public var id: [UInt8]
    public var name: String
    public var inputs: [FunctionParameter]
    public var output: UInt32
    public var docs: [String]
    public var deprecation: DeprecationInfo

    init(from r: inout ScaleReader) throws {
        id = try r.readBytes(32)
        name = try r.readString()
        inputs = try r.readVector { r in try FunctionParameter(from: &r) }
        output = try r.readCompact(as: UInt32.self)
        docs = try r.readVector { r in try r.readString() }
        deprecation = try DeprecationInfo(from: &r)
    }

    func encode(to w: inout ScaleWriter) {
        w.write(raw: id)
        w.writeString(name)
        w.writeVector(inputs) { w, p in p.encode(to: &w) }
        w.writeCompact(output)
        w.writeVector(docs) { w, s in w.writeString(s) }
        deprecation.encode(to: &w)
    }
}
