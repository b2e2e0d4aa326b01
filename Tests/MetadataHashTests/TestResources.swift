import Foundation
import MetadataHash
import Primitives
import ScaleCodec

/// Loads files copied into this target's `Resources` folder (see its README.md).
enum TestResources {
    static func url(_ name: String) throws -> URL {
        guard let base = Bundle.module.resourceURL else { throw CocoaError(.fileNoSuchFile) }
        return base.appendingPathComponent("Resources").appendingPathComponent(name)
    }

    static func data(_ name: String) throws -> [UInt8] {
        let direct = try url(name)
        if let d = FileManager.default.contents(atPath: direct.path) { return [UInt8](d) }
        guard let base = Bundle.module.resourceURL else { throw CocoaError(.fileNoSuchFile) }
        return [UInt8](try Data(contentsOf: base.appendingPathComponent(name)))
    }

    static func json(_ name: String) throws -> [String: Any] {
        let obj = try JSONSerialization.jsonObject(with: Data(data(name)))
        guard let dict = obj as? [String: Any] else { throw CocoaError(.fileReadCorruptFile) }
        return dict
    }

    static func metadata(_ name: String) throws -> RuntimeMetadata { try RuntimeMetadata(bytes: data(name)) }

    /// The fixture metadata files of vectors.json.
    static let fixtures = ["rococo-v15.scale", "polkadot-v15.scale", "kusama-v15.scale", "acala-v15.scale"]
}

func hex(_ bytes: [UInt8]) -> String { Hex.encode(bytes) }
