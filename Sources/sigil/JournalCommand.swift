import ArgumentParser
import Foundation
import Journal
import Keystore
import Primitives
import SigningKeys
import StateStore

/// `sigil journal list|show|verify|export`: the tamper-evident signing journal in the data
/// directory's state (docs/journal.md). Reading only; a running `sigil serve` may keep appending.
struct JournalCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "journal", abstract: "Read, verify and export the signing journal (docs/journal.md).",
        subcommands: [List.self, Show.self, Verify.self, Export.self])

    /// `--data-dir` and the store it names.
    struct Location: ParsableArguments {
        @OptionGroup var dataDirectory: DataDirectoryOption

        func open() throws -> (store: SQLiteStateStore, directory: DataDirectory) {
            let directory = try dataDirectory.open()
            do {
                return (try SQLiteStateStore(path: directory.databasePath), directory)
            } catch {
                throw CLIFailure(error)
            }
        }
    }

    // MARK: list

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List entries, newest first, with filters.")
        @OptionGroup var location: Location
        @Option(help: ArgumentHelp("Only this site (exact origin, e.g. https://app.example).", valueName: "origin"))
        var site: String?
        @Option(help: ArgumentHelp("Only this account (any SS58 prefix or 0x account id).", valueName: "address"))
        var account: String?
        @Option(name: .customLong("protocol"), help: ArgumentHelp("Only this protocol (polkadot).", valueName: "name"))
        var protocolName: String?
        @Option(
            help: ArgumentHelp(
                "Only this decision: \(JournalDecision.allCases.map(\.rawValue).joined(separator: ", ")).",
                valueName: "decision"))
        var decision: String?
        @Option(
            help: ArgumentHelp("Only entries at or after this time (ISO 8601 or Unix milliseconds).", valueName: "time")
        )
        var since: String?
        @Option(help: ArgumentHelp("Only entries before this time (ISO 8601 or Unix milliseconds).", valueName: "time"))
        var until: String?
        @Option(help: "Most entries listed.") var limit = 50
        @Flag(help: "Print JSON (an array of entry objects, as in an export).") var json = false

        func validate() throws {
            if let decision, JournalDecision(rawValue: decision) == nil {
                throw ValidationError(
                    "--decision must be one of \(JournalDecision.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            guard limit >= 0 else { throw ValidationError("--limit must not be negative") }
        }

        func run() throws {
            let filter = JournalFilter(
                origin: site, account: try account.map(JournalCommand.normalizedAccount), protocolName: protocolName,
                decision: decision, since: try since.map { try JournalCommand.time($0, "--since") },
                until: try until.map { try JournalCommand.time($0, "--until") })
            let entries: [JournalEntry]
            do {
                entries = try location.open().store.journalEntries(matching: filter, limit: limit)
            } catch {
                throw CLIFailure.storage(error)
            }
            if json {
                print(JSONValue.array(entries.map(\.json)).serialized([.sortedKeys, .pretty]))
                return
            }
            if entries.isEmpty { print("No journal entry matches.") }
            for entry in entries { print(JournalCommand.line(entry)) }
        }
    }

    // MARK: show

    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Show one entry: every field and what was shown.")
        @OptionGroup var location: Location
        @Argument(help: "The entry's sequence number.") var seq: UInt64
        @Flag(help: "Print JSON (the entry object, as in an export).") var json = false

        func run() throws {
            let found: JournalEntry?
            do {
                found = try location.open().store.journalEntry(seq: seq)
            } catch {
                throw CLIFailure.storage(error)
            }
            guard let entry = found else { throw CLIFailure("no journal entry \(seq)") }
            if json {
                print(entry.json.serialized([.sortedKeys, .pretty]))
                return
            }
            let c = entry.content
            let recomputed = JournalCodec.hash(
                JournalCodec.entryBytes(seq: entry.seq, time: entry.time, previousHash: entry.previousHash, content: c))
            let fields: [(String, String)] = [
                ("seq", String(entry.seq)), ("time", JournalCommand.isoTime(entry.time)), ("decision", c.decision),
                ("site", c.origin), ("app name", c.appName), ("protocol", c.protocolName), ("method", c.method),
                ("account", c.account), ("detail", c.detail), ("shown digest", Hex.encode(c.summaryDigest)),
                ("signed digest", Hex.encode(c.subjectDigest)), ("signature", Hex.encode(c.result)),
                ("previous hash", Hex.encode(entry.previousHash)),
                ("hash", Hex.encode(entry.hash) + (recomputed == entry.hash ? "" : "  (DOES NOT MATCH ITS FIELDS)")),
            ]
            for (label, value) in fields {
                print("\(label.padding(toLength: 14, withPad: " ", startingAt: 0)) \(value)")
            }
            guard let rows = c.shownRows else {
                print("shown: (stored bytes do not decode)")
                return
            }
            print("shown\(c.shownTruncated ? " (cut at the journal-shown-limit)" : ""):")
            for row in rows { print("  \(row.warning ? "! " : "")\(row.label): \(row.value)") }
        }
    }

    // MARK: verify

    struct Verify: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Recompute the whole chain and check every checkpoint; exit 1 when anything is wrong.",
            discussion: """
                Also checks the checkpoints kept elsewhere: the --journal-mirror directory of `sigil serve` \
                (--mirror, default $SIGIL_JOURNAL_MIRROR) and any file of exported checkpoints (--checkpoints). \
                Names the first bad sequence number and why: modified, missing, reordered, truncated after \
                checkpoint K, bad-checkpoint, key-replaced.
                """)
        @OptionGroup var location: Location
        @Option(
            help: ArgumentHelp(
                "A checkpoint mirror directory (or its file); default: $SIGIL_JOURNAL_MIRROR.", valueName: "path"))
        var mirror: String?
        @Option(
            name: .customLong("checkpoints"),
            help: ArgumentHelp("A JSON Lines file with checkpoints (an earlier export); repeatable.", valueName: "file")
        )
        var checkpointFiles: [String] = []
        @Flag(help: "Print the report as JSON.") var json = false

        func run() throws {
            let environment = ProcessInfo.processInfo.environment
            let mirrorPath = mirror ?? environment["SIGIL_JOURNAL_MIRROR"].flatMap { $0.isEmpty ? nil : $0 }
            let started = ContinuousClock.now
            let report: JournalVerification
            do {
                let (store, directory) = try location.open()
                var external: [JournalCheckpoint] = []
                for path in (mirrorPath.map { [$0] } ?? []) + checkpointFiles {
                    external += try JournalMirror.checkpoints(at: path)
                }
                let keyFileKey = try JournalKey.publicKey(inFileAt: directory.path + "/" + JournalKey.fileName)
                report = try store.verifyJournal(external: external, keyFileKey: keyFileKey)
            } catch {
                throw CLIFailure.storage(error)
            }
            let elapsed = ContinuousClock.now - started
            let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
            if json {
                print(
                    report.json.adding("seconds", .number(JSONNumber(String(format: "%.3f", seconds)) ?? 0))
                        .serialized([.sortedKeys, .pretty]))
            } else {
                let rate = seconds > 0 ? Int(Double(report.entries) / seconds) : 0
                let what =
                    "\(report.entries) entries (head \(report.headSeq)), \(report.checkpoints) checkpoints"
                    + (report.externalCheckpoints > 0 ? " + \(report.externalCheckpoints) kept elsewhere" : "")
                if let problem = report.firstProblem {
                    print("The journal does NOT verify: \(what).")
                    print("First problem: \(problem)")
                    for other in report.problems.dropFirst() { print("  also: \(other)") }
                } else {
                    print("The journal verifies: \(what).")
                    if let last = report.lastCheckpoint {
                        print(
                            "Last checkpoint: \(last.number) at entry \(last.seq), \(JournalCommand.isoTime(last.time))."
                        )
                    }
                    if let key = report.key { print("Checkpoint key: \(Hex.encode(key))") }
                }
                print(String(format: "Checked in %.3f s (%d entries/s).", seconds, rate))
            }
            if !report.isValid { throw ExitCode(1) }
        }
    }

    // MARK: export

    struct Export: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Write the journal as JSON Lines (entries, then checkpoints) for an independent verifier.",
            discussion: "docs/journal.md §5 specifies the lines; scripts/journal_verify.py checks them without Sigil.")
        @OptionGroup var location: Location
        @Option(
            name: [.short, .customLong("output")],
            help: ArgumentHelp("Write here instead of stdout.", valueName: "file"))
        var output: String?

        func run() throws {
            let handle: FileHandle
            if let output {
                guard
                    FileManager.default.createFile(
                        atPath: output, contents: nil, attributes: [.posixPermissions: 0o600])
                else { throw CLIFailure("cannot create \(output)") }
                guard let opened = FileHandle(forWritingAtPath: output) else {
                    throw CLIFailure("cannot open \(output)")
                }
                handle = opened
            } else {
                handle = FileHandle.standardOutput
            }
            var buffer: [UInt8] = []
            func flush(force: Bool) {
                guard force || buffer.count > 1 << 20 else { return }
                handle.write(Data(buffer))
                buffer.removeAll(keepingCapacity: true)
            }
            var count = 0
            do {
                let store = try location.open().store
                try store.forEachJournalEntry { entry in
                    buffer += entry.json.encoded(.sortedKeys)
                    buffer.append(0x0a)
                    count += 1
                    flush(force: false)
                }
                for checkpoint in try store.journalCheckpoints() {
                    buffer += checkpoint.json.encoded(.sortedKeys)
                    buffer.append(0x0a)
                }
            } catch {
                throw CLIFailure.storage(error)
            }
            flush(force: true)
            if let output {
                try handle.synchronize()
                try handle.close()
                note("Exported \(count) entries to \(output).")
            }
        }
    }

    // MARK: Helpers

    /// One line of `list`: seq, time, decision, site, method, account, detail.
    static func line(_ entry: JournalEntry) -> String {
        let c = entry.content
        var parts = ["#\(entry.seq)", isoTime(entry.time), c.decision, c.origin.isEmpty ? "-" : c.origin, c.method]
        if !c.account.isEmpty { parts.append(c.account) }
        if !c.detail.isEmpty { parts.append("(\(c.detail))") }
        return parts.joined(separator: "  ")
    }

    static func isoTime(_ milliseconds: Int64) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.string(from: Date(timeIntervalSince1970: Double(milliseconds) / 1000))
    }

    /// Unix milliseconds, or an ISO 8601 date-time (`2025-01-31T12:00:00Z`) or date (`2025-01-31`, UTC).
    static func time(_ text: String, _ option: String) throws -> Int64 {
        if let milliseconds = Int64(text) { return milliseconds }
        let formatter = ISO8601DateFormatter()
        for options: ISO8601DateFormatter.Options in [
            [.withInternetDateTime, .withFractionalSeconds], [.withInternetDateTime], [.withFullDate],
        ] {
            formatter.formatOptions = options
            if let date = formatter.date(from: text) { return Int64((date.timeIntervalSince1970 * 1000).rounded()) }
        }
        throw ValidationError("\(option): '\(text)' is neither Unix milliseconds nor an ISO 8601 date or time")
    }

    /// The journal's form of an account: SS58 with the generic prefix (any prefix or a 0x id accepted).
    static func normalizedAccount(_ text: String) throws -> String {
        if text.hasPrefix("0x") {
            guard let bytes = try? Hex.decode(text, prefix: .required) else {
                throw ValidationError("--account: '\(text)' is not an address")
            }
            guard bytes.count == 32 else { return Hex.encode(bytes) }
            return (try? SS58.encode(bytes, prefix: SS58.genericSubstrate)) ?? text
        }
        guard let decoded = try? SS58.decode(text), decoded.key.count == 32,
            let address = try? SS58.encode(decoded.key, prefix: SS58.genericSubstrate)
        else { throw ValidationError("--account: '\(text)' is not an address") }
        return address
    }
}
