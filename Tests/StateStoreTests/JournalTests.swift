import Foundation
import GRDB
import Journal
import Keystore
import Primitives
import SigilTesting
import SigningKeys
import Synchronization
import Testing

@testable import StateStore

/// The signing journal's storage, encoding and verification (docs/journal.md). The tamper tests
/// edit the database file as an attacker would (through SQLite, triggers dropped) and expect
/// `verifyJournal` to name what happened and where.
@Suite struct JournalTests {
    // MARK: Fixtures

    static let rows = [
        JournalShown.Row("site", "https://app.example"), JournalShown.Row("message", "hi ✓"),
        JournalShown.Row("note", "x", warning: true),
    ]

    /// The entry whose encoding and hash are pinned by ``theEncodingMatchesTheSpecification``.
    static func vectorContent() -> JournalEntry.Content {
        JournalEntry.Content(
            protocolName: "polkadot", method: "pub(bytes.sign)", origin: "https://app.example", appName: "Äpp",
            account: "5GrwvaEF5zXb26Fz9rcQpDWS57CtERHpNehXCPcNoHGKutQY", decision: "approved", detail: "",
            summaryDigest: JournalShown.digest(of: rows),
            subjectDigest: JournalCodec.hash(Array("<Bytes>hi</Bytes>".utf8)),
            result: Array(1...64), shownTruncated: false, shown: JournalShown.encode(rows))
    }

    /// A varied entry `i` (every field non-empty, so any byte of it can be changed).
    static func content(_ i: Int) -> JournalEntry.Content {
        let decisions: [JournalDecision] = [.approved, .rejected, .autoApproved, .expired, .cancelled, .refused]
        let shown = [
            JournalShown.Row("site", "https://site\(i % 3).example"), JournalShown.Row("call", "transfer \(i)"),
        ]
        return JournalEntry.Content(
            protocolName: "polkadot", method: i % 2 == 0 ? "pub(extrinsic.sign)" : "pub(bytes.sign)",
            origin: "https://site\(i % 3).example", appName: "App \(i % 3)", account: "5Account\(i % 4)",
            decision: decisions[i % decisions.count].rawValue, detail: "detail \(i)",
            summaryDigest: JournalShown.digest(of: shown), subjectDigest: JournalCodec.hash(Array("payload \(i)".utf8)),
            result: Array(repeating: UInt8(i & 0xff), count: 64), shownTruncated: false,
            shown: JournalShown.encode(shown))
    }

    /// Fixed test keys (seeds 7…7 and 9…9).
    static func testKey(_ byte: UInt8) throws -> JournalKey {
        JournalKey(pair: try Ed25519KeyPair(seed: [UInt8](repeating: byte, count: 32)))
    }
    static var key: JournalKey { get throws { try testKey(7) } }
    static var otherKey: JournalKey { get throws { try testKey(9) } }

    /// The key entry of `key`.
    static func keyEntry(_ key: JournalKey) -> JournalEntry.Content {
        JournalEntry.Content(
            protocolName: "sigil", method: "journal.key", origin: "", appName: "", account: Hex.encode(key.publicKey),
            decision: "key", detail: "checkpoint key", summaryDigest: [], subjectDigest: [], result: [],
            shownTruncated: false, shown: JournalShown.encode([]))
    }

    /// A journal file with the key entry and `count` entries, checkpointed after every `every`.
    static func journal(at path: String, count: Int, every: Int = 10) throws -> SQLiteStateStore {
        let key = try Self.key
        var clock: Int64 = 1_700_000_000_000
        let store = try SQLiteStateStore(path: path, now: { 1_700_000_000_000 })
        try store.appendJournal([keyEntry(key)], time: clock)
        var i = 0
        while i < count {
            let batch = min(every, count - i)
            clock += 1000
            try store.appendJournal((i..<i + batch).map(content), time: clock)
            try store.checkpointJournal(key: key, time: clock)
            i += batch
        }
        return store
    }

