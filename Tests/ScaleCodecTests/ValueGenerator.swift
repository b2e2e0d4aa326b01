@testable import ScaleCodec
import SigilTesting

/// A deterministic pseudo-random generator (SplitMix64) so failures reproduce.
typealias SeededRandom = SplitMix64

/// Writes random but valid SCALE bytes for any type of a registry (test support for the
/// generated-argument round trip). Recursion is kept finite by choosing, beyond a depth, the
/// variant that terminates soonest and empty sequences.
struct ValueGenerator {
    let registry: PortableRegistry
    let callType: UInt32?
    var rng: SeededRandom
    /// Per type: how many levels it needs at least to end (fixed point over the registry).
    let cost: [UInt32: Int]
    let softDepth = 6

    init(registry: PortableRegistry, callType: UInt32?, seed: UInt64) {
        self.registry = registry
        self.callType = callType
        self.rng = SeededRandom(seed: seed)
        self.cost = Self.terminationCosts(registry)
    }

    static func terminationCosts(_ registry: PortableRegistry) -> [UInt32: Int] {
        let inf = Int.max / 4
        var cost: [UInt32: Int] = [:]
        for t in registry.types { cost[t.id] = inf }
        var changed = true
        while changed {
            changed = false
            for t in registry.types {
                let c: Int
                switch t.type.def {
                case .primitive, .bitSequence, .compact, .sequence: c = 0
                case .array(let len, let el): c = len == 0 ? 0 : (cost[el] ?? inf) + 1
                case .tuple(let ts): c = (ts.map { cost[$0] ?? inf }.max() ?? -1) + 1
                case .composite(let fs): c = (fs.map { cost[$0.type] ?? inf }.max() ?? -1) + 1
                case .variant(let vs):
                    c = (vs.map { v in (v.fields.map { cost[$0.type] ?? inf }.max() ?? -1) + 1 }.min() ?? inf)
                }
                let capped = min(c, inf)
                if capped < (cost[t.id] ?? inf) {
                    cost[t.id] = capped
                    changed = true
                }
            }
        }
        return cost
    }

    mutating func bytes(for type: UInt32) throws -> [UInt8] {
        var w = ScaleWriter()
        try write(type, depth: 0, to: &w)
        return w.bytes
    }

    mutating func int(_ upper: Int) -> Int { upper <= 0 ? 0 : Int(rng.next() % UInt64(upper)) }

    mutating func write(_ id: UInt32, depth: Int, to w: inout ScaleWriter) throws {
        let t = try registry.type(id)
        switch t.def {
        case .primitive(let p): writePrimitive(p, to: &w)
        case .compact(let inner):
            let limit = try ValueDecoder(registry: registry).compactLimit(inner: inner, depth: 0)
            let pick = [UInt128(0), 1, 63, 64, 16383, 16384, 1 << 30, limit / 3, limit].filter { $0 <= limit }
            let v = pick[int(pick.count)]
            w.writeCompact(v)
        case .sequence(let el):
            let n = depth >= softDepth ? 0 : int(3)
            w.writeCompact(UInt128(n))
            for _ in 0..<n { try write(el, depth: depth + 1, to: &w) }
        case .array(let len, let el):
            for _ in 0..<Int(len) { try write(el, depth: depth + 1, to: &w) }
        case .tuple(let ts):
            for t in ts { try write(t, depth: depth + 1, to: &w) }
        case .composite(let fs):
            for f in fs { try write(f.type, depth: depth + 1, to: &w) }
        case .variant(let vs):
            // Variants holding an uninhabited type (an empty enum) can never be built: skip them.
            let inf = Int.max / 4
            let costs = cost
            let variantCost = { (v: TypeVariant) in v.fields.map { costs[$0.type] ?? inf }.max() ?? -1 }
            let inhabited = vs.filter { variantCost($0) < inf }
            guard !inhabited.isEmpty else { throw Uninhabited(type: id) }
            let v: TypeVariant
            if depth >= softDepth {
                v = inhabited.min { variantCost($0) < variantCost($1) } ?? inhabited[0]
            } else {
                v = inhabited[int(inhabited.count)]
            }
            w.writeU8(v.index)
            for f in v.fields { try write(f.type, depth: depth + 1, to: &w) }
        case .bitSequence(let store, _):
            let width: Int
            switch try registry.type(store).def {
            case .primitive(.u8): width = 1
            case .primitive(.u16): width = 2
            case .primitive(.u32): width = 4
            default: width = 8
            }
            let bits = int(20)
            w.writeCompact(UInt128(bits))
            let units = (bits + width * 8 - 1) / (width * 8)
            for _ in 0..<(units * width) { w.writeU8(UInt8(truncatingIfNeeded: rng.next())) }
        }
    }

    /// The type has no values (an enum without variants), so no bytes exist for it.
    struct Uninhabited: Error { let type: UInt32 }

    mutating func writePrimitive(_ p: PrimitiveType, to w: inout ScaleWriter) {
        switch p {
        case .bool: w.writeBool(rng.next() & 1 == 1)
        case .char: w.writeU32([65, 0x263A, 0x1F600][int(3)])
        case .str:
            let s = ["", "hello", "Grüße ✓"][int(3)]
            w.writeString(s)
        default:
            for _ in 0..<(p.byteWidth ?? 0) { w.writeU8(UInt8(truncatingIfNeeded: rng.next())) }
        }
    }
}
