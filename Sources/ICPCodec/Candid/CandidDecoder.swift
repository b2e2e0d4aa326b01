import Primitives

/// A bounded decoder of Candid binary messages (`DIDL`, type table, argument types, values) for
/// untrusted input: the arguments of a canister call that a person is asked to approve.
///
/// Bounds (all checked before allocating or recursing):
/// - every declared count and length is compared with the bytes that remain; the type table and
///   the argument list are at most `Limits.maxTypes` entries, record/variant fields and function
///   and service members together at most `Limits.maxTypes`;
/// - values nest at most `Limits.maxDepth` deep (recursive types included);
/// - `work` counts values decoded and is capped at `Limits.workPerByte × input length +
///   Limits.baseWork`: values that occupy no bytes (`null`, `reserved`, empty records, vectors of
///   them) cannot make a short message expand into millions of values or exponential time;
/// - `nat`/`int` at most `Limits.maxNumberBytes` LEB128 bytes;
/// - memory: a vector whose element type occupies no bytes (`null`, `reserved`, records of them)
///   is stored as one element and a count (``CandidValue/repeated(count:element:)``), never element
///   by element; every other value stored is counted in `materialisedValues` (at most
///   `Limits.maxValues`) and its estimated size in `materialisedBytes` (at most
///   `Limits.maxMaterialisedBytes`), so a 3 MB argument cannot become half a gigabyte of values.
/// Each byte of input is read once; no value is decoded twice (no subtyping or skipping).
package struct CandidDecoder {
    package struct Limits: Sendable {
        package var maxDepth = 48
        package var maxTypes = 4096
        package var maxNumberBytes = 64
        package var workPerByte = 16
        package var baseWork = 1024
        /// Values stored in the decoded tree (each costs a heap box), whatever the input size.
        package var maxValues = 1 << 18
        /// Estimated bytes the decoded tree holds (``CandidDecoder/valueCost`` per value plus text,
        /// blob and number bytes).
        package var maxMaterialisedBytes = 24 << 20

        package init() {}
        package static let `default` = Limits()
    }

    /// A decoded message: the type table, the arguments' types and their values.
    package struct Message: Sendable, Hashable {
        package let table: [CandidTypeEntry]
        package let argumentTypes: [CandidTypeRef]
        package let values: [CandidValue]
    }

    private let bytes: [UInt8]
    private let limits: Limits
    private var position = 0
    private var table: [CandidTypeEntry] = []
    /// Values decoded and table entries read (the work bound tests count this).
    package private(set) var work = 0
    /// Values stored in the decoded tree (a repeated vector's elements count once).
    package private(set) var materialisedValues = 0
    /// Estimated bytes the decoded tree holds: ``valueCost`` per stored value plus the bytes of
    /// texts, blobs, numbers and names.
    package private(set) var materialisedBytes = 0
    private let workLimit: Int
    /// Whether each type-table entry occupies no bytes on the wire (computed once per message).
    private var zeroSized: [Bool] = []

    /// What one stored value is charged: the enum's inline size plus a heap box.
    package static let valueCost = MemoryLayout<CandidValue>.stride + 32

    package init(_ bytes: [UInt8], limits: Limits = .default) {
        self.bytes = bytes
        self.limits = limits
        let (perByte, o1) = bytes.count.multipliedReportingOverflow(by: limits.workPerByte)
        let (total, o2) = perByte.addingReportingOverflow(limits.baseWork)
        workLimit = o1 || o2 ? Int.max : total
    }

    package static func decode(_ bytes: [UInt8], limits: Limits = .default) throws(ICPCodecError) -> Message {
        var decoder = CandidDecoder(bytes, limits: limits)
        return try decoder.decodeMessage()
    }

    private func fail(_ reason: String) -> ICPCodecError { ICPCodecError(.invalidCandid, at: position, reason) }
    private func limit(_ reason: String) -> ICPCodecError { ICPCodecError(.limitExceeded, at: position, reason) }

    private mutating func charge() throws(ICPCodecError) {
        work += 1
        guard work <= workLimit else { throw limit("Candid message costs more work than its size allows") }
    }

    /// Accounts for one stored value holding `extraBytes` of its own (text, blob, number, name).
    private mutating func store(extraBytes: Int = 0) throws(ICPCodecError) {
        materialisedValues += 1
        materialisedBytes += Self.valueCost + extraBytes
        guard materialisedValues <= limits.maxValues else {
            throw limit("Candid message holds more than \(limits.maxValues) values")
        }
        guard materialisedBytes <= limits.maxMaterialisedBytes else {
            throw limit("Candid message would take more than \(limits.maxMaterialisedBytes) bytes decoded")
        }
    }

    /// Which table entries occupy no bytes: records whose fields all occupy none (`null`,
    /// `reserved`, such records). A fixed point over the table: a recursive record is not
    /// zero-sized (it has no finite value; decoding it stops at the depth bound).
    private static func zeroSizedEntries(_ table: [CandidTypeEntry]) -> [Bool] {
        var result = [Bool](repeating: false, count: table.count)
        func isZero(_ ref: CandidTypeRef) -> Bool {
            switch ref {
            case .primitive(let p): p == .null || p == .reserved
            case .table(let i): result[i]
            }
        }
        // Least fixed point: start from "none" and add records whose fields are all zero-sized.
        var changed = true
        var rounds = 0
        while changed && rounds <= table.count {
            changed = false
            rounds += 1
            for (i, entry) in table.enumerated() where !result[i] {
                if case .record(let fields) = entry, fields.allSatisfy({ isZero($0.type) }) {
                    result[i] = true
                    changed = true
                }
            }
        }
        return result
    }

    private func isZeroSized(_ ref: CandidTypeRef) -> Bool {
        switch ref {
        case .primitive(let p): p == .null || p == .reserved
        case .table(let i): i < zeroSized.count && zeroSized[i]
        }
    }

    package mutating func decodeMessage() throws(ICPCodecError) -> Message {
        guard bytes.count >= 4, bytes[0] == 0x44, bytes[1] == 0x49, bytes[2] == 0x44, bytes[3] == 0x4C else {
            throw fail("missing DIDL magic")
        }
        position = 4
        let typeCount = try count(unit: 1)
        var members = 0
        table.reserveCapacity(typeCount)
        for _ in 0..<typeCount {
            try charge()
            table.append(try typeEntry(members: &members))
        }
        // Validate references only once the table is complete (entries may refer forward).
        for entry in table { try validate(entry) }
        zeroSized = Self.zeroSizedEntries(table)
        let argCount = try count(unit: 1)
        var argTypes: [CandidTypeRef] = []
        argTypes.reserveCapacity(argCount)
        for _ in 0..<argCount {
            let t = try typeRef()
            try validate(t)
            argTypes.append(t)
        }
        var values: [CandidValue] = []
        values.reserveCapacity(argCount)
        for t in argTypes { values.append(try value(t, depth: 0)) }
        guard position == bytes.count else { throw fail("trailing bytes after the arguments") }
        return Message(table: table, argumentTypes: argTypes, values: values)
    }

    // MARK: Primitive reads

    private mutating func byte() throws(ICPCodecError) -> UInt8 {
        guard position < bytes.count else { throw fail("truncated Candid message") }
        defer { position += 1 }
        return bytes[position]
    }

    private mutating func take(_ n: Int) throws(ICPCodecError) -> ArraySlice<UInt8> {
        guard n >= 0, n <= bytes.count - position else { throw fail("truncated Candid message") }
        defer { position += n }
        return bytes[position..<position + n]
    }

    /// An unsigned LEB128 that must fit `UInt64`.
    private mutating func leb() throws(ICPCodecError) -> UInt64 {
        var result: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            let b = try byte()
            let low = UInt64(b & 0x7f)
            if shift == 63 && low > 1 || shift > 63 { throw fail("LEB128 number does not fit 64 bits") }
            result |= low << shift
            if b & 0x80 == 0 { return result }
            shift += 7
        }
    }

    /// A signed LEB128 that must fit `Int64`.
    private mutating func sleb() throws(ICPCodecError) -> Int64 {
        var result: Int64 = 0
        var shift: Int64 = 0
        var b: UInt8 = 0
        repeat {
            guard shift < 64 else { throw fail("SLEB128 number does not fit 64 bits") }
            b = try byte()
            result |= Int64(b & 0x7f) << shift
            shift += 7
        } while b & 0x80 != 0
        if shift < 64, b & 0x40 != 0 { result |= -1 << shift }
        return result
    }

    /// A count of things that take at least `unit` bytes each, bounded by the remaining input.
    private mutating func count(unit: Int) throws(ICPCodecError) -> Int {
        let n = try leb()
        guard n <= UInt64((bytes.count - position) / unit) else { throw fail("declared count exceeds the input") }
        guard n <= UInt64(limits.maxTypes) else { throw limit("more than \(limits.maxTypes) entries") }
        return Int(n)
    }

    /// A length in bytes, bounded by the remaining input.
    private mutating func length() throws(ICPCodecError) -> Int {
        let n = try leb()
        guard n <= UInt64(bytes.count - position) else { throw fail("declared length exceeds the input") }
        return Int(n)
    }

    // MARK: Type table

    private mutating func typeRef() throws(ICPCodecError) -> CandidTypeRef {
        let code = try sleb()
        if code >= 0 {
            guard code <= Int64(limits.maxTypes) else { throw fail("type index \(code) outside the table") }
            return .table(Int(code))
        }
        guard let p = CandidPrimitive(rawValue: Int(code)) else { throw fail("unknown primitive type \(code)") }
        return .primitive(p)
    }

    private mutating func typeEntry(members: inout Int) throws(ICPCodecError) -> CandidTypeEntry {
        let opcode = try sleb()
        switch opcode {
        case -18: return .opt(try typeRef())
        case -19: return .vec(try typeRef())
        case -20, -21:
            let n = try count(unit: 2)
            members += n
            guard members <= limits.maxTypes else { throw limit("too many fields in the type table") }
            var fields: [CandidField] = []
            fields.reserveCapacity(n)
            for _ in 0..<n {
                try charge()
                let id = try leb()
                guard id <= UInt64(UInt32.max) else { throw fail("field id above 2^32") }
                if let last = fields.last, UInt32(id) <= last.id { throw fail("field ids not strictly increasing") }
                fields.append(CandidField(id: UInt32(id), type: try typeRef()))
            }
            return opcode == -20 ? .record(fields) : .variant(fields)
        case -22:
            var lists: [[CandidTypeRef]] = []
            for _ in 0..<2 {
                let n = try count(unit: 1)
                members += n
                guard members <= limits.maxTypes else { throw limit("too many members in the type table") }
                var refs: [CandidTypeRef] = []
                for _ in 0..<n {
                    try charge()
                    refs.append(try typeRef())
                }
                lists.append(refs)
            }
            let n = try count(unit: 1)
            let annotations = Array(try take(n))
            guard annotations.allSatisfy({ (1...3).contains($0) }) else { throw fail("unknown function annotation") }
            return .function(arguments: lists[0], results: lists[1], annotations: annotations)
        case -23:
            let n = try count(unit: 2)
            members += n
            guard members <= limits.maxTypes else { throw limit("too many members in the type table") }
            var methods: [CandidMethod] = []
            for _ in 0..<n {
                try charge()
                let nameBytes = try take(try length())
                guard let name = String(validating: nameBytes, as: UTF8.self) else {
                    throw fail("method name not UTF-8")
                }
                if let last = methods.last, !last.name.utf8.lexicographicallyPrecedes(name.utf8) {
                    throw fail("service methods not strictly increasing")
                }
                methods.append(CandidMethod(name: name, type: try typeRef()))
            }
            return .service(methods)
        default:
            throw fail("type table entry \(opcode) is not a constructed type")
        }
    }

    private func validate(_ ref: CandidTypeRef) throws(ICPCodecError) {
        if case .table(let i) = ref, i >= table.count { throw fail("type index \(i) outside the table") }
    }

    private func validate(_ entry: CandidTypeEntry) throws(ICPCodecError) {
        switch entry {
        case .opt(let t), .vec(let t): try validate(t)
        case .record(let fields), .variant(let fields): for f in fields { try validate(f.type) }
        case .function(let args, let results, _): for t in args + results { try validate(t) }
        case .service(let methods):
            for m in methods {
                try validate(m.type)
                guard case .table(let i) = m.type, case .function = table[i] else {
                    throw fail("a service method must have a function type")
                }
            }
        }
    }

    // MARK: Values

    private mutating func value(_ type: CandidTypeRef, depth: Int) throws(ICPCodecError) -> CandidValue {
        guard depth <= limits.maxDepth else { throw limit("Candid value nested deeper than \(limits.maxDepth)") }
        try charge()
        switch type {
        case .primitive(let p):
            let v = try primitive(p)
            try store(extraBytes: Self.ownBytes(v))
            return v
        case .table(let i):
            try store()
            switch table[i] {
            case .opt(let inner):
                switch try byte() {
                case 0: return .opt(nil)
                case 1: return .opt(try value(inner, depth: depth + 1))
                default: throw fail("opt flag must be 0 or 1")
                }
            case .vec(let inner):
                let n = try leb()
                if inner == .primitive(.nat8) {
                    guard n <= UInt64(bytes.count - position) else { throw fail("blob longer than the input") }
                    materialisedBytes += Int(n)
                    guard materialisedBytes <= limits.maxMaterialisedBytes else {
                        throw limit("Candid message would take more than \(limits.maxMaterialisedBytes) bytes decoded")
                    }
                    return .blob(Array(try take(Int(n))))
                }
                guard n <= UInt64(workLimit) else { throw limit("vector longer than the work bound") }
                // Elements that occupy no bytes are all the same value: one element and a count.
                if isZeroSized(inner) {
                    guard n > 0 else { return .vec([]) }
                    return .repeated(count: n, element: try value(inner, depth: depth + 1))
                }
                // Every other element occupies at least one byte, so `n` is bounded by the input.
                guard n <= UInt64(bytes.count - position) else { throw fail("vector longer than the input") }
                var items: [CandidValue] = []
                items.reserveCapacity(Int(min(n, 1024)))
                for _ in 0..<n { items.append(try value(inner, depth: depth + 1)) }
                return .vec(items)
            case .record(let fields):
                var out: [CandidRecordField] = []
                out.reserveCapacity(fields.count)
                for f in fields { out.append(CandidRecordField(id: f.id, value: try value(f.type, depth: depth + 1))) }
                return .record(out)
            case .variant(let fields):
                let index = try leb()
                guard index < UInt64(fields.count) else { throw fail("variant index outside the type") }
                let field = fields[Int(index)]
                return .variant(id: field.id, index: Int(index), value: try value(field.type, depth: depth + 1))
            case .function:
                guard try byte() == 1 else { throw fail("opaque function references are not accepted") }
                let service = try principalValue()
                guard let name = String(validating: try take(try length()), as: UTF8.self) else {
                    throw fail("method name not UTF-8")
                }
                materialisedBytes += name.utf8.count
                return .function(service: service, method: name)
            case .service:
                return .service(try principalValue())
            }
        }
    }

    /// Bytes a primitive value holds beyond its box (text, numbers, principals).
    private static func ownBytes(_ v: CandidValue) -> Int {
        switch v {
        case .text(let t): t.utf8.count
        case .nat(let n), .int(_, let n): 4 * n.limbs.count
        case .principal(let p): p.bytes.count
        default: 0
        }
    }

    private mutating func principalValue() throws(ICPCodecError) -> Principal {
        guard try byte() == 1 else { throw fail("opaque principal references are not accepted") }
        let n = try length()
        guard n <= Principal.maxLength else { throw fail("principal longer than 29 bytes") }
        return Principal(unchecked: Array(try take(n)))
    }

    private mutating func fixed(_ n: Int) throws(ICPCodecError) -> UInt64 {
        var v: UInt64 = 0
        for (i, b) in try take(n).enumerated() { v |= UInt64(b) << (8 * UInt64(i)) }
        return v
    }

    private mutating func bigNat() throws(ICPCodecError) -> (groups: [UInt8], last: UInt8) {
        var groups: [UInt8] = []
        while true {
            guard groups.count < limits.maxNumberBytes else {
                throw limit("number longer than \(limits.maxNumberBytes) LEB128 bytes")
            }
            let b = try byte()
            groups.append(b & 0x7f)
            if b & 0x80 == 0 { return (groups, b) }
        }
    }

    private mutating func primitive(_ p: CandidPrimitive) throws(ICPCodecError) -> CandidValue {
        switch p {
        case .null: return .null
        case .bool:
            switch try byte() {
            case 0: return .bool(false)
            case 1: return .bool(true)
            default: throw fail("bool must be 0 or 1")
            }
        case .nat: return .nat(CandidNat(groups: try bigNat().groups))
        case .int:
            let (groups, last) = try bigNat()
            guard last & 0x40 != 0 else { return .int(negative: false, CandidNat(groups: groups)) }
            // Negative: magnitude = 2^(7k) − value (two's complement over 7k bits).
            var complemented = groups.map { ~$0 & 0x7f }
            var carry: UInt8 = 1
            for i in complemented.indices {
                let sum = complemented[i] + carry
                complemented[i] = sum & 0x7f
                carry = sum >> 7
            }
            return .int(negative: true, CandidNat(groups: complemented))
        case .nat8: return .nat8(UInt8(truncatingIfNeeded: try fixed(1)))
        case .nat16: return .nat16(UInt16(truncatingIfNeeded: try fixed(2)))
        case .nat32: return .nat32(UInt32(truncatingIfNeeded: try fixed(4)))
        case .nat64: return .nat64(try fixed(8))
        case .int8: return .int8(Int8(truncatingIfNeeded: try fixed(1)))
        case .int16: return .int16(Int16(truncatingIfNeeded: try fixed(2)))
        case .int32: return .int32(Int32(truncatingIfNeeded: try fixed(4)))
        case .int64: return .int64(Int64(bitPattern: try fixed(8)))
        case .float32: return .float32(bits: UInt32(truncatingIfNeeded: try fixed(4)))
        case .float64: return .float64(bits: try fixed(8))
        case .text:
            guard let s = String(validating: try take(try length()), as: UTF8.self) else {
                throw fail("text not UTF-8")
            }
            return .text(s)
        case .reserved: return .reserved
        case .empty: throw fail("a value of type empty cannot exist")
        case .principal: return .principal(try principalValue())
        }
    }
}
