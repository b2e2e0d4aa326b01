import CSodium
import Foundation
import GRDB
import Journal
import Keystore
import Primitives

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The manifest of a data-directory backup (`sigil backup DIR`): every file with its size and
/// SHA-256, and the journal's size at the moment of the copy. Written last, as `sigil-backup.json`,
/// so a directory without it is an unfinished backup.
package struct BackupManifest: Codable, Sendable, Equatable {
    /// The manifest's file name inside a backup directory.
    package static let fileName = "sigil-backup.json"
    /// The format tag `restore` accepts.
    package static let currentFormat = "sigil-backup-1"
    /// Largest manifest read (a few thousand accounts fit in far less).
    static let maxBytes = 16 << 20

    /// One copied file.
    package struct File: Codable, Sendable, Equatable {
        /// Path relative to the data directory: `state.sqlite`, `journal-key.json`, `accounts/NAME`, `icp/NAME`.
        package var path: String
        package var bytes: Int
        /// Lower-case hex.
        package var sha256: String
    }

    package var format: String
    /// UTC time of the copy, ISO 8601.
    package var created: String
    /// The data directory that was copied.
    package var source: String
    package var files: [File]
    /// Journal entries in the copied database, and the last sequence number (0 when empty).
    package var journalEntries: Int
    package var journalHeadSeq: UInt64

    /// Whether `path` is one a backup may contain: the fixed names, or one plain file name (no `/`,
    /// no leading `.`) under `accounts/` or `icp/`. A crafted manifest cannot name a path outside
    /// the data directory.
    package static func isAllowedPath(_ path: String) -> Bool {
        if path == "state.sqlite" || path == JournalKey.fileName { return true }
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0] == "accounts" || parts[0] == "icp" else { return false }
        let name = parts[1]
        return !name.isEmpty && name.count <= 255 && !name.hasPrefix(".")
            && name.utf8.allSatisfy { $0 > 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "\\") }
    }

    /// Parses and checks a manifest: the format tag, allowed and unique paths, hex digests.
    /// - Throws: `.malformedFile` naming the field; `.unsupportedFormat` for another format tag.
    package static func parse(_ bytes: [UInt8], path: String) throws(StateStoreError) -> BackupManifest {
        let manifest: BackupManifest
        do {
            manifest = try JSONDecoder().decode(BackupManifest.self, from: Data(bytes))
        } catch {
            throw StateStoreError(.malformedFile, "\(path) is not a Sigil backup manifest (\(type(of: error)))")
        }
        guard manifest.format == currentFormat else {
            throw StateStoreError(
                .unsupportedFormat,
                "\(path): format \(manifest.format.prefix(40).debugDescription), this sigil reads \(currentFormat)")
        }
        var seen: Set<String> = []
        for file in manifest.files {
            guard isAllowedPath(file.path) else {
                throw StateStoreError(
                    .malformedFile, "\(path): \(file.path.prefix(80).debugDescription) is not a data-directory file")
            }
            guard seen.insert(file.path).inserted else {
                throw StateStoreError(.malformedFile, "\(path): \(file.path) is listed twice")
            }
            guard file.bytes >= 0, file.sha256.count == 64,
                file.sha256.utf8.allSatisfy({ ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x61 && $0 <= 0x66) })
            else {
                throw StateStoreError(.malformedFile, "\(path): \(file.path): bad size or sha256")
            }
        }
        return manifest
    }

    /// The manifest as pretty JSON with sorted keys.
    package func encoded() throws(StateStoreError) -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        do {
            return Array(try encoder.encode(self)) + [0x0A]
        } catch {
            throw StateStoreError(.invalidInput, "cannot encode the backup manifest (\(type(of: error)))")
        }
    }
}

/// What `DataDirectory.restore` did.
package struct RestoreResult: Sendable {
    package var manifest: BackupManifest
    /// Where the data that was in the directory before went (`--replace`), or nil when it was empty.
    package var setAside: String?
    /// `sigil journal verify` on the restored database.
    package var journal: JournalVerification
}

