import Foundation
import ScaleCodec

/// Any JSON value as a dapp sent it, keeping integers exact (up to u64) and telling booleans
/// from numbers, so `SignerPayloadJSON` fields can be validated strictly.
enum PayloadJSONValue: Decodable, Hashable, Sendable {
    case null
    case bool(Bool)
    case integer(UInt64)
    /// Any other number (negative, fractional or beyond u64): never a valid payload number.
    case otherNumber(Double)
    case string(String)
    case array([PayloadJSONValue])
    case object([String: PayloadJSONValue])

    struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    init(from decoder: any Decoder) throws {
        if let obj = try? decoder.container(keyedBy: Key.self) {
            var out: [String: PayloadJSONValue] = [:]
            for k in obj.allKeys { out[k.stringValue] = try obj.decode(PayloadJSONValue.self, forKey: k) }
            self = .object(out)
            return
        }
        if var arr = try? decoder.unkeyedContainer() {
            var out: [PayloadJSONValue] = []
            while !arr.isAtEnd { out.append(try arr.decode(PayloadJSONValue.self)) }
            self = .array(out)
            return
        }
        let c = try decoder.singleValueContainer()
        if c.decodeNil() {
            self = .null
        } else if let b = try? c.decode(Bool.self) {
            self = .bool(b)
        } else if let n = try? c.decode(UInt64.self) {
            self = .integer(n)
        } else if let d = try? c.decode(Double.self) {
            self = .otherNumber(d)
        } else {
            self = .string(try c.decode(String.self))
        }
    }

    /// The same value as ScaleCodec's ordered ``JSONValue`` (keys sorted), for echoing unknown fields.
    var jsonValue: JSONValue {
        switch self {
        case .null: return .null
        case .bool(let b): return .bool(b)
        case .integer(let n): return .number(String(n))
        case .otherNumber(let d): return .number(d.isFinite ? "\(d)" : "null")
        case .string(let s): return .string(s)
        case .array(let a): return .array(a.map(\.jsonValue))
        case .object(let o): return .object(o.keys.sorted().map { ($0, o[$0]?.jsonValue ?? .null) })
        }
    }
}
