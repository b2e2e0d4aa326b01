import Primitives
import SigningKeys

/// A value as the IC's representation-independent hash sees it (docs/reference/icp.md §2).
package indirect enum HashableValue: Sendable, Hashable {
    case blob([UInt8])
    case text(String)
    case nat(UInt64)
    case int(Int64)
    case array([HashableValue])
    case map([String: HashableValue])

    /// `hash_value`: SHA-256 of the blob, of the UTF-8 text, of the shortest LEB128 of a number; of
    /// the concatenated element hashes of an array; `hashOfMap` of a map.
    package var hash: [UInt8] {
        switch self {
        case .blob(let b): SHA256.hash(b)
        case .text(let t): SHA256.hash(Array(t.utf8))
        case .nat(let n): SHA256.hash(LEB128.unsigned(n))
        case .int(let i): SHA256.hash(LEB128.signed(i))
        case .array(let items): SHA256.hash(items.flatMap(\.hash))
        case .map(let m): HashableValue.hashOfMap(m)
        }
    }

    /// SHA-256 of the concatenation of `H(key) ‖ hash_value(value)` for every entry, sorted by full
    /// lexicographic byte order of the 64-byte pairs (not by the first byte only, as IcpKit does).
    package static func hashOfMap(_ map: [String: HashableValue]) -> [UInt8] {
        let pairs = map.map { SHA256.hash(Array($0.key.utf8)) + $0.value.hash }
        return SHA256.hash(pairs.sorted { $0.lexicographicallyPrecedes($1) }.flatMap { $0 })
    }

    /// The hashable view of decoded CBOR: bytes → blob, text → text, unsigned → nat, negative →
    /// int, arrays and text-keyed maps recursively. Tags, booleans, null and negatives below
    /// Int64.min have no hashing rule and are refused.
    package init(cbor: CBORValue) throws(ICPCodecError) {
        switch cbor {
        case .bytes(let b): self = .blob(b)
        case .text(let t): self = .text(t)
        case .unsigned(let n): self = .nat(n)
        case .negative(let n):
            guard n <= UInt64(Int64.max) else { throw ICPCodecError(.invalidRequest, "integer below -2^63") }
            self = .int(-1 - Int64(n))
        case .array(let items):
            var out: [HashableValue] = []
            out.reserveCapacity(items.count)
            for item in items { out.append(try HashableValue(cbor: item)) }
            self = .array(out)
        case .map(let entries):
            var out: [String: HashableValue] = [:]
            for entry in entries { out[entry.key] = try HashableValue(cbor: entry.value) }
            self = .map(out)
        case .tag, .bool, .null:
            throw ICPCodecError(.invalidRequest, "tags, booleans and null have no request-id hashing rule")
        }
    }
}
