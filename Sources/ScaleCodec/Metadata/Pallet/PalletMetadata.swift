/// One pallet of the runtime: name, index, storage, calls, events, constants, errors, and the
/// v15/v16 additions (docs, associated types, view functions, deprecation).
///
/// One model serves versions 14–16; fields a version lacks stay empty and are not encoded for it
/// (frame-metadata `v14.rs`/`v15.rs`/`v16.rs` `PalletMetadata`).
package struct PalletMetadata: Hashable, Sendable {
    package var name: String
    package var storage: PalletStorage?
    /// The call enum type and (v16) its deprecation info.
    package var calls: PalletEnumType?
    package var event: PalletEnumType?
    package var constants: [PalletConstant]
    package var error: PalletEnumType?
    /// v16 only.
    package var associatedTypes: [AssociatedType]
    /// v16 only.
    package var viewFunctions: [ViewFunction]
    /// The pallet index: the first byte of its calls.
    package var index: UInt8
    /// v15+.
    package var docs: [String]
    /// v16 only.
    package var deprecation: DeprecationInfo

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
