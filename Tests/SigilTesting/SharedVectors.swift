import Foundation

/// Files more than one test target reads, kept once in this target's `Resources` (see its README):
/// a test target's own loader falls back to these when a name is not in its own bundle.
public enum SharedVectors {
    /// The URL of a shared file, or `nil` when there is none of that name.
    public static func url(_ name: String) -> URL? { file(name, in: Bundle.module) }

    /// The URL of `name` in `bundle`'s copied `Resources` when it is there, else the shared one.
    public static func url(_ name: String, preferring bundle: Bundle) -> URL? {
        file(name, in: bundle) ?? url(name)
    }

    /// A `.copy("Resources")` folder's file: Foundation's `resourceURL` is that folder on Linux, the
    /// bundle itself elsewhere.
    private static func file(_ name: String, in bundle: Bundle) -> URL? {
        guard let base = bundle.resourceURL else { return nil }
        return [base.appendingPathComponent(name), base.appendingPathComponent("Resources").appendingPathComponent(name)]
            .first { FileManager.default.fileExists(atPath: $0.path) }
    }

    /// The bytes of a shared file.
    public static func data(_ name: String) throws -> [UInt8] {
        guard let url = url(name) else { throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: name]) }
        return [UInt8](try Data(contentsOf: url))
    }
}
