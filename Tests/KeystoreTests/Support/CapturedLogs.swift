import Foundation
import Logging

/// A swift-log handler that keeps every line in memory, for "no secret in the logs" checks.
final class CapturedLogs: @unchecked Sendable {
    private let lock = NSLock()
    private var lines: [String] = []

    var text: String { lock.withLock { lines.joined(separator: "\n") } }

    func append(_ line: String) { lock.withLock { lines.append(line) } }

    /// A logger at trace level that writes here.
    func logger() -> Logger {
        var logger = Logger(label: "test") { _ in Handler(sink: self) }
        logger.logLevel = .trace
        return logger
    }

    struct Handler: LogHandler {
        let sink: CapturedLogs
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            sink.append("\(event.level) \(event.message) \(event.metadata ?? [:]) \(metadata)")
        }
    }
}
