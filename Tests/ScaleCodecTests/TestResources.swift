import Foundation
import SigilTesting

/// Loads files copied into this target's `Resources` folder (see its README.md).
enum TestResources {
    static func url(_ name: String) throws -> URL {
        guard let url = SharedVectors.url(name, preferring: Bundle.module) else { throw CocoaError(.fileNoSuchFile) }
        return url
    }

    static func data(_ name: String) throws -> [UInt8] { [UInt8](try Data(contentsOf: url(name))) }

    static func json(_ name: String) throws -> [String: Any] {
        let obj = try JSONSerialization.jsonObject(with: Data(contentsOf: url(name)))
        guard let dict = obj as? [String: Any] else { throw CocoaError(.fileReadCorruptFile) }
        return dict
    }

    static let metadataFixtures = [
        "polkadot-v14", "polkadot-v15", "polkadot-v16", "kusama-v15", "asset-hub-polkadot-v15",
    ]
}
