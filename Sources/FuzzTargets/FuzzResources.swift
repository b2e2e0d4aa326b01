import Foundation
import ScaleCodec

/// Files the targets need, found in the repository next to this source file (the targets run from a
/// checkout: `scripts/fuzz` and the tests), or at `SIGIL_FUZZ_METADATA`.
package enum FuzzResources {
    /// The repository's root.
    package static let root: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Polkadot's runtime metadata (v15), decoded once; nil when the file is missing.
    package static let polkadot: RuntimeMetadata? = {
        let path =
            ProcessInfo.processInfo.environment["SIGIL_FUZZ_METADATA"]
            ?? root.appendingPathComponent("Tests/SigilTesting/Resources/polkadot-v15.scale").path
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        return try? RuntimeMetadata(bytes: [UInt8](data))
    }()

    /// The seed corpus of `target` (`Fuzz/corpus/<target>`).
    package static func corpus(_ target: FuzzTarget) -> URL {
        root.appendingPathComponent("Fuzz/corpus").appendingPathComponent(target.rawValue)
    }

    /// Inputs that once broke `target`, kept as regressions (`Fuzz/regressions/<target>`).
    package static func regressions(_ target: FuzzTarget) -> URL {
        root.appendingPathComponent("Fuzz/regressions").appendingPathComponent(target.rawValue)
    }
}
