import Foundation
import Primitives
import Testing

@testable import ICPCodec

/// Resources/icp-vectors.json (V-ICP-1..8, docs/reference/icp.md §7).
enum Vectors {
    static let file: JSONValue = {
        guard let url = Bundle.module.url(forResource: "Resources/icp-vectors", withExtension: "json"),
            let data = try? Data(contentsOf: url), let value = try? JSONValue.parse(Array(data))
        else { return .null }
        return value
    }()

    static func list(_ key: String) -> [JSONValue] { file[key]?.arrayValue ?? [] }

    static func hex(_ v: JSONValue?) throws -> [UInt8] {
        try Hex.decode(try #require(v?.stringValue), prefix: .forbidden)
    }

    static func base64(_ v: JSONValue?) throws -> [UInt8] {
        Array(try #require(v?.stringValue.flatMap { Data(base64Encoded: $0) }))
    }

    /// `{"blob":hex}`, `{"text":…}`, `{"nat":"decimal"}`, `{"array":[…]}`, `{"map":{…}}`.
    static func hashable(_ v: JSONValue) throws -> HashableValue {
        let o = try #require(v.objectValue)
        if let b = o["blob"] { return .blob(try hex(b)) }
        if let t = o["text"]?.stringValue { return .text(t) }
        if let n = o["nat"]?.stringValue { return .nat(try #require(UInt64(n))) }
        if let a = o["array"]?.arrayValue { return .array(try a.map(hashable)) }
        if let m = o["map"] { return .map(try map(m)) }
        Issue.record("unknown hashable value")
        return .blob([])
    }

    static func map(_ v: JSONValue) throws -> [String: HashableValue] {
        var out: [String: HashableValue] = [:]
        for (key, value) in try #require(v.objectValue) { out[key] = try hashable(value) }
        return out
    }
}