    /// Runs SQL on the file as an attacker would: the append-only triggers dropped first.
    static func tamper(_ path: String, _ body: (Database) throws -> Void) throws {
        let queue = try DatabaseQueue(path: path)
        try queue.write { db in
            for trigger in [
                "journal_entry_append_only_update", "journal_entry_append_only_delete",
                "journal_checkpoint_append_only_update", "journal_checkpoint_append_only_delete",
            ] {
                try db.execute(sql: "DROP TRIGGER IF EXISTS \(trigger)")
            }
            try body(db)
        }
        try queue.close()
    }

    // MARK: Encoding

    @Test func theEncodingMatchesTheSpecification() throws {
        // Hashes computed from docs/journal.md by scripts/journal_verify.py (Python hashlib), not by this code.
        #expect(
            Hex.encode(JournalShown.digest(of: Self.rows))
                == "0xf8aa78129576371c8e5f3901146ff97b24ba74ba2efb87223f386ddbbb3a72f9")
        let first = JournalEntry.sealed(Self.vectorContent(), after: nil, time: 1_700_000_000_123)
        let bytes = JournalCodec.entryBytes(
            seq: 1, time: first.time, previousHash: JournalCodec.zeroHash, content: first.content)
        #expect(bytes.count == 400)
        #expect(
            Hex.encode(bytes.prefix(60))
                == "0x53474a450100000000000000010000018bcfe5687b000000000000000000000000000000000000000000000000000000000000000000000008706f6c"
        )
        #expect(Hex.encode(first.hash) == "0xca6fefba6fb448f5b5bdbbdf81960f62745a7ada2982c522d5397e98cccb5784")
        var second = Self.vectorContent()
        second.decision = "rejected"
        second.result = []
        second.shownTruncated = true
        second.shown = JournalShown.encode(Array(Self.rows.prefix(1)))
        second.detail = "ü"
        let next = JournalEntry.sealed(second, after: (first.seq, first.hash), time: -5)
        #expect(next.seq == 2 && next.previousHash == first.hash)
        #expect(Hex.encode(next.hash) == "0xb027ba7ee69ac986f1beac557a5c291d4eb30dad5dafe24bd42e87447a77abeb")
        let checkpoint = JournalCodec.checkpointBytes(
            number: 1, seq: 2, head: next.hash, time: 1_700_000_001_000, key: [UInt8](repeating: 0xab, count: 32))
        #expect(
            Hex.encode(checkpoint)
                == "0x53474a430100000000000000010000000000000002b027ba7ee69ac986f1beac557a5c291d4eb30dad5dafe24bd42e87447a77abeb0000018bcfe56be8"
                + String(repeating: "ab", count: 32))
    }

    @Test func shownRowsRoundTripAndRefuseDamage() throws {
        let encoded = JournalShown.encode(Self.rows)
        #expect(try JournalShown.decode(encoded) == Self.rows)
        #expect(throws: JournalError.self) { try JournalShown.decode(Array(encoded.dropLast())) }
        #expect(throws: JournalError.self) { try JournalShown.decode(encoded + [0]) }
        var badFlag = encoded
        badFlag[badFlag.count - 1] = 2
        #expect(throws: JournalError.self) { try JournalShown.decode(badFlag) }
    }

    struct CapVector: Sendable, CustomTestStringConvertible {
        let limit: Int
        let rows: [(String, String)]
        let truncated: Bool
        var testDescription: String { "limit \(limit)" }
    }

    static let capVectors = [
        CapVector(
            limit: 1000, rows: [("site", "https://app.example"), ("message", "hi ✓"), ("note", "x")], truncated: false),
        CapVector(limit: 23, rows: [("site", "https://app.example")], truncated: true),
        CapVector(limit: 29, rows: [("site", "https://app.example")], truncated: true),
        CapVector(limit: 30, rows: [("site", "https://app.example"), ("message", "")], truncated: true),
        CapVector(limit: 32, rows: [("site", "https://app.example"), ("message", "hi")], truncated: true),
        CapVector(limit: 35, rows: [("site", "https://app.example"), ("message", "hi ")], truncated: true),
        CapVector(limit: 36, rows: [("site", "https://app.example"), ("message", "hi ✓")], truncated: true),
        CapVector(
            limit: 41, rows: [("site", "https://app.example"), ("message", "hi ✓"), ("note", "x")], truncated: false),
        CapVector(limit: 0, rows: [], truncated: true),
    ]

    @Test(arguments: capVectors)
    func theShownCapKeepsWholeCharactersAndSaysSo(_ vector: CapVector) {
        let (kept, truncated) = JournalShown.capped(Self.rows, limit: vector.limit)
        #expect(kept.map { [$0.label, $0.value] } == vector.rows.map { [$0.0, $0.1] })
        #expect(truncated == vector.truncated)
        #expect(kept.reduce(0) { $0 + $1.label.utf8.count + $1.value.utf8.count } <= vector.limit)
    }

    // MARK: Storage and the chain

    @Test func appendedEntriesChainAndVerify() throws {
        let store = try SQLiteStateStore.inMemory(now: { 42 })
        let entries = try store.appendJournal((0..<5).map(Self.content))
        #expect(entries.map(\.seq) == [1, 2, 3, 4, 5])
        #expect(entries[0].previousHash == JournalCodec.zeroHash)
        for (a, b) in zip(entries, entries.dropFirst()) { #expect(b.previousHash == a.hash) }
        let more = try store.appendJournal([Self.content(5)])
        #expect(more[0].seq == 6 && more[0].previousHash == entries[4].hash && more[0].time == 42)
        #expect(try store.journalHead()?.seq == 6)
        #expect(try store.journalEntry(seq: 3) == entries[2])
        let report = try store.verifyJournal()
        #expect(report.isValid && report.entries == 6 && report.headSeq == 6 && report.headHash == more[0].hash)
    }

    @Test func sigilsOwnCodeCannotEditTheJournal() throws {
        let store = try SQLiteStateStore.inMemory()
        try store.appendJournal([Self.keyEntry(try Self.key), Self.content(0)])
        try store.checkpointJournal(key: try Self.key)
        for sql in [
            "UPDATE journal_entry SET detail = 'x'", "DELETE FROM journal_entry",
            "UPDATE journal_checkpoint SET seq = 9", "DELETE FROM journal_checkpoint",
        ] {
            #expect(throws: (any Error).self) { try store.writer.write { try $0.execute(sql: sql) } }
        }
        #expect(try store.verifyJournal().isValid)
    }

    @Test func listingFiltersAndPagesNewestFirst() throws {
        let store = try SQLiteStateStore.inMemory(now: { 1000 })
        try store.appendJournal((0..<12).map(Self.content), time: 1000)
        try store.appendJournal((12..<24).map(Self.content), time: 2000)
        #expect(try store.journalEntries(limit: 3).map(\.seq) == [24, 23, 22])
        let site = try store.journalEntries(matching: JournalFilter(origin: "https://site1.example"), limit: 100)
        #expect(site.map(\.seq) == [23, 20, 17, 14, 11, 8, 5, 2])
        let rejected = try store.journalEntries(matching: JournalFilter(decision: "rejected"), limit: 100)
        #expect(rejected.allSatisfy { $0.content.decision == "rejected" } && rejected.count == 4)
        let account = try store.journalEntries(matching: JournalFilter(account: "5Account3"), limit: 100)
        #expect(account.map(\.seq) == [24, 20, 16, 12, 8, 4])
        #expect(try store.journalEntries(matching: JournalFilter(since: 2000), limit: 100).count == 12)
        #expect(try store.journalEntries(matching: JournalFilter(until: 2000), limit: 100).count == 12)
        #expect(try store.journalEntries(matching: JournalFilter(beforeSeq: 3), limit: 100).map(\.seq) == [2, 1])
        #expect(try store.journalEntries(matching: JournalFilter(protocolName: "icon"), limit: 100).isEmpty)
    }

    @Test func aCheckpointIsMadeOnlyWhenTheHeadMoved() throws {
        let store = try SQLiteStateStore.inMemory()
        #expect(try store.checkpointJournal(key: try Self.key) == nil)
        try store.appendJournal([Self.content(0)])
        let first = try #require(try store.checkpointJournal(key: try Self.key, time: 5))
        #expect(first.number == 1 && first.seq == 1 && first.signatureIsValid)
        #expect(try first.key == Self.key.publicKey)
        #expect(try store.checkpointJournal(key: try Self.key) == nil)
        try store.appendJournal([Self.content(1)])
        #expect(try store.checkpointJournal(key: try Self.key)?.number == 2)
        #expect(try store.journalCheckpoints().map(\.seq) == [1, 2])
        #expect(try JournalCheckpoint(json: first.json) == first)
    }

    @Test func concurrentAppendsAreGroupCommittedInOneChain() async throws {
        let store = try SQLiteStateStore.inMemory()
        let writer = JournalWriter(store: store)
        let seqs = try await withThrowingTaskGroup(of: UInt64.self) { group in
            for i in 0..<300 { group.addTask { try await writer.append(Self.content(i)).seq } }
            return try await group.reduce(into: [UInt64]()) { $0.append($1) }
        }
        #expect(seqs.sorted() == Array(1...300))
        #expect(try store.verifyJournal().isValid)
    }

    /// A full batch is committed at once even while a promise is open (window `.never`, so only
    /// the batch bound can end that wait): the first commit holds exactly `maxBatch` entries; the
    /// rest wait for the promise, and dropping it commits them.
    @Test(.timeLimit(.minutes(5))) func aFullBatchIsCommittedWithoutWaitingForPromises() async throws {
        let store = try Self.tickingStore()
        let writer = JournalWriter(store: store, gatherWindow: .never)
        var promise: JournalExpectation? = writer.expectAppend()
        let total = JournalWriter.maxBatch + 88
        let entries = try await withThrowingTaskGroup(of: JournalEntry.self) { group in
            for i in 0..<total { group.addTask { try await writer.append(Self.content(i)) } }
            var done: [JournalEntry] = []
            for try await entry in group {
                done.append(entry)
                if done.count == JournalWriter.maxBatch {
                    #expect(promise != nil)
                    promise = nil  // the remaining 88 now need no other entry
                }
            }
            return done
        }
        #expect(entries.map(\.seq).sorted() == Array(1...UInt64(total)))
        let first = entries.filter { $0.seq <= UInt64(JournalWriter.maxBatch) }
        #expect(Set(first.map(\.time)).count == 1, "the first batch is one commit")
        #expect(entries.filter { $0.seq > UInt64(JournalWriter.maxBatch) }.allSatisfy { $0.time != first[0].time })
        #expect(try store.verifyJournal().isValid)
    }

    /// A store whose clock ticks once per transaction: entries sharing a `time` shared a commit.
    static func tickingStore() throws -> SQLiteStateStore {
        let ticks = Mutex<Int64>(0)
        return try SQLiteStateStore.inMemory(now: { ticks.withLock { $0 += 1; return $0 } })
    }

    /// Gathering (docs/journal.md §7): a commit waits for promised entries, and only for them. The
    /// window is `.never`, so only an arrival or a dropped promise can end a wait (a hang fails). The
    /// limit only catches a hang: it counts from the test's start, and with the machine loaded the
    /// suite's synchronous tests held both cooperative threads for 77 s once, so one minute failed
    /// both of these tests in a green build (every hang guard in the suite is 5 minutes).
    /// An append whose INSERT fails (here a temporary trigger refuses one entry of the batch) rolls
    /// the whole transaction back: nothing of the batch is stored, and the next append chains on
    /// the old head as if nothing had happened.
    @Test func aFailedAppendStoresNothingAndTheNextOneChains() throws {
        let store = try Self.tickingStore()
        let first = try store.appendJournal([Self.content(0)])
        try store.write("refuse an entry") { db in
            try db.execute(
                sql: """
                    CREATE TEMP TRIGGER refuse_boom BEFORE INSERT ON journal_entry WHEN NEW.detail = 'boom'
                    BEGIN SELECT RAISE(ABORT, 'refused'); END
                    """)
        }
        var boom = Self.content(2)
        boom.detail = "boom"
        #expect(throws: StateStoreError.self) { try store.appendJournal([Self.content(1), boom]) }
        #expect(try store.journalCount() == 1)
        #expect(try store.journalHead()?.seq == first.first?.seq)
        let next = try store.appendJournal([Self.content(3)])
        #expect(next.first?.seq == 2 && next.first?.previousHash == first.first?.hash)
        #expect(try store.verifyJournal().isValid)
    }

    @Test(.timeLimit(.minutes(5))) func promisedEntriesShareOneCommit() async throws {
        let store = try Self.tickingStore()
        let writer = JournalWriter(store: store, gatherWindow: .never)
        let first = writer.expectAppend()
        let second = writer.expectAppend()
        let a = Task { try await writer.append(Self.content(0), fulfilling: first) }
        let b = Task { try await writer.append(Self.content(1), fulfilling: second) }
        let (ea, eb) = (try await a.value, try await b.value)
        #expect(ea.time == eb.time, "one transaction for both promised entries")
        #expect(Set([ea.seq, eb.seq]) == [1, 2])
        #expect(try store.verifyJournal().isValid)
    }

    @Test(.timeLimit(.minutes(5))) func aDroppedPromiseEndsTheWait() async throws {
        let store = try Self.tickingStore()
        let writer = JournalWriter(store: store, gatherWindow: .never)
        let kept = writer.expectAppend()
        var broken: JournalExpectation? = writer.expectAppend()
        let a = Task { try await writer.append(Self.content(0), fulfilling: kept) }
        #expect(broken != nil)
        broken = nil  // the request ended without an entry (its deinit ends the promise)
        let entry = try await a.value
        #expect(entry.seq == 1)
        // Without promises an entry is committed at once, alone.
        let lone = try await writer.append(Self.content(1))
        #expect(lone.seq == 2 && lone.time != entry.time)
    }

    @Test func anUntouchedJournalOf100000EntriesVerifies() throws {
        // Ten checkpoints; 20,000 entries in the fast tier (`scripts/test` sets SIGILTEST_TIER=fast;
        // the full tier and a plain `swift test` build all 100,000).
        let count = ProcessInfo.processInfo.environment["SIGILTEST_TIER"] == "fast" ? 20_000 : 100_000
        let tmp = TemporaryDirectory()
        defer { tmp.remove() }
        try FileManager.default.createDirectory(atPath: tmp.path, withIntermediateDirectories: true)
        let store = try Self.journal(at: tmp.path + "/state.sqlite", count: count, every: count / 10)
        let report = try store.verifyJournal(keyFileKey: try Self.key.publicKey)
        #expect(report.isValid, "\(report.problems)")
        let last = UInt64(count + 1)
        #expect(report.entries == last && report.headSeq == last && report.checkpoints == 10)
        #expect(report.lastCheckpoint?.seq == last)
        #expect(try report.key == Self.key.publicKey)
    }

    // MARK: Tampering

    /// Changes one byte of `column` of the entry with sequence number `seq`.
    static func changeOneByte(_ db: Database, column: String, seq: Int64) throws {
        let row = try #require(
            try Row.fetchOne(db, sql: "SELECT \(column) FROM journal_entry WHERE seq = ?", arguments: [seq]))
        let value: DatabaseValue = row[0]
        let changed: any DatabaseValueConvertible
        switch value.storage {
        case .int64(let n): changed = n ^ 0x100
        case .blob(let data):
            var bytes = [UInt8](data)
            if bytes.isEmpty { bytes = [1] } else { bytes[bytes.count / 2] ^= 0x01 }
            changed = Data(bytes)
        case .string(let text):
            var bytes = Array(text.utf8)
            bytes[bytes.count / 2] = bytes[bytes.count / 2] == 0x5a ? 0x59 : 0x5a  // an ASCII byte, still UTF-8
            changed = String(decoding: bytes, as: UTF8.self)
        default: throw StateStoreError(.invalidInput, "unexpected column type")
        }
        try db.execute(
            sql: "UPDATE journal_entry SET \(column) = ? WHERE seq = ?", arguments: [changed, seq])
    }

    static let entryColumns = [
        "seq", "time", "prev", "protocol", "method", "origin", "app_name", "account", "decision", "detail",
        "summary_digest", "subject_digest", "result", "shown_truncated", "shown", "hash",
    ]

    @Test(arguments: entryColumns, [2, 37, 51])
    func oneChangedByteOfAnyFieldIsNamedWithItsSequenceNumber(column: String, seq: Int64) throws {
        let tmp = TemporaryDirectory()
        defer { tmp.remove() }
        try FileManager.default.createDirectory(atPath: tmp.path, withIntermediateDirectories: true)
        let path = tmp.path + "/state.sqlite"
        _ = try Self.journal(at: path, count: 50)
        try Self.tamper(path) { try Self.changeOneByte($0, column: column, seq: seq) }
        let report = try SQLiteStateStore(path: path).verifyJournal()
        let first = try #require(report.firstProblem, "a changed \(column) went unnoticed")
        #expect(first.kind == .modified && first.seq == UInt64(seq), "\(report.problems)")
    }

    @Test func aRehashedEntryIsCaughtByItsSuccessorAndTheCheckpoint() throws {
        let tmp = TemporaryDirectory()
        defer { tmp.remove() }
        try FileManager.default.createDirectory(atPath: tmp.path, withIntermediateDirectories: true)
        let path = tmp.path + "/state.sqlite"
        let store = try Self.journal(at: path, count: 30)
        var entry = try #require(try store.journalEntry(seq: 15))
        entry.content.decision = "approved"
        entry.content.detail = "nothing to see"
        let rehashed = JournalEntry.sealed(entry.content, after: (14, entry.previousHash), time: entry.time)
        try Self.tamper(path) { db in
            try db.execute(
                sql: "UPDATE journal_entry SET decision = ?, detail = ?, hash = ? WHERE seq = 15",
                arguments: ["approved", "nothing to see", Data(rehashed.hash)])
        }
        let report = try SQLiteStateStore(path: path).verifyJournal()
        #expect(report.firstProblem?.kind == .modified && report.firstProblem?.seq == 15, "\(report.problems)")
    }

    @Test func aDeletedEntryIsMissing() throws {
        let tmp = TemporaryDirectory()
        defer { tmp.remove() }
        try FileManager.default.createDirectory(atPath: tmp.path, withIntermediateDirectories: true)
        let path = tmp.path + "/state.sqlite"
        _ = try Self.journal(at: path, count: 40)
        try Self.tamper(path) { try $0.execute(sql: "DELETE FROM journal_entry WHERE seq = 23") }
        let report = try SQLiteStateStore(path: path).verifyJournal()
        #expect(report.firstProblem?.kind == .missing && report.firstProblem?.seq == 23, "\(report.problems)")
        #expect(report.problems.count == 1)
    }

    @Test func swappedEntriesAreReordered() throws {
        let tmp = TemporaryDirectory()
        defer { tmp.remove() }
        try FileManager.default.createDirectory(atPath: tmp.path, withIntermediateDirectories: true)
        let path = tmp.path + "/state.sqlite"
        _ = try Self.journal(at: path, count: 40)
        try Self.tamper(path) { db in
            let p12 = try #require(try Int64.fetchOne(db, sql: "SELECT position FROM journal_entry WHERE seq = 12"))
            let p13 = try #require(try Int64.fetchOne(db, sql: "SELECT position FROM journal_entry WHERE seq = 13"))
            try db.execute(sql: "UPDATE journal_entry SET position = -1 WHERE seq = 12")
            try db.execute(sql: "UPDATE journal_entry SET position = ? WHERE seq = 13", arguments: [p12])
            try db.execute(sql: "UPDATE journal_entry SET position = ? WHERE seq = 12", arguments: [p13])
        }
        let report = try SQLiteStateStore(path: path).verifyJournal()
        #expect(report.firstProblem?.kind == .reordered && report.firstProblem?.seq == 12, "\(report.problems)")
        #expect(report.problems.count == 1)
    }

    @Test func aTruncatedTailIsNamedAfterItsLastCheckpoint() throws {
        let tmp = TemporaryDirectory()
        defer { tmp.remove() }
        try FileManager.default.createDirectory(atPath: tmp.path, withIntermediateDirectories: true)
        let path = tmp.path + "/state.sqlite"
        _ = try Self.journal(at: path, count: 40)  // checkpoints at 11, 21, 31, 41
        try Self.tamper(path) { try $0.execute(sql: "DELETE FROM journal_entry WHERE seq > 25") }
        let report = try SQLiteStateStore(path: path).verifyJournal()
        let first = try #require(report.firstProblem)
        #expect(first.kind == .truncated && first.seq == 26 && first.checkpoint == 3, "\(report.problems)")
        #expect(first.message.contains("after checkpoint 2"))
    }

    @Test func aRolledBackDatabaseIsCaughtByTheMirror() throws {
        let tmp = TemporaryDirectory()
        defer { tmp.remove() }
        let mirrorDirectory = tmp.path + "/mirror"
        try FileManager.default.createDirectory(atPath: mirrorDirectory, withIntermediateDirectories: true)
        let path = tmp.path + "/state.sqlite"
        let mirror = JournalMirror(directory: mirrorDirectory)
        var store: SQLiteStateStore? = try Self.journal(at: path, count: 20)
        for checkpoint in try store?.journalCheckpoints() ?? [] { try mirror.append(checkpoint) }
        try store?.writer.writeWithoutTransaction { db in
            try db.execute(sql: "VACUUM INTO ?", arguments: [tmp.path + "/backup.sqlite"])
        }
        try store?.appendJournal((20..<30).map(Self.content))
        if let checkpoint = try store?.checkpointJournal(key: try Self.key) { try mirror.append(checkpoint) }
        #expect(try store?.verifyJournal(external: JournalMirror.checkpoints(at: mirrorDirectory)).isValid == true)
        store = nil
        // The older copy replaces the database: consistent in itself, so only the mirror can tell.
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        try FileManager.default.copyItem(atPath: tmp.path + "/backup.sqlite", toPath: path)
        let rolledBack = try SQLiteStateStore(path: path)
        #expect(try rolledBack.verifyJournal().isValid)
        let report = try rolledBack.verifyJournal(external: JournalMirror.checkpoints(at: mirrorDirectory))
        let first = try #require(report.firstProblem)
        #expect(first.kind == .truncated && first.seq == 22 && first.checkpoint == 3, "\(report.problems)")
    }

    @Test func aReplacedKeyFileIsNamed() throws {
        let tmp = TemporaryDirectory()
        defer { tmp.remove() }
        try FileManager.default.createDirectory(atPath: tmp.path, withIntermediateDirectories: true)
        let store = try Self.journal(at: tmp.path + "/state.sqlite", count: 10)
        let report = try store.verifyJournal(keyFileKey: try Self.otherKey.publicKey)
        #expect(report.firstProblem?.kind == .keyReplaced && report.firstProblem?.seq == 1, "\(report.problems)")
    }

    @Test func checkpointsReSignedWithAnotherKeyAreNamed() throws {
        let tmp = TemporaryDirectory()
        defer { tmp.remove() }
        try FileManager.default.createDirectory(atPath: tmp.path, withIntermediateDirectories: true)
        let path = tmp.path + "/state.sqlite"
        let store = try Self.journal(at: path, count: 20)
        let resigned = try store.journalCheckpoints().map {
            try JournalCheckpoint.make(
                number: $0.number, seq: $0.seq, head: $0.head, time: $0.time, key: try Self.otherKey)
        }
        try Self.tamper(path) { db in
            for checkpoint in resigned {
                try db.execute(
                    sql: "UPDATE journal_checkpoint SET key = ?, signature = ? WHERE number = ?",
                    arguments: [
                        Data(checkpoint.key), Data(checkpoint.signature), Int64(bitPattern: checkpoint.number),
                    ])
            }
        }
        let report = try SQLiteStateStore(path: path).verifyJournal()
        let first = try #require(report.firstProblem)
        #expect(first.kind == .keyReplaced && first.checkpoint == 1 && first.seq == 11, "\(report.problems)")
    }

    @Test func aSecondKeyEntryIsAReplacedKey() throws {
        let tmp = TemporaryDirectory()
        defer { tmp.remove() }
        try FileManager.default.createDirectory(atPath: tmp.path, withIntermediateDirectories: true)
        let store = try Self.journal(at: tmp.path + "/state.sqlite", count: 10)
        try store.appendJournal([Self.keyEntry(try Self.otherKey)])
        let report = try store.verifyJournal()
        #expect(report.firstProblem?.kind == .keyReplaced && report.firstProblem?.seq == 12, "\(report.problems)")
    }

    @Test func aForgedCheckpointSignatureIsBad() throws {
        let tmp = TemporaryDirectory()
        defer { tmp.remove() }
        try FileManager.default.createDirectory(atPath: tmp.path, withIntermediateDirectories: true)
        let path = tmp.path + "/state.sqlite"
        _ = try Self.journal(at: path, count: 30)
        try Self.tamper(path) { db in
            try db.execute(
                sql:
                    "UPDATE journal_checkpoint SET seq = 20, head = (SELECT hash FROM journal_entry WHERE seq = 20) WHERE number = 2"
            )
        }
        let report = try SQLiteStateStore(path: path).verifyJournal()
        #expect(
            report.firstProblem?.kind == .badCheckpoint && report.firstProblem?.checkpoint == 2, "\(report.problems)")
    }

    // MARK: Key file and mirror

    @Test func theKeyFileIsCreatedOnceEncryptedAndItsPublicKeyReadableWithoutThePassword() throws {
        let tmp = TemporaryDirectory()
        defer { tmp.remove() }
        try FileManager.default.createDirectory(atPath: tmp.path, withIntermediateDirectories: true)
        let path = tmp.path + "/" + JournalKey.fileName
        #expect(try JournalKey.publicKey(inFileAt: path) == nil)
        let (key, created) = try JournalKey.openOrCreate(at: path, password: Passphrase("pw"))
        #expect(created)
        #expect(try POSIX.status(path).map { $0.st_mode & 0o777 } == 0o600)
        let (again, createdAgain) = try JournalKey.openOrCreate(at: path, password: Passphrase("pw"))
        #expect(!createdAgain && again.publicKey == key.publicKey)
        #expect(try JournalKey.publicKey(inFileAt: path) == key.publicKey)
        #expect(throws: JournalError(.decryptFailed, "")) {
            try JournalKey.openOrCreate(at: path, password: Passphrase("wrong"))
        }
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.contains("xsalsa20-poly1305") && text.contains("ed25519"))
    }

    @Test func theMirrorKeepsEveryCheckpointAndSkipsATornLastLine() throws {
        let tmp = TemporaryDirectory()
        defer { tmp.remove() }
        try FileManager.default.createDirectory(atPath: tmp.path, withIntermediateDirectories: true)
        let store = try SQLiteStateStore.inMemory()
        try store.appendJournal([Self.keyEntry(try Self.key)])
        let mirror = JournalMirror(directory: tmp.path)
        for i in 0..<3 {
            try store.appendJournal([Self.content(i)])
            if let checkpoint = try store.checkpointJournal(key: try Self.key) { try mirror.append(checkpoint) }
        }
        #expect(try JournalMirror.checkpoints(at: tmp.path) == store.journalCheckpoints())
        let handle = try #require(FileHandle(forWritingAtPath: mirror.path))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data("{\"type\":\"checkpoint\",\"num".utf8))
        try handle.close()
        #expect(try JournalMirror.checkpoints(at: mirror.path).count == 3)
        #expect(try store.verifyJournal(external: JournalMirror.checkpoints(at: tmp.path)).isValid)
    }
}
