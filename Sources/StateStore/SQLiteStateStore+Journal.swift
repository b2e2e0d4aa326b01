import Foundation
import GRDB
import GRDBSQLite
import Journal
import Keystore
import Primitives

/// SQLite copies a value bound with this destructor (`SQLITE_TRANSIENT`, a C macro Swift does not import).
private let transientBinding = unsafeBitCast(OpaquePointer(bitPattern: -1), to: sqlite3_destructor_type.self)

extension SQLiteStateStore {
    static let journalColumns =
        "seq, time, prev, protocol, method, origin, app_name, account, decision, detail, summary_digest, "
        + "subject_digest, result, shown_truncated, shown, hash"

    // MARK: Appending

    /// Appends entries in one transaction (one sync of the WAL for all of them), chained after the
    /// stored head, all with the time `time` (default: the store's clock).
    /// - Returns: the entries as stored, once committed (on disk with `Durability.commit`; with
    ///   `.periodic` in the OS's hands, on disk at most `periodicSyncInterval` later).
    /// - Throws: `.database`; nothing is appended then.
    @discardableResult
    package func appendJournal(_ contents: [JournalEntry.Content], time: Int64? = nil) throws(StateStoreError)
        -> [JournalEntry]
    {
        guard !contents.isEmpty else { return [] }
        let time = time ?? now()
        return try appendTransaction { db in
            var previous = try Self.journalHead(db)
            var entries: [JournalEntry] = []
            entries.reserveCapacity(contents.count)
            let statement = try db.cachedStatement(
                sql:
                    "INSERT INTO journal_entry (\(Self.journalColumns)) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
            )
            for content in contents {
                let entry = JournalEntry.sealed(content, after: previous, time: time)
                try Self.insert(entry, with: statement, db)
                previous = (entry.seq, entry.hash)
                entries.append(entry)
            }
            return entries
        }
    }

    /// `body` in one `BEGIN IMMEDIATE … COMMIT` whose two statements are prepared once (GRDB's
    /// `write` prepares its `BEGIN` and `COMMIT` again for every transaction: on the journal's hot
    /// path that cost as much as reading the head). Rolled back when `body` or the commit throws.
    private func appendTransaction<T>(_ body: (Database) throws -> T) throws(StateStoreError) -> T {
        do {
            return try writer.writeWithoutTransaction { db in
                try db.cachedStatement(sql: "BEGIN IMMEDIATE TRANSACTION").execute()
                do {
                    let result = try body(db)
                    try db.cachedStatement(sql: "COMMIT TRANSACTION").execute()
                    periodicSync?.committed()
                    return result
                } catch {
                    if db.isInsideTransaction { try? db.execute(sql: "ROLLBACK TRANSACTION") }
                    throw error
                }
            }
        } catch {
            throw Self.wrap(error, "append to the journal")
        }
    }

    /// Inserts one entry with the cached INSERT, binding each column straight from the entry's
    /// strings and arrays (the append is the journal's hot path: GRDB's `StatementArguments` would
    /// first copy every blob into a `Data` and box every value). Binds what GRDB bound: an empty
    /// array as a zero-length blob (never NULL: the columns are NOT NULL), text with its UTF-8 length.
    private static func insert(_ entry: JournalEntry, with statement: Statement, _ db: Database) throws {
        let handle = statement.sqliteStatement
        sqlite3_reset(handle)
        let c = entry.content
        var codes: [Int32] = []
        codes.reserveCapacity(16)
        func int(_ index: Int32, _ value: Int64) { codes.append(sqlite3_bind_int64(handle, index, value)) }
        func text(_ index: Int32, _ value: String) {
            var value = value
            codes.append(
                value.withUTF8 { utf8 in
                    guard let base = utf8.baseAddress, !utf8.isEmpty else {
                        return sqlite3_bind_text(handle, index, "", 0, transientBinding)
                    }
                    return base.withMemoryRebound(to: CChar.self, capacity: utf8.count) {
                        sqlite3_bind_text(handle, index, $0, Int32(clamping: utf8.count), transientBinding)
                    }
                })
        }
        func blob(_ index: Int32, _ value: [UInt8]) {
            codes.append(
                value.withUnsafeBytes { bytes in
                    guard let base = bytes.baseAddress, !bytes.isEmpty else {
                        return sqlite3_bind_zeroblob(handle, index, 0)
                    }
                    return sqlite3_bind_blob(handle, index, base, Int32(clamping: bytes.count), transientBinding)
                })
        }
        int(1, Int64(bitPattern: entry.seq))
        int(2, entry.time)
        blob(3, entry.previousHash)
        text(4, c.protocolName)
        text(5, c.method)
        text(6, c.origin)
        text(7, c.appName)
        text(8, c.account)
        text(9, c.decision)
        text(10, c.detail)
        blob(11, c.summaryDigest)
        blob(12, c.subjectDigest)
        blob(13, c.result)
        int(14, c.shownTruncated ? 1 : 0)
        blob(15, c.shown)
        blob(16, entry.hash)
        var code = codes.first { $0 != SQLITE_OK } ?? sqlite3_step(handle)
        if code == SQLITE_ROW { code = SQLITE_MISUSE }
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
        guard code == SQLITE_DONE else {
            throw DatabaseError(
                resultCode: ResultCode(rawValue: code),
                message: db.sqliteConnection.flatMap { sqlite3_errmsg($0) }.map { String(cString: $0) },
                sql: statement.sql)
        }
    }