extension DataDirectory {
    /// Copies this data directory into the new or empty directory `destination` while `sigil serve`
    /// may be running: the state database (connected sites, settings, metadata, the journal) through
    /// SQLite's online backup (one read transaction, so a consistent snapshot that includes every
    /// committed journal entry), the account and ICP identity files under `accounts.lock`,
    /// `journal-key.json`, then the manifest with SHA-256 hashes. Never copied: the lock files, the
    /// approval URL file (a secret of one run) and databases set aside by `state reset`.
    /// - Throws: `.invalidInput` when `destination` is not empty; `.database`, `.fileSystem`.
    package func backup(to destination: String, now: Date = Date()) throws(StateStoreError) -> BackupManifest {
        do {
            return try copyForBackup(to: destination, now: now)
        } catch {
            throw SQLiteStateStore.wrap(error, "backup of \(path)")
        }
    }

    private func copyForBackup(to destination: String, now: Date) throws -> BackupManifest {
        guard destination.hasPrefix("/") else {
            throw StateStoreError(.invalidInput, "backup directory must be absolute: \(destination)")
        }
        if try POSIX.status(destination) != nil {
            guard try POSIX.listDirectory(destination).isEmpty else {
                throw StateStoreError(.invalidInput, "\(destination) is not empty; back up into a new directory")
            }
        }
        try Self.ensurePrivateDirectory(destination)
        var files: [BackupManifest.File] = []
        var journalEntries = 0
        var journalHeadSeq: UInt64 = 0

        if try POSIX.status(databasePath) != nil {
            let target = destination + "/state.sqlite"
            let fd = try POSIX.open(target, O_RDWR | O_CREAT | O_EXCL, mode: 0o600)
            _ = close(fd)
            do {
                var configuration = Configuration()
                configuration.busyMode = .timeout(10)
                let source = try DatabaseQueue(path: databasePath, configuration: configuration)
                let copy = try DatabaseQueue(path: target)
                try source.backup(to: copy)
                try source.close()
                // One self-contained file (the source is in WAL mode; the copy would be too).
                try copy.writeWithoutTransaction { db in
                    try db.execute(sql: "PRAGMA journal_mode = DELETE")
                    let row = try Row.fetchOne(db, sql: "SELECT COUNT(*), COALESCE(MAX(seq), 0) FROM journal_entry")
                    journalEntries = row?[0] ?? 0
                    journalHeadSeq = UInt64(clamping: (row?[1] as Int64?) ?? 0)
                }
                try copy.close()
            } catch let error as DatabaseError {
                throw StateStoreError(
                    .database, "backup of \(databasePath): SQLite \(error.resultCode): \(error.message ?? "")")
            } catch {
                throw StateStoreError(.database, "backup of \(databasePath): \(type(of: error))")
            }
            try POSIX.fsyncFile(target)
            files.append(try Self.describe(target, as: "state.sqlite"))
        }

        let lock = try DirectoryLock.acquire(accountsLockPath, waitingUpTo: .seconds(10))
        defer { lock.unlock() }
        for folder in ["accounts", "icp"] {
            let from = path + "/" + folder
            guard let st = try POSIX.status(from), st.st_mode & S_IFMT == S_IFDIR else { continue }
            try Self.ensurePrivateDirectory(destination + "/" + folder)
            for name in try POSIX.listDirectory(from) where BackupManifest.isAllowedPath(folder + "/" + name) {
                guard let entry = try POSIX.status(from + "/" + name), entry.st_mode & S_IFMT == S_IFREG else {
                    continue
                }
                files.append(
                    try Self.copy(
                        from + "/" + name, to: destination + "/" + folder + "/" + name, as: folder + "/" + name))
            }
            try POSIX.syncDirectory(destination + "/" + folder)
        }
        let keyFile = path + "/" + JournalKey.fileName
        if try POSIX.status(keyFile) != nil {
            files.append(try Self.copy(keyFile, to: destination + "/" + JournalKey.fileName, as: JournalKey.fileName))
        }
        let manifest = BackupManifest(
            format: BackupManifest.currentFormat, created: ISO8601DateFormatter().string(from: now), source: path,
            files: files, journalEntries: journalEntries, journalHeadSeq: journalHeadSeq)
        try AtomicFile.write(try manifest.encoded(), to: destination + "/" + BackupManifest.fileName)
        try POSIX.syncDirectory(destination)
        return manifest
    }

