import Foundation
import GRDB
import GRDBSQLite
import Journal
import Keystore
import Primitives

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `StateStore` on one SQLite file through GRDB: WAL journal, `synchronous=FULL` (or NORMAL, see
/// ``Durability``), foreign keys on, schema by `DatabaseMigrator` (see `SQLiteStateStore+Migrations.swift`).
///
/// Durability: each method is one transaction; once it returns, the change survives a SIGKILL, and
/// with ``Durability/commit`` (the default) a power cut too (FULL syncs the WAL on commit). Several processes may open the same file: SQLite's locks
/// serialise writers, and a writer waits up to `busyTimeout` before failing with `.database`.
/// The database file is created with mode 0600 before SQLite opens it, so its `-wal` and `-shm`
/// files get 0600 too. Opening takes `<path>.migration-lock` (flock) while migrating, so several
/// processes may open a new database at once.
package final class SQLiteStateStore: StateStore {
    /// Longest origin, address, setting key, and setting value accepted.
    package static let maxOriginLength = 2048
    package static let maxAddressLength = 128
    package static let maxSettingKeyLength = 256
    package static let maxSettingValueLength = 1 << 20

    let writer: any DatabaseWriter
    /// The clock of stored times: milliseconds since 1970.
    package let now: @Sendable () -> Int64
    /// When a committed change is on disk.
    package let durability: Durability
    /// With `.periodic`: syncs the WAL at most ``periodicSyncInterval`` after every commit.
    let periodicSync: PeriodicSync?
    /// The longest a commit of a `.periodic` store stays unsynced.
    package static let periodicSyncInterval = DispatchTimeInterval.milliseconds(100)

    /// When a commit is on disk (docs/journal.md §7, "What each guarantee needs").
    package enum Durability: String, Sendable, CaseIterable {
        /// Every commit is synced to disk before it returns (`synchronous=FULL`): a committed change
        /// survives a crash of the process, of the operating system and a power cut.
        case commit
        /// A commit reaches the operating system before it returns (`synchronous=NORMAL` in WAL
        /// mode: its pages are written to the WAL, not synced), so it survives a crash of the
        /// process; every commit, of any kind, is synced at most ``periodicSyncInterval`` after it
        /// (``PeriodicSync``), and ``syncToDisk()`` syncs at once. A power cut or an OS crash can
        /// lose the commits of that window, never corrupt the database or the chain (SQLite's WAL).
        case periodic
    }

    /// Opens (creating and migrating if needed) the database at `path`.
    /// - Parameters:
    ///   - busyTimeout: how long a write waits for another process's write lock.
    ///   - now: the clock for `authorizedAt`/`updatedAt`, milliseconds since 1970 (tests inject one).
    /// - Throws: `.database` when SQLite cannot open or migrate the file.
    package init(
        path: String, busyTimeout: Duration = .seconds(10), durability: Durability = .commit,
        syncInterval: DispatchTimeInterval = SQLiteStateStore.periodicSyncInterval,
        now: @escaping @Sendable () -> Int64 = { Int64(Date().timeIntervalSince1970 * 1000) }
    ) throws(StateStoreError) {
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw StateStoreError(POSIX.error("open", path)) }
        _ = close(fd)
        self.now = now
        self.durability = durability
        // GRDB reads the applied migrations outside the migration's transaction, so two processes
        // opening a new database at once could both run `v1-initial`; a lock file serialises them.
        let migrationLock: DirectoryLock
        do {
            migrationLock = try DirectoryLock.acquire(path + ".migration-lock", waitingUpTo: busyTimeout)
        } catch {
            throw StateStoreError(error)
        }
        defer { migrationLock.unlock() }
        do {
            let pool = try DatabasePool(path: path, configuration: Self.configuration(busyTimeout: busyTimeout))
            // GRDB's pool sets `synchronous = NORMAL` on its writer after `prepareDatabase` ran (WAL
            // setup): a commit would then not be synced, and a power cut could lose acknowledged
            // changes and journal entries. FULL again, on the one connection that writes, unless
            // periodic syncs were asked for.
            let level = durability == .commit ? "FULL" : "NORMAL"
            // The WAL's name as SQLite resolved it (a symlinked database's WAL is beside its target).
            let wal = try pool.writeWithoutTransaction { db -> String? in
                try db.execute(sql: "PRAGMA synchronous = \(level)")
                guard let name = sqlite3_db_filename(db.sqliteConnection, "main"),
                    let wal = sqlite3_filename_wal(name)
                else { return nil }
                return String(cString: wal)
            }
            if durability == .periodic {
                guard let wal, !wal.isEmpty else {
                    throw StateStoreError(.database, "open \(path): SQLite names no WAL file for periodic syncs")
                }
                periodicSync = PeriodicSync(walPath: wal, interval: syncInterval)
            } else {
                periodicSync = nil
            }
            writer = pool
            try Self.migrator.migrate(writer)
        } catch {
            throw Self.wrap(error, "open \(path)")
        }
    }

    /// An in-memory database with the same schema (tests, and `--dev` runs that keep nothing).
    package static func inMemory(
        now: @escaping @Sendable () -> Int64 = { Int64(Date().timeIntervalSince1970 * 1000) }
    ) throws(StateStoreError) -> SQLiteStateStore {
        do {
            let queue = try DatabaseQueue(configuration: configuration(busyTimeout: .seconds(1)))
            try migrator.migrate(queue)
            return SQLiteStateStore(writer: queue, now: now)
        } catch {
            throw wrap(error, "open in-memory database")
        }
    }

    private init(writer: any DatabaseWriter, now: @escaping @Sendable () -> Int64) {
        self.writer = writer
        self.now = now
        durability = .commit
        periodicSync = nil
    }

    /// Syncs the WAL file to disk now: every commit made before the call is then durable (with
    /// ``Durability/periodic``; with `.commit` each commit already was, and this does nothing).
    /// - Throws: `.fileSystem` or `.diskFull` naming the file when it cannot be opened or synced.
    package func syncToDisk() throws(StateStoreError) {
        guard let periodicSync else { return }
        let code = periodicSync.syncNow()
        guard code == 0 else { throw StateStoreError(POSIX.error("fdatasync", periodicSync.walPath, code)) }
    }

    /// With `.periodic`: how many WAL syncs ran and failed (a failure is retried; tests and diagnostics).
    package var periodicSyncCounts: (syncs: Int, failures: Int) { periodicSync?.counts ?? (0, 0) }

    /// The last failed periodic sync, as the error `syncToDisk()` would have thrown, or nil.
    package var periodicSyncFailure: StateStoreError? {
        guard let periodicSync, periodicSync.lastError != 0 else { return nil }
        return StateStoreError(POSIX.error("fdatasync", periodicSync.walPath, periodicSync.lastError))
    }

    private static func configuration(busyTimeout: Duration) -> Configuration {
        var config = Configuration()
        config.foreignKeysEnabled = true
        let seconds = Double(busyTimeout.components.seconds) + Double(busyTimeout.components.attoseconds) / 1e18
        config.busyMode = .timeout(seconds)
        config.prepareDatabase { db in
            try db.execute(sql: "PRAGMA synchronous = FULL")
        }
        return config
    }

    /// Any error of a state store operation as the module's: its own as they are, the keystore's and
    /// the journal's under the same code name, SQLite's as `diskFull`, `databaseDamaged` or `database`
    /// (never the SQL or its arguments), anything else as `database` naming its type.
    static func wrap(_ error: any Error, _ context: String) -> StateStoreError {
        if let error = error as? StateStoreError { return error }
        if let error = error as? KeystoreError { return StateStoreError(error) }
        if let error = error as? JournalError { return StateStoreError(error) }
        if let error = error as? DatabaseError {
            // DatabaseError.description may include SQL and arguments; keep only the result code and message.
            let sqlite = "SQLite \(error.resultCode): \(error.message ?? "")"
            switch error.resultCode {
            case .SQLITE_FULL:
                return StateStoreError(
                    .diskFull,
                    "\(context): the disk holding the data directory is full (\(sqlite)); nothing of this change "
                        + "was stored, everything committed before is intact: free space and retry")
            case .SQLITE_CORRUPT, .SQLITE_NOTADB:
                return StateStoreError(
                    .databaseDamaged,
                    "\(context): the state database is damaged (\(sqlite)). Accounts are separate files and are "
                        + "not affected. `sigil state reset` keeps the damaged file beside it and starts an empty "
                        + "state: connected sites, stored metadata and the journal start over (docs/deployment.md)")
            default:
                return StateStoreError(.database, "\(context): \(sqlite)")
            }
        }
        return StateStoreError(.database, "\(context): \(type(of: error))")
    }

    func write<T>(_ context: String, _ body: (Database) throws -> T) throws(StateStoreError) -> T {
        do {
            let result = try writer.write(body)
            periodicSync?.committed()
            return result
        } catch {
            throw Self.wrap(error, context)
        }
    }

    func read<T>(_ context: String, _ body: (Database) throws -> T) throws(StateStoreError) -> T {
        do {
            return try writer.read(body)
        } catch {
            throw Self.wrap(error, context)
        }
    }

    /// One transaction of this store, built once and run either synchronously (the command line) or
    /// from async code through GRDB's async access (``perform(_:)``): the body is the same for both,
    /// so the two faces of ``StateStore`` cannot drift apart.
    struct Transaction<T: Sendable>: Sendable {
        /// What it does, for the error ("revoke: SQLite …").
        let context: String
        /// A write transaction (GRDB's writer), else a read on a reader connection.
        let writes: Bool
        let body: @Sendable (Database) throws -> T
    }

    func perform<T>(_ transaction: Transaction<T>) throws(StateStoreError) -> T {
        transaction.writes
            ? try write(transaction.context, transaction.body) : try read(transaction.context, transaction.body)
    }

    /// Runs `transaction` on GRDB's dispatch queues and suspends meanwhile (never blocks a concurrency
    /// thread). It runs to its end even when the calling task is cancelled (GRDB would interrupt it):
    /// a grant or a revocation a person approved must not be dropped because the dapp's HTTP client
    /// went away meanwhile. So it runs in a task of its own, which inherits no cancellation.
    func perform<T>(_ transaction: Transaction<T>) async throws(StateStoreError) -> T {
        let writer = writer
        let periodicSync = periodicSync
        let result = await Task {
            transaction.writes
                ? try await writer.write(transaction.body) : try await writer.read(transaction.body)
        }.result
        switch result {
        case .success(let value):
            if transaction.writes { periodicSync?.committed() }
            return value
        case .failure(let error):
            throw Self.wrap(error, transaction.context)
        }
    }

    /// A read that runs exactly one SQL statement, without the explicit `BEGIN DEFERRED … COMMIT`
    /// (and read-only toggling) `read` wraps around its body: a lone statement already runs in its
    /// own implicit read transaction in SQLite (autocommit), so it sees one consistent state. On a
    /// hot path (one call per signing request) the wrapper's extra statements cost several times
    /// the query itself (`scripts/bench-sign` with `BENCH_PERF`). Never use it for two statements
    /// that must agree, nor for writes.
    private func singleStatementRead<T>(_ context: String, _ body: (Database) throws -> T) throws(StateStoreError) -> T
    {
        do {
            return try writer.unsafeRead(body)
        } catch {
            throw Self.wrap(error, context)
        }
    }

    /// The schema version names applied to this database, oldest first.
    package func appliedMigrations() throws(StateStoreError) -> [String] {
        try read("read migrations") { db in try Self.migrator.appliedMigrations(db) }
    }

    /// Runs `PRAGMA integrity_check` and `foreign_key_check`, and checks the site revisions (every
    /// site has one, none above the counter); returns the problems found (empty when sound).
    package func integrityProblems() throws(StateStoreError) -> [String] {
        try read("integrity check") { db in
            var problems = try String.fetchAll(db, sql: "PRAGMA integrity_check").filter { $0 != "ok" }
            let fk = try Row.fetchAll(db, sql: "PRAGMA foreign_key_check")
            problems += fk.map { "foreign key violation in \($0[0] as String? ?? "?")" }
            let unnumbered = try Int.fetchOne(
                db, sql: "SELECT count(*) FROM site WHERE origin NOT IN (SELECT origin FROM site_revision)")
            if let unnumbered, unnumbered > 0 { problems.append("\(unnumbered) site(s) without a revision") }
            let highest = try Int64.fetchOne(db, sql: "SELECT max(revision) FROM site_revision") ?? 0
            if highest > (try Self.siteRevision(db)) { problems.append("a site revision above the counter") }
            return problems
        }
    }

    /// The connection settings SQLite reports, for diagnostics and tests.
    package struct Pragmas: Sendable, Equatable {
        /// `PRAGMA journal_mode` (`wal` for files, `memory` in memory).
        package var journalMode: String
        /// `PRAGMA foreign_keys`.
        package var foreignKeys: Bool
        /// `PRAGMA synchronous` (2 = FULL).
        package var synchronous: Int
    }

    /// Reads `journal_mode`, `foreign_keys` and `synchronous` on a connection of this store.
    package func pragmas() throws(StateStoreError) -> Pragmas {
        try read("read pragmas") { db in
            Pragmas(
                journalMode: try String.fetchOne(db, sql: "PRAGMA journal_mode") ?? "",
                foreignKeys: try Bool.fetchOne(db, sql: "PRAGMA foreign_keys") ?? false,
                synchronous: try Int.fetchOne(db, sql: "PRAGMA synchronous") ?? -1)
        }
    }

    // MARK: Connected sites

    @discardableResult
    package func authorize(origin: String, name: String, accounts: [String]) throws(StateStoreError) -> ConnectedSite {
        try perform(try authorizing(origin: origin, name: name, accounts: accounts))
    }

    @discardableResult
    package func authorize(origin: String, name: String, accounts: [String]) async throws(StateStoreError)
        -> ConnectedSite
    {
        try await perform(try authorizing(origin: origin, name: name, accounts: accounts))
    }

    private func authorizing(origin: String, name: String, accounts: [String]) throws(StateStoreError)
        -> Transaction<ConnectedSite>
    {
        try Self.check(origin, "origin", max: Self.maxOriginLength)
        let unique = try Self.uniqueAddresses(accounts)
        let time = now()
        let name = String(name.prefix(256))
        return Transaction(context: "authorize", writes: true) { db in
            try db.execute(
                sql: """
                    INSERT INTO site (origin, name, authorized_at, updated_at) VALUES (?, ?, ?, ?)
                    ON CONFLICT(origin) DO UPDATE SET name = excluded.name, updated_at = excluded.updated_at
                    """, arguments: [origin, name, time, time])
            try Self.replaceAccounts(db, origin: origin, with: unique)
            try Self.stamp(db, origin: origin)
            guard let site = try Self.fetchSite(db, origin: origin) else {
                throw StateStoreError(.database, "authorized site vanished inside its transaction")
            }
            return site
        }
    }

    package func updateAccounts(origin: String, accounts: [String]) throws(StateStoreError) -> ConnectedSite? {
        try perform(try updatingAccounts(origin: origin, accounts: accounts))
    }

    package func updateAccounts(origin: String, accounts: [String]) async throws(StateStoreError) -> ConnectedSite? {
        try await perform(try updatingAccounts(origin: origin, accounts: accounts))
    }

    private func updatingAccounts(origin: String, accounts: [String]) throws(StateStoreError)
        -> Transaction<ConnectedSite?>
    {
        let unique = try Self.uniqueAddresses(accounts)
        let time = now()
        return Transaction(context: "update accounts", writes: true) { db in
            try db.execute(sql: "UPDATE site SET updated_at = ? WHERE origin = ?", arguments: [time, origin])
            guard db.changesCount > 0 else { return nil }
            try Self.replaceAccounts(db, origin: origin, with: unique)
            try Self.stamp(db, origin: origin)
            return try Self.fetchSite(db, origin: origin)
        }
    }

    package func connectedSite(origin: String) throws(StateStoreError) -> ConnectedSite? {
        try read("read site") { db in try Self.fetchSite(db, origin: origin) }
    }

    package func connectedSites() throws(StateStoreError) -> [ConnectedSite] {
        try read("read sites") { db in
            let origins = try String.fetchAll(db, sql: "SELECT origin FROM site ORDER BY origin")
            return try origins.compactMap { try Self.fetchSite(db, origin: $0) }
        }
    }

    @discardableResult
    package func revoke(origin: String) throws(StateStoreError) -> Int64? { try perform(Self.revoking(origin)) }

    @discardableResult
    package func revoke(origin: String) async throws(StateStoreError) -> Int64? {
        try await perform(Self.revoking(origin))
    }

    private static func revoking(_ origin: String) -> Transaction<Int64?> {
        Transaction(context: "revoke", writes: true) { db in
            try db.execute(sql: "DELETE FROM site WHERE origin = ?", arguments: [origin])
            guard db.changesCount > 0 else { return nil }
            return try Self.stamp(db, origin: origin)
        }
    }

    package func forgetAccount(address: String) throws(StateStoreError) {
        try write("forget account") { db in
            let origins = try String.fetchAll(
                db, sql: "SELECT origin FROM site_account WHERE address = ? ORDER BY origin", arguments: [address])
            try db.execute(sql: "DELETE FROM site_account WHERE address = ?", arguments: [address])
            for origin in origins { try Self.stamp(db, origin: origin) }
        }
    }

    package func siteChanges(after revision: Int64) throws(StateStoreError) -> SiteChanges {
        try perform(Self.readingSiteChanges(after: revision))
    }

    package func siteChanges(after revision: Int64) async throws(StateStoreError) -> SiteChanges {
        try await perform(Self.readingSiteChanges(after: revision))
    }

    private static func readingSiteChanges(after revision: Int64) -> Transaction<SiteChanges> {
        Transaction(context: "read site changes", writes: false) { db in
            let rows = try Row.fetchAll(
                db, sql: "SELECT origin, revision FROM site_revision WHERE revision > ? ORDER BY revision",
                arguments: [revision])
            let changes = try rows.map { row in
                let origin: String = row["origin"]
                return SiteChange(
                    origin: origin, revision: row["revision"], site: try Self.fetchSite(db, origin: origin))
            }
            return SiteChanges(changes: changes, revision: try Self.siteRevision(db))
        }
    }

    private static func siteRevision(_ db: Database) throws -> Int64 {
        guard let value = try Int64.fetchOne(db, sql: "SELECT value FROM counter WHERE name = 'site'") else {
            throw StateStoreError(.database, "the site revision counter is missing")
        }
        return value
    }

    /// Takes the next site revision for `origin`, inside the caller's write transaction (so two
    /// processes never take the same one: SQLite serialises writers).
    @discardableResult
    private static func stamp(_ db: Database, origin: String) throws -> Int64 {
        try db.execute(sql: "UPDATE counter SET value = value + 1 WHERE name = 'site'")
        let revision = try siteRevision(db)
        try db.execute(
            sql: """
                INSERT INTO site_revision (origin, revision) VALUES (?, ?)
                ON CONFLICT(origin) DO UPDATE SET revision = excluded.revision
                """, arguments: [origin, revision])
        return revision
    }

    private static func uniqueAddresses(_ accounts: [String]) throws(StateStoreError) -> [String] {
        for address in accounts { try check(address, "address", max: maxAddressLength) }
        var unique: [String] = []
        for address in accounts where !unique.contains(address) { unique.append(address) }
        return unique
    }

    private static func replaceAccounts(_ db: Database, origin: String, with accounts: [String]) throws {
        try db.execute(sql: "DELETE FROM site_account WHERE origin = ?", arguments: [origin])
        for (position, address) in accounts.enumerated() {
            try db.execute(
                sql: "INSERT INTO site_account (origin, position, address) VALUES (?, ?, ?)",
                arguments: [origin, position, address])
        }
    }

    private static func fetchSite(_ db: Database, origin: String) throws -> ConnectedSite? {
        guard
            let row = try Row.fetchOne(
                db,
                sql: """
                    SELECT site.origin, name, authorized_at, updated_at, revision FROM site
                    JOIN site_revision ON site_revision.origin = site.origin WHERE site.origin = ?
                    """,
                arguments: [origin])
        else { return nil }
        let accounts = try String.fetchAll(
            db, sql: "SELECT address FROM site_account WHERE origin = ? ORDER BY position", arguments: [origin])
        return ConnectedSite(
            origin: row["origin"], name: row["name"], accounts: accounts, authorizedAt: row["authorized_at"],
            updatedAt: row["updated_at"], revision: row["revision"])
    }

    // MARK: Metadata

    package func saveMetadata(_ metadata: ChainMetadata) throws(StateStoreError) {
        try perform(try savingMetadata(metadata))
    }

    package func saveMetadata(_ metadata: ChainMetadata) async throws(StateStoreError) {
        try await perform(try savingMetadata(metadata))
    }

    private func savingMetadata(_ metadata: ChainMetadata) throws(StateStoreError) -> Transaction<Void> {
        let hash = try Self.normalizedGenesisHash(metadata.genesisHash)
        let time = now()
        return Transaction(context: "save metadata", writes: true) { db in
            try db.execute(
                sql: """
                    INSERT OR REPLACE INTO chain_metadata
                    (genesis_hash, spec_version, chain, ss58_format, token_symbol, token_decimals, metadata, extra_json, updated_at)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: [
                    hash, Int64(metadata.specVersion), metadata.chain, metadata.ss58Format.map { Int64($0) },
                    metadata.tokenSymbol, metadata.tokenDecimals.map { Int64($0) }, Data(metadata.metadata),
                    metadata.extraJSON, time,
                ])
        }
    }

    package func metadata(genesisHash: String) throws(StateStoreError) -> ChainMetadata? {
        guard let hash = try? Self.normalizedGenesisHash(genesisHash) else { return nil }
        return try read("read metadata") { db in
            try Row.fetchOne(db, sql: "SELECT * FROM chain_metadata WHERE genesis_hash = ?", arguments: [hash])
                .map(Self.metadata(from:))
        }
    }

    /// The query of `metadataVersion(genesisHash:)`: answered from the `chain_metadata_version`
    /// index alone (a covering index), so the row and its metadata blob are never read. `INDEXED
    /// BY` because the planner would otherwise take the primary key's index and visit the row.
    static let metadataVersionSQL =
        "SELECT spec_version FROM chain_metadata INDEXED BY chain_metadata_version WHERE genesis_hash = ?"

    /// Asked once per signing request (the decoded-metadata cache checks the version each time), so
    /// it is one cached statement outside an explicit transaction (``singleStatementRead(_:_:)``).
    package func metadataVersion(genesisHash: String) throws(StateStoreError) -> UInt32? {
        guard let hash = try? Self.normalizedGenesisHash(genesisHash) else { return nil }
        return try singleStatementRead("read metadata version") { db in
            let statement = try db.cachedStatement(sql: Self.metadataVersionSQL)
            guard let spec = try Int64.fetchOne(statement, arguments: [hash]) else {
                return nil
            }
            guard let version = UInt32(exactly: spec) else {
                throw StateStoreError(.database, "chain_metadata.spec_version out of range")
            }
            return version
        }
    }

    package func metadataVersions() throws(StateStoreError) -> [String: UInt32] {
        try perform(Self.readingMetadataVersions)
    }

    package func metadataVersions() async throws(StateStoreError) -> [String: UInt32] {
        try await perform(Self.readingMetadataVersions)
    }

    private static let readingMetadataVersions = Transaction<[String: UInt32]>(
        context: "read metadata versions", writes: false
    ) { db in
        var out: [String: UInt32] = [:]
        for row in try Row.fetchAll(
            db, sql: "SELECT genesis_hash, spec_version FROM chain_metadata INDEXED BY chain_metadata_version")
        {
            let spec: Int64 = row[1]
            guard let version = UInt32(exactly: spec) else {
                throw StateStoreError(.database, "chain_metadata.spec_version out of range")
            }
            out[row[0]] = version
        }
        return out
    }

    /// The writing connection's `PRAGMA synchronous` (2 is FULL), for tests and diagnostics.
    func writerSynchronous() throws(StateStoreError) -> Int {
        try write("read synchronous") { db in try Int.fetchOne(db, sql: "PRAGMA synchronous") ?? -1 }
    }

    /// SQLite's plan for `sql` (`EXPLAIN QUERY PLAN`, the `detail` column), for tests and diagnostics.
    func queryPlan(_ sql: String, arguments: StatementArguments = StatementArguments()) throws(StateStoreError)
        -> [String]
    {
        try read("explain") { db in
            try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN " + sql, arguments: arguments).map { $0["detail"] }
        }
    }

    package func allMetadata() throws(StateStoreError) -> [ChainMetadata] { try perform(Self.readingAllMetadata) }

    package func allMetadata() async throws(StateStoreError) -> [ChainMetadata] {
        try await perform(Self.readingAllMetadata)
    }

    private static let readingAllMetadata = Transaction<[ChainMetadata]>(context: "read metadata", writes: false) {
        db in
        try Row.fetchAll(db, sql: "SELECT * FROM chain_metadata ORDER BY genesis_hash")
            .map(SQLiteStateStore.metadata(from:))
    }

    @discardableResult
    package func removeMetadata(genesisHash: String) throws(StateStoreError) -> Bool {
        guard let hash = try? Self.normalizedGenesisHash(genesisHash) else { return false }
        return try write("remove metadata") { db in
            try db.execute(sql: "DELETE FROM chain_metadata WHERE genesis_hash = ?", arguments: [hash])
            return db.changesCount > 0
        }
    }

    private static func metadata(from row: Row) throws -> ChainMetadata {
        let spec: Int64 = row["spec_version"]
        let ss58: Int64? = row["ss58_format"]
        let decimals: Int64? = row["token_decimals"]
        let blob: Data? = row["metadata"]
        guard let specVersion = UInt32(exactly: spec) else {
            throw StateStoreError(.database, "chain_metadata.spec_version out of range")
        }
        return ChainMetadata(
            genesisHash: row["genesis_hash"], specVersion: specVersion, chain: row["chain"],
            ss58Format: ss58.flatMap { UInt16(exactly: $0) }, tokenSymbol: row["token_symbol"],
            tokenDecimals: decimals.flatMap { UInt8(exactly: $0) }, metadata: blob.map { [UInt8]($0) } ?? [],
            extraJSON: row["extra_json"], updatedAt: row["updated_at"])
    }

    /// `0x` + 64 hex digits, lower-cased (``GenesisHash``).
    static func normalizedGenesisHash(_ hash: String) throws(StateStoreError) -> String {
        do {
            return try GenesisHash.normalized(hash)
        } catch {
            throw StateStoreError(error)
        }
    }

    // MARK: Settings

    /// Asked once per signing request (whether the chain's metadata-hash check is off), so one
    /// cached statement outside an explicit transaction, like `metadataVersion`.
    package func setting(_ key: String) throws(StateStoreError) -> String? {
        try singleStatementRead("read setting") { db in
            try String.fetchOne(db.cachedStatement(sql: "SELECT value FROM setting WHERE key = ?"), arguments: [key])
        }
    }

    package func setSetting(_ key: String, to value: String?) throws(StateStoreError) {
        try perform(try Self.settingValues([key: value]))
    }

    package func setSettings(_ values: [String: String?]) async throws(StateStoreError) {
        try await perform(try Self.settingValues(values))
    }

    private static func settingValues(_ values: [String: String?]) throws(StateStoreError) -> Transaction<Void> {
        for (key, value) in values {
            try check(key, "setting key", max: maxSettingKeyLength)
            if let value, value.utf8.count > maxSettingValueLength {
                throw StateStoreError(.invalidInput, "setting value is over \(maxSettingValueLength) bytes")
            }
        }
        return Transaction(context: "write setting", writes: true) { db in
            for (key, value) in values {
                if let value {
                    try db.execute(
                        sql: "INSERT OR REPLACE INTO setting (key, value) VALUES (?, ?)", arguments: [key, value])
                } else {
                    try db.execute(sql: "DELETE FROM setting WHERE key = ?", arguments: [key])
                }
            }
        }
    }

    package func allSettings() throws(StateStoreError) -> [String: String] { try perform(Self.readingAllSettings) }

    package func allSettings() async throws(StateStoreError) -> [String: String] {
        try await perform(Self.readingAllSettings)
    }

    private static let readingAllSettings = Transaction<[String: String]>(context: "read settings", writes: false) {
        db in
        var out: [String: String] = [:]
        for row in try Row.fetchAll(db, sql: "SELECT key, value FROM setting") { out[row["key"]] = row["value"] }
        return out
    }

    private static func check(_ value: String, _ field: String, max: Int) throws(StateStoreError) {
        guard !value.isEmpty, value.utf8.count <= max else {
            throw StateStoreError(.invalidInput, "\(field) must be 1 to \(max) bytes")
        }
    }
}
