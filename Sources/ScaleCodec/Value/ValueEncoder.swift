import Primitives
/// Encodes ``ScaleValue`` trees back to SCALE by following a ``PortableRegistry`` — the inverse
/// of ``ValueDecoder`` (decode then encode gives the original bytes).
///
/// Deterministic. Throws `typeMismatch` when a value does not fit its type (wrong variant,
/// wrong length, integer too wide) instead of writing bytes the chain would read differently.
package struct ValueEncoder: Sendable {
    package let registry: PortableRegistry
    package let callType: UInt32?
    package let maxDepth: Int

    package init(registry: PortableRegistry, callType: UInt32? = nil, maxDepth: Int = 100) {
        self.registry = registry
        self.callType = callType
        self.maxDepth = maxDepth
    }

    package init(metadata: RuntimeMetadata) {
        self.init(registry: metadata.registry, callType: metadata.runtimeCallType)
    }

    /// The SCALE bytes of `value` as type `type`.
    package func encode(_ value: ScaleValue, as type: UInt32) throws -> [UInt8] {
        var w = ScaleWriter()
        try write(value, type: type, to: &w, depth: 0)
        return w.bytes
    }

    /// The SCALE bytes of a call (pallet index, call index, arguments).
    package func encode(call: DecodedCall) throws -> [UInt8] {
        guard let callType else { throw ScaleError(.unknownType, "no runtime call type") }
        return try encode(.call(call), as: callType)
    }

    private func mismatch(_ value: ScaleValue, _ id: UInt32) -> ScaleError {
        ScaleError(.typeMismatch, "value does not fit type \(id)")
    }

    func write(_ value: ScaleValue, type id: UInt32, to w: inout ScaleWriter, depth: Int) throws {
        guard depth < maxDepth else { throw ScaleError(.recursionLimit, "values nested deeper than \(maxDepth)") }
        if id == callType, case .call(let c) = value {
            try writeCall(c, type: id, to: &w, depth: depth)
            return
        }
        let t = try registry.type(id)
        switch (t.def, value) {
        case (.primitive(let p), _):
            try writePrimitive(value, p, id: id, to: &w)
        case (.compact(let inner), .unsigned(let n)), (.compact(let inner), .balance(let n)):
            let limit = try ValueDecoder(registry: registry, maxDepth: maxDepth).compactLimit(
                inner: inner, depth: depth)
            guard n <= limit else { throw mismatch(value, id) }
            w.writeCompact(n)
        case (.sequence(let el), .bytes(let b)):
            guard try isByte(el) else { throw mismatch(value, id) }
            w.writeByteVector(b)
        case (.sequence(let el), .sequence(let items)):
            w.writeCompact(UInt128(items.count))
            for item in items { try write(item, type: el, to: &w, depth: depth + 1) }
        case (.array(let len, let el), .bytes(let b)), (.array(let len, let el), .account(let b)):
            guard try isByte(el), b.count == Int(len) else { throw mismatch(value, id) }
            w.write(raw: b)
        case (.array(let len, let el), .sequence(let items)):
            guard items.count == Int(len) else { throw mismatch(value, id) }
            for item in items { try write(item, type: el, to: &w, depth: depth + 1) }
        case (.tuple(let ts), .sequence(let items)):
            guard items.count == ts.count else { throw mismatch(value, id) }
            for (item, t) in zip(items, ts) { try write(item, type: t, to: &w, depth: depth + 1) }
        case (.composite(let fields), .account(let b)):
            guard fields.count == 1 else { throw mismatch(value, id) }
            try write(.bytes(b), type: fields[0].type, to: &w, depth: depth + 1)
        case (.composite(let fields), .composite(let values)):
            try writeFields(values, fields, to: &w, depth: depth, id: id)
        case (.variant(let variants), .variant(let v)):
            guard let def = variants.first(where: { $0.index == v.index }) else { throw mismatch(value, id) }
            w.writeU8(v.index)
            try writeFields(v.fields, def.fields, to: &w, depth: depth, id: id)
        case (.bitSequence, .bitSequence(let bits, let bytes)):
            w.writeCompact(UInt128(bits))
            w.write(raw: bytes)
        default:
            throw mismatch(value, id)
        }
    }

    func writeFields(_ values: [ScaleField], _ fields: [TypeField], to w: inout ScaleWriter, depth: Int, id: UInt32)
        throws
    {
        guard values.count == fields.count else {
            throw ScaleError(.typeMismatch, "field count differs for type \(id)")
        }
        for (v, f) in zip(values, fields) { try write(v.value, type: f.type, to: &w, depth: depth + 1) }
    }

    func writeCall(_ c: DecodedCall, type: UInt32, to w: inout ScaleWriter, depth: Int) throws {
        guard case .variant(let pallets) = try registry.type(type).def,
            let pallet = pallets.first(where: { $0.index == c.palletIndex }), pallet.fields.count == 1,
            case .variant(let calls) = try registry.type(pallet.fields[0].type).def,
            let call = calls.first(where: { $0.index == c.callIndex })
        else { throw ScaleError(.unknownCall, "call \(c.pallet).\(c.name) is not in the registry") }
        w.writeU8(c.palletIndex)
        w.writeU8(c.callIndex)
        try writeFields(c.args, call.fields, to: &w, depth: depth, id: type)
    }

    func writePrimitive(_ value: ScaleValue, _ p: PrimitiveType, id: UInt32, to w: inout ScaleWriter) throws {
        switch (p, value) {
        case (.bool, .bool(let b)): w.writeBool(b)
        case (.char, .char(let c)): w.writeU32(c)
        case (.str, .string(let s)): w.writeString(s)
        case (.u8, .unsigned(let n)), (.u8, .balance(let n)):
            guard let v = UInt8(exactly: n) else { throw mismatch(value, id) }
            w.writeU8(v)
        case (.u16, .unsigned(let n)), (.u16, .balance(let n)):
            guard let v = UInt16(exactly: n) else { throw mismatch(value, id) }
            w.writeU16(v)
        case (.u32, .unsigned(let n)), (.u32, .balance(let n)):
            guard let v = UInt32(exactly: n) else { throw mismatch(value, id) }
            w.writeU32(v)
        case (.u64, .unsigned(let n)), (.u64, .balance(let n)):
            guard let v = UInt64(exactly: n) else { throw mismatch(value, id) }
            w.writeU64(v)
        case (.u128, .unsigned(let n)), (.u128, .balance(let n)): w.writeU128(n)
        case (.u256, .wide(let n)), (.i256, .wide(let n)): w.writeU256(n)
        case (.i8, .signed(let n)):
            guard let v = Int8(exactly: n) else { throw mismatch(value, id) }
            w.writeI8(v)
        case (.i16, .signed(let n)):
            guard let v = Int16(exactly: n) else { throw mismatch(value, id) }
            w.writeI16(v)
        case (.i32, .signed(let n)):
            guard let v = Int32(exactly: n) else { throw mismatch(value, id) }
            w.writeI32(v)
        case (.i64, .signed(let n)):
            guard let v = Int64(exactly: n) else { throw mismatch(value, id) }
            w.writeI64(v)
        case (.i128, .signed(let n)): w.writeI128(n)
        default: throw mismatch(value, id)
        }
    }

    func isByte(_ id: UInt32) throws -> Bool {
        if case .primitive(.u8) = try registry.type(id).def { return true }
        return false
    }
}
