import Glibc
import Logging
import Primitives
import Synchronization

/// A swift-log `LogHandler` that writes one JSON object per line (`sigil serve --log-format json`):
///
///     {"timestamp":"2026-11-22T03:28:50.123Z","level":"info","label":"sigil.serve","message":"request","status":"200",…}
///
/// `timestamp` (UTC, RFC 3339, milliseconds), `level`, `label` and `message` come first; then the
/// metadata (handler, provider, then per-call, later winning) as top-level fields in key order. A
/// metadata key equal to one of the four fixed names is written as `meta.<key>`. Strings are
/// escaped per RFC 8259 §7 (quote, backslash, control characters as `\uXXXX`), so a value can
/// never break the line. `Int`, `UInt64`, finite `Double` and `Bool` metadata given with
/// `.stringConvertible` are written as JSON numbers/booleans; nested metadata as arrays/objects.
///
/// Not a filter: the caller must never put secrets in messages or metadata (none of our call
/// sites do; `LogSecrecyTests` checks a signing flow).
package struct JSONLogHandler: LogHandler {
    /// Receives each complete line (with its trailing `\n`). Must be thread-safe.
    package typealias Sink = @Sendable (String) -> Void

    package var logLevel: Logger.Level = .info
    package var metadata: Logger.Metadata = [:]
    package var metadataProvider: Logger.MetadataProvider?
    private let label: String
    private let sink: Sink

    /// - Parameters:
    ///   - label: the logger's label (the `label` field).
    ///   - sink: where lines go (default: standard error, one `write(2)` per line under a lock).
    package init(
        label: String, metadataProvider: Logger.MetadataProvider? = nil,
        sink: @escaping Sink = JSONLogHandler.standardError
    ) {
        self.label = label
        self.metadataProvider = metadataProvider
        self.sink = sink
    }

    package subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    package func log(event: LogEvent) {
        var merged = metadata
        if let provided = metadataProvider?.get() { merged.merge(provided) { _, new in new } }
        if let extra = event.metadata { merged.merge(extra) { _, new in new } }
        sink(
            Self.line(
                timestamp: Self.timestamp(), level: event.level, label: label, message: "\(event.message)",
                metadata: merged))
    }

    /// Builds one line; pure, for tests.
    package static func line(
        timestamp: String, level: Logger.Level, label: String, message: String, metadata: Logger.Metadata
    ) -> String {
        var out = "{\"timestamp\":\(quoted(timestamp)),\"level\":\(quoted(level.rawValue)),"
        out += "\"label\":\(quoted(label)),\"message\":\(quoted(message))"
        let reserved: Set<String> = ["timestamp", "level", "label", "message"]
        for (key, value) in metadata.sorted(by: { $0.key < $1.key }) {
            let name = reserved.contains(key) ? "meta." + key : key
            out += ",\(quoted(name)):\(json(value))"
        }
        return out + "}\n"
    }

    static func json(_ value: Logger.Metadata.Value) -> String {
        switch value {
        case .string(let text): return quoted(text)
        case .stringConvertible(let convertible):
            // Numbers and booleans given as values (not interpolated strings) stay JSON numbers/booleans.
            switch convertible {
            case let value as Bool: return value ? "true" : "false"
            case let value as Int: return String(value)
            case let value as UInt64: return String(value)
            case let value as Double where value.isFinite: return "\(value)"
            default: return quoted(convertible.description)
            }
        case .array(let items): return "[" + items.map(json).joined(separator: ",") + "]"
        case .dictionary(let entries):
            return "{"
                + entries.sorted(by: { $0.key < $1.key }).map { "\(quoted($0.key)):\(json($0.value))" }
                .joined(separator: ",") + "}"
        }
    }

    /// A JSON string literal (RFC 8259 §7), escaped by the project's one JSON writer (controls,
    /// DEL, C1, U+2028/2029 and bidirectional controls as `\uXXXX`).
    package static func quoted(_ text: String) -> String {
        var out: [UInt8] = []
        JSONValue.writeString(text, into: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// Now, as `YYYY-MM-DDTHH:MM:SS.mmmZ` (UTC).
    static func timestamp() -> String {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        var seconds = now.tv_sec
        var parts = tm()
        gmtime_r(&seconds, &parts)
        func two(_ n: Int32) -> String { n < 10 ? "0\(n)" : "\(n)" }
        let millis = Int(now.tv_nsec / 1_000_000)
        let ms = millis < 10 ? "00\(millis)" : millis < 100 ? "0\(millis)" : "\(millis)"
        return "\(parts.tm_year + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday))T"
            + "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)).\(ms)Z"
    }

    private static let writeLock = Mutex(())

    /// Writes a line to standard error in one `write(2)` (under a lock, so lines never interleave).
    package static let standardError: Sink = { line in
        var line = line
        line.withUTF8 { bytes in
            writeLock.withLock { _ in
                var rest = UnsafeRawBufferPointer(bytes)
                while !rest.isEmpty {
                    let n = write(2, rest.baseAddress, rest.count)
                    if n < 0 && errno == EINTR { continue }
                    if n <= 0 { return }
                    rest = UnsafeRawBufferPointer(rebasing: rest[n...])
                }
            }
        }
    }
}