    /// Reads and checks a backup: the manifest, then every file's size and SHA-256.
    /// - Throws: `.malformedFile` / `.unsupportedFormat` for the manifest, `.databaseDamaged` naming
    ///   the first file that is missing or differs.
    package static func verifyBackup(at directory: String) throws(StateStoreError) -> BackupManifest {
        do {
            return try checkBackup(at: directory)
        } catch {
            throw SQLiteStateStore.wrap(error, "verify the backup in \(directory)")
        }
    }

    private static func checkBackup(at directory: String) throws -> BackupManifest {
        let manifestPath = directory + "/" + BackupManifest.fileName
        guard try POSIX.status(manifestPath) != nil else {
            throw StateStoreError(
                .invalidInput, "\(directory) has no \(BackupManifest.fileName): not a backup, or an unfinished one")
        }
        let manifest = try BackupManifest.parse(
            try POSIX.readFile(manifestPath, limit: BackupManifest.maxBytes), path: manifestPath)
        for file in manifest.files {
            let actual = try describe(directory + "/" + file.path, as: file.path)
            guard actual == file else {
                throw StateStoreError(
                    .databaseDamaged,
                    "\(directory)/\(file.path) differs from the manifest (\(actual.bytes) bytes, sha256 \(actual.sha256); "
                        + "expected \(file.bytes) bytes, \(file.sha256))")
            }
        }
        return manifest
    }

    /// Restores the backup in `backup` into this data directory, holding `serve.lock` throughout:
    /// refused while `sigil serve` runs on it (`.dataDirectoryInUse`, naming its pid). Checks every
    /// file against the manifest first. A directory that already holds data is refused unless
    /// `replace`, which moves that data into `before-restore-<time>/` inside it (nothing is deleted).
    /// Then verifies the restored journal (`sigil journal verify`'s check, with `journal-key.json`).
    /// - Throws: `.dataDirectoryInUse`, `.invalidInput` (data present without `replace`, not a
    ///   backup), `.databaseDamaged` (a file differs from the manifest), `.fileSystem`, `.database`.
    package func restore(from backup: String, replace: Bool, now: Date = Date()) throws(StateStoreError) -> RestoreResult {
        do {
            return try restoreFiles(from: backup, replace: replace, now: now)
        } catch {
            throw SQLiteStateStore.wrap(error, "restore \(backup)")
        }
    }

    private func restoreFiles(from backup: String, replace: Bool, now: Date) throws -> RestoreResult {
        let lock: DirectoryLock
        do throws(KeystoreError) {
            lock = try lockForServing()
        } catch {
            guard error.code == .dataDirectoryInUse else { throw StateStoreError(error) }
            throw StateStoreError(
                .dataDirectoryInUse,
                "\(error.reason): sigil serve is running on \(path); stop it before restoring (a restore replaces its state)"
            )
        }
        defer { lock.unlock() }
        let manifest = try Self.verifyBackup(at: backup)

        let present = try existingData()
        var setAside: String?
        if !present.isEmpty {
            guard replace else {
                throw StateStoreError(
                    .invalidInput,
                    "\(path) already holds data (\(present.joined(separator: ", "))); "
                        + "--replace moves it into \(path)/before-restore-<time>/ first")
            }
            let aside = path + "/before-restore-" + Self.stamp(now)
            try Self.ensurePrivateDirectory(aside)
            for name in present + ["state.sqlite-wal", "state.sqlite-shm"]
            where try POSIX.status(path + "/" + name) != nil {
                guard rename(path + "/" + name, aside + "/" + name) == 0 else {
                    throw POSIX.error("rename", path + "/" + name)
                }
            }
            try POSIX.syncDirectory(aside)
            setAside = aside
        }
        try Self.ensurePrivateDirectory(accountsPath)
        for file in manifest.files {
            if file.path.hasPrefix("icp/") { try Self.ensurePrivateDirectory(path + "/icp") }
            let target = path + "/" + file.path
            let temporary = target + ".restoring"
            _ = try Self.copy(backup + "/" + file.path, to: temporary, as: file.path)
            guard rename(temporary, target) == 0 else { throw POSIX.error("rename", temporary) }
        }
        for folder in ["accounts", "icp"] where try POSIX.status(path + "/" + folder) != nil {
            try POSIX.syncDirectory(path + "/" + folder)
        }
        try POSIX.syncDirectory(path)

        let store = try SQLiteStateStore(path: databasePath)
        let keyFileKey = try JournalKey.publicKey(inFileAt: path + "/" + JournalKey.fileName)
        let journal = try store.verifyJournal(external: [], keyFileKey: keyFileKey)
        return RestoreResult(manifest: manifest, setAside: setAside, journal: journal)
    }