    /// Read straight from the cached statement (once per append transaction; GRDB's `Row` would
    /// copy the row and its blob through `Data` first).
    private static func journalHead(_ db: Database) throws -> (seq: UInt64, hash: [UInt8])? {
        let statement = try db.cachedStatement(
            sql: "SELECT seq, hash FROM journal_entry ORDER BY position DESC LIMIT 1")
        let handle = statement.sqliteStatement
        sqlite3_reset(handle)
        defer { sqlite3_reset(handle) }
        switch sqlite3_step(handle) {
        case SQLITE_DONE: return nil
        case SQLITE_ROW:
            let seq = UInt64(bitPattern: sqlite3_column_int64(handle, 0))
            return (seq, [UInt8](Self.columnMemory(handle, 1)))
        case let code:
            throw DatabaseError(
                resultCode: ResultCode(rawValue: code),
                message: db.sqliteConnection.flatMap { sqlite3_errmsg($0) }.map { String(cString: $0) },
                sql: statement.sql)
        }
    }

    /// The last stored entry's sequence number and hash, or nil for an empty journal.
    package func journalHead() throws(StateStoreError) -> (seq: UInt64, hash: [UInt8])? {
        try read("read the journal head") { db in try Self.journalHead(db) }
    }

    // MARK: Reading

    /// The entry with sequence number `seq` (the first stored, should there be several), or nil.
    package func journalEntry(seq: UInt64) throws(StateStoreError) -> JournalEntry? {
        try read("read a journal entry") { db in
            try Row.fetchOne(
                db, sql: "SELECT \(Self.journalColumns) FROM journal_entry WHERE seq = ? ORDER BY position LIMIT 1",
                arguments: [Int64(bitPattern: seq)]
            ).map(Self.entry(from:))
        }
    }

    /// Entries matching `filter`, newest first, at most `limit`.
    package func journalEntries(matching filter: JournalFilter = JournalFilter(), limit: Int = 100)
        throws(StateStoreError) -> [JournalEntry]
    {
        var conditions: [String] = []
        var arguments = StatementArguments()
        func add(_ sql: String, _ value: (any DatabaseValueConvertible)?) {
            guard let value else { return }
            conditions.append(sql)
            arguments += [value]
        }
        add("origin = ?", filter.origin)
        add("account = ?", filter.account)
        add("protocol = ?", filter.protocolName)
        add("decision = ?", filter.decision)
        add("time >= ?", filter.since)
        add("time < ?", filter.until)
        add("seq < ?", filter.beforeSeq.map { Int64(bitPattern: $0) })
        let clause = conditions.isEmpty ? "" : " WHERE " + conditions.joined(separator: " AND ")
        arguments += [max(0, limit)]
        let arguments2 = arguments
        return try read("list the journal") { db in
            try Row.fetchAll(
                db,
                sql: "SELECT \(Self.journalColumns) FROM journal_entry\(clause) ORDER BY position DESC LIMIT ?",
                arguments: arguments2
            ).map(Self.entry(from:))
        }
    }

