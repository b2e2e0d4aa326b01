/// An unbounded natural number as Candid sends it (LEB128), kept exactly: little-endian 32-bit
/// limbs without trailing zeros. Decimal text by repeated division (the decoder bounds the size).
/// Never converted to floating point.
package struct CandidNat: Sendable, Hashable, CustomStringConvertible, Comparable {
    /// Little-endian limbs, no trailing zero limbs (zero is `[]`).
    package let limbs: [UInt32]

    package init(_ value: UInt64) {
        var l = [UInt32(truncatingIfNeeded: value), UInt32(truncatingIfNeeded: value >> 32)]
        while l.last == 0 { l.removeLast() }
        limbs = l
    }

    init(limbs: [UInt32]) {
        var l = limbs
        while l.last == 0 { l.removeLast() }
        self.limbs = l
    }

    /// From the 7-bit groups of a LEB128 number, least significant first.
    init(groups: [UInt8]) {
        var l = [UInt32](repeating: 0, count: (groups.count * 7 + 31) / 32)
        for (i, g) in groups.enumerated() {
            let bit = i * 7
            let (limb, shift) = (bit / 32, UInt32(bit % 32))
            l[limb] |= UInt32(g) << shift
            if shift > 25, limb + 1 < l.count { l[limb + 1] |= UInt32(g) >> (32 - shift) }
        }
        self.init(limbs: l)
    }

    package var isZero: Bool { limbs.isEmpty }

    /// The value when it fits 64 bits.
    package var uint64: UInt64? {
        switch limbs.count {
        case 0: 0
        case 1: UInt64(limbs[0])
        case 2: UInt64(limbs[0]) | UInt64(limbs[1]) << 32
        default: nil
        }
    }

    package var description: String {
        if limbs.isEmpty { return "0" }
        var work = limbs
        var chunks: [UInt64] = []  // base 10^9, least significant first
        while !work.isEmpty {
            var remainder: UInt64 = 0
            for i in stride(from: work.count - 1, through: 0, by: -1) {
                let current = remainder << 32 | UInt64(work[i])
                work[i] = UInt32(truncatingIfNeeded: current / 1_000_000_000)
                remainder = current % 1_000_000_000
            }
            while work.last == 0 { work.removeLast() }
            chunks.append(remainder)
        }
        var text = String(chunks.last ?? 0)
        for chunk in chunks.dropLast().reversed() {
            let digits = String(chunk)
            text += String(repeating: "0", count: 9 - digits.count) + digits
        }
        return text
    }

    /// The decimal text with `decimals` digits after the point, trailing zeros after the point
    /// removed (`123456789`, 8 → `1.23456789`; `100000000`, 8 → `1`).
    package func formatted(decimals: Int) -> String {
        let digits = Array(description.utf8)
        guard decimals > 0 else { return description }
        let padded = [UInt8](repeating: 0x30, count: max(0, decimals + 1 - digits.count)) + digits
        let whole = padded.prefix(padded.count - decimals)
        var fraction = Array(padded.suffix(decimals))
        while fraction.last == 0x30 { fraction.removeLast() }
        let w = String(decoding: whole, as: UTF8.self)
        return fraction.isEmpty ? w : w + "." + String(decoding: fraction, as: UTF8.self)
    }

    package static func < (a: CandidNat, b: CandidNat) -> Bool {
        if a.limbs.count != b.limbs.count { return a.limbs.count < b.limbs.count }
        for i in stride(from: a.limbs.count - 1, through: 0, by: -1) where a.limbs[i] != b.limbs[i] {
            return a.limbs[i] < b.limbs[i]
        }
        return false
    }
}

/// A decoded Candid value, shaped by the message's own type table.
package indirect enum CandidValue: Sendable, Hashable {
    case null
    case bool(Bool)
    case nat(CandidNat)
    /// `int`: sign and magnitude.
    case int(negative: Bool, CandidNat)
    case nat8(UInt8)
    case nat16(UInt16)
    case nat32(UInt32)
    case nat64(UInt64)
    case int8(Int8)
    case int16(Int16)
    case int32(Int32)
    case int64(Int64)
    /// IEEE 754 bits, never converted (nothing on a signing path passes through floating point).
    case float32(bits: UInt32)
    case float64(bits: UInt64)
    case text(String)
    case reserved
    case principal(Principal)
    case opt(CandidValue?)
    /// `vec nat8` (blob).
    case blob([UInt8])
    case vec([CandidValue])
    /// A vector of `count` elements whose type occupies no bytes on the wire (`null`, `reserved`,
    /// records of them): they are all `element`, stored once (``CandidDecoder``'s memory bound).
    case repeated(count: UInt64, element: CandidValue)
    case record([CandidRecordField])
    case variant(id: UInt32, index: Int, value: CandidValue)
    case function(service: Principal, method: String)
    case service(Principal)

    /// The value of the record field named `name` (by Candid field id).
    package subscript(field name: String) -> CandidValue? {
        guard case .record(let fields) = self else { return nil }
        let id = candidFieldId(name)
        return fields.first { $0.id == id }?.value
    }
}

package struct CandidRecordField: Sendable, Hashable {
    package let id: UInt32
    package let value: CandidValue
}