    /// The data a restore would replace: the state database, non-empty `accounts/` or `icp/`, the journal key file.
    func existingData() throws(KeystoreError) -> [String] {
        var present: [String] = []
        if try POSIX.status(databasePath) != nil { present.append("state.sqlite") }
        for folder in ["accounts", "icp"] {
            let folderPath = path + "/" + folder
            if try POSIX.status(folderPath) != nil, !(try POSIX.listDirectory(folderPath).isEmpty) {
                present.append(folder)
            }
        }
        if try POSIX.status(path + "/" + JournalKey.fileName) != nil { present.append(JournalKey.fileName) }
        return present
    }

    /// Copies a regular file (mode 0600, fsynced), returning its manifest line.
    static func copy(_ from: String, to: String, as name: String) throws(KeystoreError) -> BackupManifest.File {
        let input = try POSIX.open(from, O_RDONLY)
        defer { _ = close(input) }
        let output = try POSIX.open(to, O_WRONLY | O_CREAT | O_TRUNC, mode: 0o600)
        defer { _ = close(output) }
        var hash = SHA256Stream()
        var total = 0
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let n = chunk.withUnsafeMutableBytes { read(input, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                throw POSIX.error("read", from)
            }
            if n == 0 { break }
            let written: Result<Void, KeystoreError> = chunk.withUnsafeBytes { raw in
                Result { () throws(KeystoreError) in
                    try POSIX.writeAll(output, UnsafeRawBufferPointer(rebasing: raw[0..<n]), path: to)
                }
            }
            try written.get()
            hash.update(chunk[0..<n])
            total += n
        }
        guard fsync(output) == 0 else { throw POSIX.error("fsync", to) }
        return BackupManifest.File(path: name, bytes: total, sha256: hash.hexDigest())
    }

    /// Size and SHA-256 of a file.
    static func describe(_ file: String, as name: String) throws(KeystoreError) -> BackupManifest.File {
        let fd = try POSIX.open(file, O_RDONLY)
        defer { _ = close(fd) }
        var hash = SHA256Stream()
        var total = 0
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                throw POSIX.error("read", file)
            }
            if n == 0 { break }
            hash.update(chunk[0..<n])
            total += n
        }
        return BackupManifest.File(path: name, bytes: total, sha256: hash.hexDigest())
    }

    private static func stamp(_ date: Date) -> String {
        var t = time_t(date.timeIntervalSince1970)
        var parts = tm()
        gmtime_r(&t, &parts)
        return String(
            format: "%04d%02d%02d-%02d%02d%02d", Int(parts.tm_year) + 1900, Int(parts.tm_mon) + 1, Int(parts.tm_mday),
            Int(parts.tm_hour), Int(parts.tm_min), Int(parts.tm_sec))
    }
}

/// SHA-256 over a stream of chunks (libsodium's `crypto_hash_sha256`).
struct SHA256Stream {
    private var state = crypto_hash_sha256_state()

    init() { _ = crypto_hash_sha256_init(&state) }

    mutating func update(_ bytes: ArraySlice<UInt8>) {
        bytes.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            _ = crypto_hash_sha256_update(&state, base, UInt64(buffer.count))
        }
    }

    mutating func hexDigest() -> String {
        var digest = [UInt8](repeating: 0, count: 32)
        _ = crypto_hash_sha256_final(&state, &digest)
        return digest.map { String(format: "%02x", $0) }.joined()
    }
}

extension POSIX {
    /// `fsync(2)` on a file by path.
    static func fsyncFile(_ path: String) throws(KeystoreError) {
        let fd = try open(path, O_RDONLY)
        defer { _ = close(fd) }
        guard fsync(fd) == 0 else { throw error("fsync", path) }
    }
}
