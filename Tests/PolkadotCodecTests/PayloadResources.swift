import Foundation
import ScaleCodec
import SigilTesting

/// Loads files copied into this target's `Resources` folder (see its README.md), else the shared
/// ones of SigilTesting (`payloads.json`, the metadata files).
enum PayloadResources {
    static func url(_ name: String) throws -> URL {
        guard let url = SharedVectors.url(name, preferring: Bundle.module) else { throw CocoaError(.fileNoSuchFile) }
        return url
    }

    static func data(_ name: String) throws -> [UInt8] { [UInt8](try Data(contentsOf: url(name))) }

    static func json(_ name: String) throws -> [String: Any] {
        guard let d = try JSONSerialization.jsonObject(with: Data(contentsOf: url(name))) as? [String: Any] else {
            throw CocoaError(.fileReadCorruptFile)
        }
        return d
    }

    static func payloadJSON(_ payload: Any) throws -> [UInt8] {
        [UInt8](try JSONSerialization.data(withJSONObject: payload, options: [.sortedKeys]))
    }

    nonisolated(unsafe) private static var cache: [String: RuntimeMetadata] = [:]
    private static let lock = NSLock()

    static func metadata(_ file: String) throws -> RuntimeMetadata {
        lock.lock()
        defer { lock.unlock() }
        if let md = cache[file] { return md }
        let md = try RuntimeMetadata(bytes: data(file))
        cache[file] = md
        return md
    }
}
