import Foundation
import Keystore

/// `approval-url` in the data directory: the approval URL and client tokens when `serve` runs with
/// `--token-output file` (docs/deployment.md). Written atomically with mode 0600 in the 0700 data
/// directory, so only the gateway's user reads it; removed at shutdown (the tokens die with the
/// process). Security: the file holds secrets; its path, never its content, is printed or logged.
enum TokenFile {
    static let name = "approval-url"

    /// Writes `lines` and returns the file's path.
    /// - Throws: `KeystoreError` when the data directory cannot be opened or written.
    static func write(lines: [String], dataDirectory: String?) throws -> String {
        let root = try DataDirectory.resolve(explicit: dataDirectory, environment: ProcessInfo.processInfo.environment)
        let directory = try DataDirectory.open(root)
        let path = directory.path + "/" + name
        try AtomicFile.write(Array((lines.joined(separator: "\n") + "\n").utf8), to: path, mode: 0o600)
        return path
    }

    /// Best effort: a file left behind holds only dead tokens.
    static func remove(_ path: String) {
        _ = unlink(path)
    }
}
