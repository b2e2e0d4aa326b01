import Primitives

/// A strict CBOR decoder for untrusted input (ICRC-49 content maps, certificates, replica replies).
///
/// Bounds: nesting at most `maxDepth`; every declared length is checked against the bytes that
/// remain before anything is allocated, and every item consumes at least one input byte, so the
/// work is linear in the input (`work` counts items decoded; it never exceeds the input length).
/// Refused: indefinite lengths, floats and other simple values, non-text map keys, duplicate map
/// keys, invalid UTF-8, trailing bytes. Non-shortest heads are accepted (CBOR allows them).
package struct CBORDecoder {
    package static let maxDepth = 32

    private let bytes: [UInt8]
    private var position = 0
    /// Items decoded so far (the work bound tests count this).
    package private(set) var work = 0

    package init(_ bytes: [UInt8]) { self.bytes = bytes }

    /// Decodes exactly one item spanning all of `bytes`.
    package static func decode(_ bytes: [UInt8]) throws(ICPCodecError) -> CBORValue {
        var decoder = CBORDecoder(bytes)
        return try decoder.decodeAll()
    }

    package mutating func decodeAll() throws(ICPCodecError) -> CBORValue {
        let value = try item(depth: 0)
        guard position == bytes.count else { throw fail("trailing bytes after the CBOR item") }
        return value
    }

    private func fail(_ reason: String) -> ICPCodecError { ICPCodecError(.invalidCBOR, at: position, reason) }

    private mutating func byte() throws(ICPCodecError) -> UInt8 {
        guard position < bytes.count else { throw fail("truncated CBOR") }
        defer { position += 1 }
        return bytes[position]
    }

    private mutating func argument(_ info: UInt8) throws(ICPCodecError) -> UInt64 {
        switch info {
        case 0..<24: return UInt64(info)
        case 24...27:
            let count = 1 << Int(info - 24)
            var n: UInt64 = 0
            for _ in 0..<count { n = (n << 8) | UInt64(try byte()) }
            return n
        default: throw fail("indefinite lengths and reserved additional information are not accepted")
        }
    }

    /// A length that fits in the remaining input (each element needs at least `unit` bytes).
    private func length(_ n: UInt64, unit: Int) throws(ICPCodecError) -> Int {
        let remaining = bytes.count - position
        guard n <= UInt64(remaining / unit) else { throw fail("declared length exceeds the input") }
        return Int(n)
    }

    private mutating func item(depth: Int) throws(ICPCodecError) -> CBORValue {
        guard depth <= CBORDecoder.maxDepth else {
            throw ICPCodecError(.limitExceeded, at: position, "CBOR nested deeper than \(CBORDecoder.maxDepth)")
        }
        let initial = try byte()
        work += 1  // after the byte is read: every counted item consumed at least one input byte
        let major = initial >> 5
        let info = initial & 0x1f
        if major == 7 {
            switch info {
            case 20: return .bool(false)
            case 21: return .bool(true)
            case 22: return .null
            default: throw fail("floats and simple values other than false/true/null are not accepted")
            }
        }
        let n = try argument(info)
        switch major {
        case 0: return .unsigned(n)
        case 1: return .negative(n)
        case 2:
            let count = try length(n, unit: 1)
            defer { position += count }
            return .bytes(Array(bytes[position..<position + count]))
        case 3:
            let count = try length(n, unit: 1)
            let slice = bytes[position..<position + count]
            guard let text = String(validating: slice, as: UTF8.self) else { throw fail("text is not UTF-8") }
            position += count
            return .text(text)
        case 4:
            let count = try length(n, unit: 1)
            var items: [CBORValue] = []
            items.reserveCapacity(count)
            for _ in 0..<count { items.append(try item(depth: depth + 1)) }
            return .array(items)
        case 5:
            let count = try length(n, unit: 2)
            var entries: [(key: String, value: CBORValue)] = []
            entries.reserveCapacity(count)
            var seen = Set<String>()
            for _ in 0..<count {
                guard case .text(let key) = try item(depth: depth + 1) else {
                    throw fail("map keys must be text")
                }
                guard seen.insert(key).inserted else { throw fail("duplicate map key") }
                entries.append((key, try item(depth: depth + 1)))
            }
            return .map(entries)
        default:  // 6: tag
            return .tag(n, try item(depth: depth + 1))
        }
    }
}