    /// Calls `body` with every entry in storage order (export), reading in one transaction.
    package func forEachJournalEntry(_ body: (JournalEntry) throws -> Void) throws(StateStoreError) {
        try read("read the journal") { db in
            let rows = try Row.fetchCursor(
                db, sql: "SELECT \(Self.journalColumns) FROM journal_entry ORDER BY position")
            while let row = try rows.next() { try body(Self.entry(from: row)) }
        }
    }

    /// The number of stored entries.
    package func journalCount() throws(StateStoreError) -> Int {
        try read("count the journal") { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM journal_entry") ?? 0 }
    }

    private static func entry(from row: Row) -> JournalEntry {
        func bytes(_ i: Int) -> [UInt8] { (row[i] as Data?).map { [UInt8]($0) } ?? [] }
        func text(_ i: Int) -> String { row[i] as String? ?? "" }
        let seq: Int64 = row[0]
        let content = JournalEntry.Content(
            protocolName: text(3), method: text(4), origin: text(5), appName: text(6), account: text(7),
            decision: text(8), detail: text(9), summaryDigest: bytes(10), subjectDigest: bytes(11), result: bytes(12),
            shownTruncated: (row[13] as Int64? ?? 0) != 0, shown: bytes(14))
        return JournalEntry(
            seq: UInt64(bitPattern: seq), time: row[1], previousHash: bytes(2), content: content, hash: bytes(15))
    }

    // MARK: Checkpoints

    /// Signs the current head with `key` and stores the checkpoint, in one transaction; nothing
    /// when the journal is empty or the last checkpoint already records this head.
    /// - Returns: the new checkpoint, or nil.
    package func checkpointJournal(key: JournalKey, time: Int64? = nil) throws(StateStoreError) -> JournalCheckpoint? {
        let time = time ?? now()
        return try write("checkpoint the journal") { db in
            guard let head = try Self.journalHead(db) else { return nil }
            let last = try Row.fetchOne(
                db, sql: "SELECT number, seq, head FROM journal_checkpoint ORDER BY number DESC LIMIT 1")
            let lastNumber = (last?[0] as Int64?).map { UInt64(bitPattern: $0) } ?? 0
            if let last, (last[1] as Int64) == Int64(bitPattern: head.seq), [UInt8](last[2] as Data) == head.hash {
                return nil
            }
            let checkpoint = try JournalCheckpoint.make(
                number: lastNumber + 1, seq: head.seq, head: head.hash, time: time, key: key)
            try db.execute(
                sql:
                    "INSERT INTO journal_checkpoint (number, seq, head, time, key, signature) VALUES (?, ?, ?, ?, ?, ?)",
                arguments: [
                    Int64(bitPattern: checkpoint.number), Int64(bitPattern: checkpoint.seq), Data(checkpoint.head),
                    checkpoint.time, Data(checkpoint.key), Data(checkpoint.signature),
                ])
            return checkpoint
        }
    }

    /// Every stored checkpoint, in storage order.
    package func journalCheckpoints() throws(StateStoreError) -> [JournalCheckpoint] {
        try read("read journal checkpoints") { db in
            try Row.fetchAll(
                db, sql: "SELECT number, seq, head, time, key, signature FROM journal_checkpoint ORDER BY rowid"
            )
            .map { row in
                JournalCheckpoint(
                    number: UInt64(bitPattern: row[0]), seq: UInt64(bitPattern: row[1]),
                    head: [UInt8](row[2] as Data? ?? Data()), time: row[3], key: [UInt8](row[4] as Data? ?? Data()),
                    signature: [UInt8](row[5] as Data? ?? Data()))
            }
        }
    }

    /// The journal's key (its first key entry's public key), or nil when it has none.
    package func journalKey() throws(StateStoreError) -> [UInt8]? {
        try read("read the journal key") { db in
            guard
                let account = try String.fetchOne(
                    db,
                    sql: "SELECT account FROM journal_entry WHERE protocol = 'sigil' AND decision = 'key' "
                        + "ORDER BY position LIMIT 1")
            else { return nil }
            return try? Hex.decode(account, prefix: .required, byteCount: 32)
        }
    }

    // MARK: Verification

    /// Recomputes the whole chain in one read transaction and checks every checkpoint (the stored
    /// ones and `external`, e.g. the mirror's) and the key file's key (docs/journal.md §6).
    package func verifyJournal(external: [JournalCheckpoint] = [], keyFileKey: [UInt8]? = nil)
        throws(StateStoreError) -> JournalVerification
    {
        let checkpoints = try journalCheckpoints()
        return try read("verify the journal") { db in
            // Map the file instead of copying every page through read(2) (a long sequential scan).
            try db.execute(sql: "PRAGMA mmap_size = 4294967296")
            var verifier = JournalVerifier(checkpoints: checkpoints, external: external, keyFileKey: keyFileKey)
            let statement = try db.makeStatement(
                sql: "SELECT \(Self.journalColumns) FROM journal_entry ORDER BY position")
            let handle = statement.sqliteStatement
            var buffer: [UInt8] = []
            buffer.reserveCapacity(4096)
            var computed = [UInt8](repeating: 0, count: 32)
            var shown: [UInt8] = []
            var shownDigest = [UInt8](repeating: 0, count: 32)
            let rows = try Row.fetchCursor(statement)
            while try rows.next() != nil {
                buffer.removeAll(keepingCapacity: true)
                let seq = UInt64(bitPattern: sqlite3_column_int64(handle, 0))
                let previous = Self.columnMemory(handle, 2)
                buffer += JournalCodec.entryMagic
                buffer.append(JournalCodec.version)
                JournalCodec.appendU64(seq, to: &buffer)
                JournalCodec.appendU64(UInt64(bitPattern: sqlite3_column_int64(handle, 1)), to: &buffer)
                buffer.append(contentsOf: previous)
                for column: Int32 in 3...12 {
                    JournalCodec.appendBytes(Self.columnMemory(handle, column), to: &buffer)
                }
                buffer.append(sqlite3_column_int64(handle, 13) != 0 ? 1 : 0)
                let shownBytes = Self.columnMemory(handle, 14)
                JournalCodec.appendBytes(shownBytes, to: &buffer)
                buffer.withUnsafeBytes { JournalCodec.hash($0, into: &computed) }
                // Complete shown rows must give the shown digest: BLAKE2b-256("SGJS" ‖ 1 ‖ shown).
                var shownMatches = true
                let summaryDigest = Self.columnMemory(handle, 10)
                if sqlite3_column_int64(handle, 13) == 0, summaryDigest.count > 0 {
                    shown.removeAll(keepingCapacity: true)
                    shown += Self.shownDigestPrefix
                    shown.append(contentsOf: shownBytes)
                    shown.withUnsafeBytes { JournalCodec.hash($0, into: &shownDigest) }
                    shownMatches = shownDigest.withUnsafeBytes { JournalVerifier.same($0, summaryDigest) }
                }
                var introduced: [UInt8]?
                if Self.columnEquals(handle, 3, "sigil"), Self.columnEquals(handle, 8, JournalDecision.key.rawValue) {
                    let account = String(decoding: Self.columnMemory(handle, 7), as: UTF8.self)
                    introduced = (try? Hex.decode(account, prefix: .required, byteCount: 32)) ?? []
                }
                computed.withUnsafeBytes { computedHash in
                    verifier.feed(
                        seq: seq, previousHash: previous, computedHash: computedHash,
                        storedHash: Self.columnMemory(handle, 15), introducedKey: introduced,
                        shownMatchesDigest: shownMatches)
                }
            }
            return verifier.finish()
        }
    }

    private static let shownDigestPrefix = Array("SGJS".utf8) + [JournalCodec.version]

    /// A column's bytes (blob or text) as stored, in SQLite's memory: valid until the statement
    /// steps again. `sqlite3_column_blob` gives a TEXT value's UTF-8 bytes; the length is read after it.
    private static func columnMemory(_ handle: OpaquePointer, _ index: Int32) -> UnsafeRawBufferPointer {
        let pointer = sqlite3_column_blob(handle, index)
        let count = Int(sqlite3_column_bytes(handle, index))
        guard count > 0, let pointer else { return UnsafeRawBufferPointer(start: nil, count: 0) }
        return UnsafeRawBufferPointer(start: pointer, count: count)
    }

    private static func columnEquals(_ handle: OpaquePointer, _ index: Int32, _ text: String) -> Bool {
        let pointer = sqlite3_column_blob(handle, index)
        let count = Int(sqlite3_column_bytes(handle, index))
        guard count == text.utf8.count, let pointer else { return count == 0 && text.isEmpty }
        return UnsafeRawBufferPointer(start: pointer, count: count).elementsEqual(text.utf8)
    }
}
