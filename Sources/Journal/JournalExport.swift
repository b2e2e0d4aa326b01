import Keystore
import Primitives

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension JournalEntry {
    /// The JSON object of an export line (docs/journal.md §5): every hashed field, bytes as `0x` hex,
    /// the shown rows as objects (or `shownRaw` hex when the stored bytes do not decode), and `hash`.
    package var json: JSONValue {
        let c = content
        var object: JSONObject = [
            "type": "entry", "v": .integer(JournalCodec.version), "seq": .integer(seq), "time": .integer(time),
            "prev": .string(Hex.encode(previousHash)), "protocol": .string(c.protocolName), "method": .string(c.method),
            "origin": .string(c.origin), "app": .string(c.appName), "account": .string(c.account),
            "decision": .string(c.decision), "detail": .string(c.detail),
            "summaryDigest": .string(Hex.encode(c.summaryDigest)),
            "subjectDigest": .string(Hex.encode(c.subjectDigest)),
            "result": .string(Hex.encode(c.result)), "shownTruncated": .bool(c.shownTruncated),
        ]
        if let rows = c.shownRows {
            object["shown"] = .array(
                rows.map { ["label": .string($0.label), "value": .string($0.value), "warning": .bool($0.warning)] })
        } else {
            object["shownRaw"] = .string(Hex.encode(c.shown))
        }
        object["hash"] = .string(Hex.encode(hash))
        return .object(object)
    }
}

/// The checkpoint mirror: a JSON Lines file, `sigil-journal-checkpoints.jsonl`, in a directory the
/// operator chose (`--journal-mirror DIR`), ideally a mount that leaves the machine (docs/journal.md §8).
/// Each checkpoint is appended as one line and synced before the next.
package struct JournalMirror: Sendable {
    /// The file name inside the mirror directory.
    package static let fileName = "sigil-journal-checkpoints.jsonl"
    /// Longest file read back (a checkpoint line is about 400 bytes).
    package static let maxFileBytes = 256 << 20

    /// The directory.
    package let directory: String
    /// The file.
    package var path: String { directory + "/" + Self.fileName }

    package init(directory: String) { self.directory = directory }

    /// Appends one checkpoint line (`O_APPEND`, then `fsync`; the directory is synced when the file is new).
    /// - Throws: `.fileSystem`.
    package func append(_ checkpoint: JournalCheckpoint) throws(JournalError) {
        let line = checkpoint.json.encoded(.sortedKeys) + [0x0a]
        try keystoreFiles { () throws(KeystoreError) in
            let existed = try POSIX.status(path) != nil
            let fd = try POSIX.open(path, O_WRONLY | O_APPEND | O_CREAT, mode: 0o600)
            defer { _ = close(fd) }
            var failure: KeystoreError?
            line.withUnsafeBytes { bytes in
                do throws(KeystoreError) {
                    try POSIX.writeAll(fd, bytes, path: path)
                } catch {
                    failure = error
                }
            }
            if let failure { throw failure }
            guard fsync(fd) == 0 else { throw POSIX.error("fsync", path) }
            if !existed { try POSIX.syncDirectory(directory) }
        }
    }

    /// The checkpoints in a JSON Lines file: the mirror file, or an export (other lines are skipped).
    /// `path` may also name a mirror directory. A missing file gives none.
    /// - Throws: `.malformedFile` naming the line, `.fileSystem`.
    package static func checkpoints(at path: String) throws(JournalError) -> [JournalCheckpoint] {
        var file = path
        let read = try keystoreFiles { () throws(KeystoreError) -> [UInt8]? in
            if let status = try POSIX.status(path), status.st_mode & S_IFMT == S_IFDIR { file = path + "/" + fileName }
            guard try POSIX.status(file) != nil else { return nil }
            return try POSIX.readFile(file, limit: maxFileBytes)
        }
        guard let bytes = read else { return [] }
        var checkpoints: [JournalCheckpoint] = []
        let lines = bytes.split(separator: 0x0a, omittingEmptySubsequences: false)
        for (index, line) in lines.enumerated() where !line.isEmpty {
            let value: JSONValue
            do {
                value = try JSONValue.parse(line)
            } catch {
                // A last line without its newline is a write a crash cut short: it was never synced.
                if index == lines.count - 1 { break }
                throw JournalError(.malformedFile, "\(file) line \(index + 1) is not JSON")
            }
            guard value["type"]?.stringValue == "checkpoint" else { continue }
            do {
                checkpoints.append(try JournalCheckpoint(json: value))
            } catch {
                throw JournalError(error.code, "\(file) line \(index + 1): \(error.reason)")
            }
        }
        return checkpoints
    }
}
