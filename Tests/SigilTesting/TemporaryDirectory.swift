import Foundation

/// A fresh directory under the system temp directory, removed by `remove()` (created by whoever
/// uses it: the data directory code creates its own with the right modes).
package struct TemporaryDirectory: Sendable {
    package let path: String

    package init() {
        path = FileManager.default.temporaryDirectory.path + "/sigil-tests-" + UUID().uuidString
    }

    package func remove() { try? FileManager.default.removeItem(atPath: path) }
}
