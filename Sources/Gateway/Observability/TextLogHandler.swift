import Glibc
import Logging
import Synchronization

/// A swift-log `LogHandler` for `sigil serve --log-format text` (the default) that writes exactly the
/// line swift-log's `StreamLogHandler.standardError` writes:
///
///     2026-11-22T03:28:50+0100 info sigil.serve: approval=7 kind=extrinsic [Gateway] signed
///
/// (local time `%Y-%m-%dT%H:%M:%S%z`, level, label, the merged metadata sorted by key as
/// `key=value`, the source module in brackets, the message), at a fraction of its cost, because
/// `sigil serve` writes three such lines per signature (the access log, `approval decided`,
/// `signed`): `StreamLogHandler` formats the time with glibc's `localtime`, which re-reads the
/// time-zone file's status (a `stat` system call) on every line, and writes through stdio's lock,
/// `fwrite` and `fflush`. Here the time text is made once per second from `localtime_r`, and each
/// line is one `write(2)` under a lock (``JSONLogHandler/standardError``), so lines never interleave.
///
/// Metadata merge order is swift-log's: handler metadata, then the metadata provider, then the
/// call's metadata (later wins), then `error.message` / `error.type` when the event carries an
/// error. Not a filter: the caller must never put secrets in messages or metadata.
package struct TextLogHandler: LogHandler {
    package var logLevel: Logger.Level = .info
    package var metadata: Logger.Metadata = [:]
    package var metadataProvider: Logger.MetadataProvider?
    private let label: String
    private let sink: JSONLogHandler.Sink

    /// - Parameters:
    ///   - label: the logger's label.
    ///   - sink: where lines go (default: standard error, one `write(2)` per line under a lock).
    package init(
        label: String, metadataProvider: Logger.MetadataProvider? = LoggingSystem.metadataProvider,
        sink: @escaping JSONLogHandler.Sink = JSONLogHandler.standardError
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
        var merged: Logger.Metadata
        let provided = metadataProvider?.get() ?? [:]
        if metadata.isEmpty && provided.isEmpty {
            merged = event.metadata ?? [:]  // the common case: nothing to merge into
        } else {
            merged = metadata
            if !provided.isEmpty { merged.merge(provided) { _, new in new } }
            if let extra = event.metadata, !extra.isEmpty { merged.merge(extra) { _, new in new } }
        }
        if let error = event.error {
            merged["error.message"] = "\(error)"
            merged["error.type"] = "\(String(reflecting: type(of: error)))"
        }
        sink(
            Self.line(
                timestamp: Self.clock.now(), level: event.level, label: label, metadata: merged,
                source: event.source, message: event.message.description))
    }

    /// Builds one line (with its `\n`); pure, for tests. Built as UTF-8 bytes in one buffer (one
    /// allocation, no per-piece string growth).
    package static func line(
        timestamp: String, level: Logger.Level, label: String, metadata: Logger.Metadata, source: String,
        message: String
    ) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(160 + message.utf8.count + 32 * metadata.count)
        out.append(contentsOf: timestamp.utf8)
        out.append(0x20)
        out.append(contentsOf: level.rawValue.utf8)
        if !label.isEmpty {
            out.append(0x20)
            out.append(contentsOf: label.utf8)
        }
        out.append(UInt8(ascii: ":"))
        for (key, value) in metadata.sorted(by: { $0.key < $1.key }) {
            out.append(0x20)
            out.append(contentsOf: key.utf8)
            out.append(UInt8(ascii: "="))
            switch value {
            case .string(let text): out.append(contentsOf: text.utf8)
            default: out.append(contentsOf: value.description.utf8)
            }
        }
        out.append(contentsOf: " [".utf8)
        out.append(contentsOf: source.utf8)
        out.append(contentsOf: "] ".utf8)
        out.append(contentsOf: message.utf8)
        out.append(0x0A)
        return String(decoding: out, as: UTF8.self)
    }

    /// `seconds` since 1970 as local time, `%Y-%m-%dT%H:%M:%S%z` (as strftime writes it).
    package static func timestamp(seconds: Int) -> String {
        var time = time_t(seconds)
        var parts = tm()
        guard localtime_r(&time, &parts) != nil else { return "<unknown>" }
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        let offsetMinutes = parts.tm_gmtoff / 60
        let sign = offsetMinutes < 0 ? "-" : "+"
        let hhmm = abs(offsetMinutes) / 60 * 100 + abs(offsetMinutes) % 60
        let zone = hhmm < 10 ? "000\(hhmm)" : hhmm < 100 ? "00\(hhmm)" : hhmm < 1000 ? "0\(hhmm)" : "\(hhmm)"
        return "\(Int(parts.tm_year) + 1900)-\(two(Int(parts.tm_mon) + 1))-\(two(Int(parts.tm_mday)))T"
            + "\(two(Int(parts.tm_hour))):\(two(Int(parts.tm_min))):\(two(Int(parts.tm_sec)))\(sign)\(zone)"
    }

    /// The timestamp text of the current second, made once per second.
    final class Clock: Sendable {
        private let last = Mutex<(seconds: Int, text: String)>((-1, ""))

        func now() -> String {
            let seconds = Int(time(nil))
            if let hit = last.withLock({ $0.seconds == seconds ? $0.text : nil }) { return hit }
            let text = TextLogHandler.timestamp(seconds: seconds)
            last.withLock { $0 = (seconds, text) }
            return text
        }
    }

    static let clock = Clock()
}
