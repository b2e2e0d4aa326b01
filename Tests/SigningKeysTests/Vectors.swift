import Foundation
import Primitives
import Testing

@testable import SigningKeys

/// Loads the JSON vector files copied into Resources (see Resources/README.md).
enum Vectors {
    typealias Entry = [String: Any]

    nonisolated(unsafe) private static var cache: [String: [String: Any]] = [:]
    private static let lock = NSLock()

    static func file(_ name: String) -> [String: Any] {
        lock.lock()
        defer { lock.unlock() }
        if let cached = cache[name] { return cached }
        guard
            let url = Bundle.module.url(forResource: "Resources/" + name, withExtension: nil)
                ?? Bundle.module.url(forResource: name, withExtension: nil),
            let data = try? Data(contentsOf: url),
            let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
        else { return [:] }
        cache[name] = object
        return object
    }

    static func entries(_ name: String) -> [Entry] { file(name)["vectors"] as? [Entry] ?? [] }

    /// Ids of the vectors that satisfy `filter`; used as test arguments.
    static func ids(_ name: String, _ filter: (Entry) -> Bool = { _ in true }) -> [String] {
        entries(name).filter(filter).compactMap { $0["id"] as? String }
    }

    static func entry(_ name: String, _ id: String) throws -> Entry {
        try #require(entries(name).first { $0["id"] as? String == id })
    }
}

extension Dictionary where Key == String, Value == Any {
    func string(_ key: String) throws -> String { try #require(self[key] as? String, "missing \(key)") }
    func hex(_ key: String) throws -> [UInt8] { try Hex.decode(string(key), prefix: .optional) }
    func int(_ key: String) throws -> Int { try #require(self[key] as? Int, "missing \(key)") }
    func bool(_ key: String) throws -> Bool { try #require(self[key] as? Bool, "missing \(key)") }
    func dict(_ key: String) throws -> [String: Any] { try #require(self[key] as? [String: Any], "missing \(key)") }
}

func hex(_ bytes: [UInt8]) -> String { Hex.encode(bytes) }
