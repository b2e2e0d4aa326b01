import Primitives
/// Decodes SCALE bytes into ``ScaleValue`` trees by following a ``PortableRegistry``.
///
/// Untrusted input (both the bytes and the registry may come from a dapp): every length is
/// checked against the bytes left, arrays of zero-sized elements are capped, recursion is limited
/// to ``maxDepth`` levels, and unknown type ids throw. One decode visits at most
/// ``maxValues`` plus one per input byte values, so a registry whose types fan out over
/// zero-sized fields (a struct of two copies of a struct of two copies … of `()`, or nested arrays
/// of `()`) cannot make the work exponential: it throws `tooManyValues` instead.
package struct ValueDecoder: Sendable {
    /// The registry types are resolved in.
    package let registry: PortableRegistry
    /// The outer `RuntimeCall` type, decoded as ``ScaleValue/call(_:)``.
    package let callType: UInt32?
    /// Deepest nesting of types accepted.
    package let maxDepth: Int
    /// Longest fixed array of zero-sized elements accepted.
    static let maxZeroSizedArray = 1 << 16
    /// Values one decode may visit beyond one per input byte (zero-sized values consume no byte).
    package static let maxValues = 1 << 20

    /// Values left to visit in one decode; shared by the recursive calls of that decode only.
    final class Budget {
        var left: Int
        init(bytes: Int) { left = ValueDecoder.maxValues + bytes }

        func spend(at offset: Int) throws {
            left -= 1
            guard left >= 0 else {
                throw ScaleError(
                    .tooManyValues, "more than \(ValueDecoder.maxValues) values plus one per byte, at offset \(offset)")
            }
        }
    }

    /// Creates a decoder over `registry`; `callType` marks the runtime call enum.
    package init(registry: PortableRegistry, callType: UInt32? = nil, maxDepth: Int = 100) {
        self.registry = registry
        self.callType = callType
        self.maxDepth = maxDepth
    }

    /// Creates a decoder for a runtime's metadata.
    package init(metadata: RuntimeMetadata) {
        self.init(registry: metadata.registry, callType: metadata.runtimeCallType)
    }

    /// Decodes exactly one value of type `type` from `bytes` (fails on trailing bytes).
    package func decode(_ bytes: [UInt8], as type: UInt32) throws -> ScaleValue {
        try ScaleReader.decode(bytes) { r in try decode(&r, type: type) }
    }

    /// Decodes a runtime call from `bytes` (pallet index, call index, arguments; nothing after).
    /// - Throws: `unknownPallet`/`unknownCall` for indices the metadata lacks, or SCALE errors.
    package func decodeCall(_ bytes: [UInt8]) throws -> DecodedCall {
        guard let callType else { throw ScaleError(.unknownType, "metadata has no runtime call type") }
        let budget = Budget(bytes: bytes.count)
        return try ScaleReader.decode(bytes) { r in try readCall(&r, type: callType, depth: 0, budget: budget) }
    }

    /// Reads one value of type `type`; on error the reader is left where it was.
    package func decode(_ r: inout ScaleReader, type: UInt32) throws -> ScaleValue {
        let budget = Budget(bytes: r.remaining)
        return try r.atomically { r in try read(&r, type: type, depth: 0, budget: budget) }
    }

    // MARK: -

    func read(_ r: inout ScaleReader, type id: UInt32, depth: Int, native: Bool = true, budget: Budget) throws
        -> ScaleValue
    {
        guard depth < maxDepth else {
            throw ScaleError(.recursionLimit, "values nested deeper than \(maxDepth) at offset \(r.offset)")
        }
        try budget.spend(at: r.offset)
        if id == callType { return .call(try readCall(&r, type: id, depth: depth + 1, budget: budget)) }
        let t = try registry.type(id)
        switch t.def {
        case .primitive(let p):
            return try readPrimitive(&r, p)
        case .compact(let inner):
            return .unsigned(try readCompact(&r, inner: inner, depth: depth))
        case .sequence(let el):
            if try isByte(el) { return .bytes(try r.readByteVector()) }
            let n = try r.readLength()
            var out: [ScaleValue] = []
            out.reserveCapacity(min(n, 1024))
            for _ in 0..<n { out.append(try read(&r, type: el, depth: depth + 1, native: native, budget: budget)) }
            return .sequence(out)
        case .array(let len, let el):
            guard let n = Int(exactly: len) else { throw ScaleError(.lengthTooLarge, "array length \(len)") }
            if try isByte(el) {
                let b = try r.readBytes(n)
                return isAccount(t, length: n) ? .account(b) : .bytes(b)
            }
            if n > r.remaining {
                guard n <= Self.maxZeroSizedArray, try TypeSizer(registry: registry).isZeroSized(el) else {
                    throw ScaleError(
                        .truncated, "array of \(n) at offset \(r.offset) exceeds the \(r.remaining) byte(s) left")
                }
            }
            var out: [ScaleValue] = []
            out.reserveCapacity(min(n, 1024))
            for _ in 0..<n { out.append(try read(&r, type: el, depth: depth + 1, native: native, budget: budget)) }
            return .sequence(out)
        case .tuple(let ts):
            return .sequence(try ts.map { try read(&r, type: $0, depth: depth + 1, native: native, budget: budget) })
        case .composite(let fields):
            if isAccount(t, length: nil), fields.count == 1 {
                let inner = try read(&r, type: fields[0].type, depth: depth + 1, native: native, budget: budget)
                if case .bytes(let b) = inner { return .account(b) }
                if case .account = inner { return inner }
                return .composite([ScaleField(name: fields[0].name, typeName: fields[0].typeName, value: inner)])
            }
            return .composite(try readFields(&r, fields, depth: depth, native: native, budget: budget))
        case .variant(let variants):
            let at = r.offset
            let index = try r.readU8()
            guard let v = variants.first(where: { $0.index == index }) else {
                throw ScaleError(.invalidVariant, "no variant \(index) in \(t.path.last ?? "enum") at offset \(at)")
            }
            return .variant(
                ScaleVariant(
                    name: v.name, index: index,
                    fields: try readFields(&r, v.fields, depth: depth, native: native, budget: budget)))
        case .bitSequence(let store, _):
            let bits = try r.readLength(minimumElementSize: 0)
            let width = try storeWidth(store)
            let units = (bits + width * 8 - 1) / (width * 8)
            return .bitSequence(bitCount: bits, bytes: try r.readBytes(units * width))
        }
    }

    func readFields(
        _ r: inout ScaleReader, _ fields: [TypeField], depth: Int, native: Bool = true, budget: Budget
    ) throws -> [ScaleField] {
        try fields.map { f in
            var v = try read(&r, type: f.type, depth: depth + 1, native: native, budget: budget)
            if native, Self.isBalanceTypeName(f.typeName), case .unsigned(let n) = v { v = .balance(n) }
            return ScaleField(name: f.name, typeName: f.typeName, value: v)
        }
    }

    func readCall(_ r: inout ScaleReader, type: UInt32, depth: Int, budget: Budget) throws -> DecodedCall {
        guard depth < maxDepth else { throw ScaleError(.recursionLimit, "calls nested deeper than \(maxDepth)") }
        let outer = try registry.type(type)
        guard case .variant(let pallets) = outer.def else {
            throw ScaleError(.typeMismatch, "runtime call type \(type) is not an enum")
        }
        let at = r.offset
        let palletIndex = try r.readU8()
        guard let pallet = pallets.first(where: { $0.index == palletIndex }), pallet.fields.count == 1 else {
            throw ScaleError(.unknownPallet, "no pallet with index \(palletIndex) (call byte at offset \(at))")
        }
        let inner = try registry.type(pallet.fields[0].type)
        guard case .variant(let calls) = inner.def else {
            throw ScaleError(.typeMismatch, "call type of \(pallet.name) is not an enum")
        }
        let callAt = r.offset
        let callIndex = try r.readU8()
        guard let call = calls.first(where: { $0.index == callIndex }) else {
            throw ScaleError(.unknownCall, "no call \(callIndex) in pallet \(pallet.name) (offset \(callAt))")
        }
        return DecodedCall(
            pallet: pallet.name, palletIndex: palletIndex, name: call.name, callIndex: callIndex,
            args: try readFields(
                &r, call.fields, depth: depth, native: Self.usesNativeBalance(pallet: pallet.name), budget: budget))
    }

    func readPrimitive(_ r: inout ScaleReader, _ p: PrimitiveType) throws -> ScaleValue {
        switch p {
        case .bool: return .bool(try r.readBool())
        case .char:
            let at = r.offset
            let c = try r.readU32()
            guard Unicode.Scalar(c) != nil else {
                throw ScaleError(.invalidUTF8, "char 0x\(String(c, radix: 16)) at offset \(at) is not a Unicode scalar")
            }
            return .char(c)
        case .str: return .string(try r.readString())
        case .u8: return .unsigned(UInt128(try r.readU8()))
        case .u16: return .unsigned(UInt128(try r.readU16()))
        case .u32: return .unsigned(UInt128(try r.readU32()))
        case .u64: return .unsigned(UInt128(try r.readU64()))
        case .u128: return .unsigned(try r.readU128())
        case .u256, .i256: return .wide(try r.readU256())
        case .i8: return .signed(Int128(try r.readI8()))
        case .i16: return .signed(Int128(try r.readI16()))
        case .i32: return .signed(Int128(try r.readI32()))
        case .i64: return .signed(Int128(try r.readI64()))
        case .i128: return .signed(try r.readI128())
        }
    }

    /// The largest value a compact of `inner` may hold (`inner` resolves to an unsigned primitive,
    /// possibly through single-field structs such as `Perbill(u32)`).
    func compactLimit(inner: UInt32, depth: Int) throws -> UInt128 {
        var id = inner
        for _ in 0..<maxDepth {
            let t = try registry.type(id)
            switch t.def {
            case .primitive(.u8): return UInt128(UInt8.max)
            case .primitive(.u16): return UInt128(UInt16.max)
            case .primitive(.u32): return UInt128(UInt32.max)
            case .primitive(.u64): return UInt128(UInt64.max)
            case .primitive(.u128): return UInt128.max
            case .composite(let f) where f.count == 1: id = f[0].type
            case .tuple(let ts) where ts.count == 1: id = ts[0]
            case .composite(let f) where f.isEmpty: return 0
            case .tuple(let ts) where ts.isEmpty: return 0
            default: throw ScaleError(.typeMismatch, "Compact of type \(inner) that is not an unsigned integer")
            }
        }
        throw ScaleError(.recursionLimit, "Compact inner type nested too deep")
    }

    func readCompact(_ r: inout ScaleReader, inner: UInt32, depth: Int) throws -> UInt128 {
        let limit = try compactLimit(inner: inner, depth: depth)
        let at = r.offset
        var probe = r
        let v = try probe.readCompact()
        guard v <= limit else { throw ScaleError(.overflow, "compact \(v) exceeds its type at offset \(at)") }
        r = probe
        return v
    }

    func isByte(_ id: UInt32) throws -> Bool {
        if case .primitive(.u8) = try registry.type(id).def { return true }
        return false
    }

    func storeWidth(_ id: UInt32) throws -> Int {
        switch try registry.type(id).def {
        case .primitive(.u8): return 1
        case .primitive(.u16): return 2
        case .primitive(.u32): return 4
        case .primitive(.u64): return 8
        default: throw ScaleError(.typeMismatch, "bit sequence store type \(id) is not u8/u16/u32/u64")
        }
    }

    func isAccount(_ t: TypeInfo, length: Int?) -> Bool {
        guard let last = t.path.last else { return false }
        if let length { return (last == "AccountId32" && length == 32) || (last == "AccountId20" && length == 20) }
        return last == "AccountId32" || last == "AccountId20"
    }

    /// Whether a pallet's `T::Balance` is the chain's own token. Asset pallets (`Assets`,
    /// `ForeignAssets`, `PoolAssets`, `AssetConversion`…) name other tokens' amounts `T::Balance`
    /// too; showing those in the native token would mislead, so they stay plain integers.
    package static func usesNativeBalance(pallet: String) -> Bool { !pallet.contains("Asset") }

    /// Whether a field's Rust type names an amount of the chain token (`T::Balance`, `BalanceOf<T>`,
    /// `Compact<BalanceOf<T>>`…). Asset pallets' balances are other tokens: not matched by `AssetBalance`.
    package static func isBalanceTypeName(_ name: String?) -> Bool {
        guard let name else { return false }
        return name.contains("Balance") && !name.contains("AssetBalance") && !name.contains("TAssetBalance")
    }
}
