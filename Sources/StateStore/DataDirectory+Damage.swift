import Foundation
import GRDB
import Journal
import Keystore
import Primitives

#if canImport(Glibc)
    import Glibc
#endif

extension DataDirectory {
    /// What `checkState` found.
    package struct StateCheck: Sendable, Equatable {
        /// The database opens and SQLite's `quick_check` reports nothing.
        package var ok: Bool
        /// SQLite's findings, or the error that stopped the check (at most 20 lines).
        package var findings: [String]
    }

    /// Opens `state.sqlite` read-only and runs SQLite's `PRAGMA quick_check` (every page, no index
    /// contents compared: linear in the file's size). Never changes the file.
    package func checkState() -> StateCheck {
        guard FileManager.default.fileExists(atPath: databasePath) else {
            return StateCheck(ok: true, findings: ["no state database yet"])
        }
        do {
            var configuration = Configuration()
            configuration.readonly = true
            let queue = try DatabaseQueue(path: databasePath, configuration: configuration)
            let rows = try queue.read { db in try String.fetchAll(db, sql: "PRAGMA quick_check(20)") }
            return StateCheck(ok: rows == ["ok"], findings: rows)
        } catch let error as DatabaseError {
            return StateCheck(ok: false, findings: ["SQLite \(error.resultCode): \(error.message ?? "")"])
        } catch {
            return StateCheck(ok: false, findings: ["\(type(of: error))"])
        }
    }

    /// Moves `state.sqlite` and its `-wal`/`-shm` files aside, as `state.damaged-<stamp>.sqlite` (with
    /// the same suffixes, so SQLite still opens the copy with its log), holding `serve.lock` so that no
    /// server is running on the directory. Accounts are separate files and stay. The next start
    /// creates an empty state: connected sites, stored metadata and the journal start over.
    /// - Parameter stamp: part of the new name (default: UTC time, `yyyyMMdd-HHmmss`).
    /// - Returns: the new path of the database file, or nil when there was none.
    /// - Throws: `.dataDirectoryInUse` while `sigil serve` runs; `.fileSystem` when a rename fails
    ///   (files already moved stay moved and are named in the reason).
    package func setStateAside(stamp: String? = nil) throws(StateStoreError) -> String? {
        let lock: DirectoryLock
        do {
            lock = try lockForServing()
        } catch {
            throw StateStoreError(error)
        }
        defer { lock.unlock() }
        guard FileManager.default.fileExists(atPath: databasePath) else { return nil }
        let stamp = stamp ?? Self.utcStamp()
        let target = path + "/state.damaged-\(stamp).sqlite"
        var moved: [String] = []
        for suffix in ["", "-wal", "-shm"] {
            let from = databasePath + suffix
            guard FileManager.default.fileExists(atPath: from) else { continue }
            if rename(from, target + suffix) != 0 {
                let error = StateStoreError(POSIX.error("rename", from))
                throw StateStoreError(
                    error.code,
                    error.reason + (moved.isEmpty ? "" : "; already moved: \(moved.joined(separator: ", "))"))
            }
            moved.append(target + suffix)
        }
        return target
    }

    private static func utcStamp() -> String {
        var t = time(nil)
        var parts = tm()
        gmtime_r(&t, &parts)
        return String(
            format: "%04d%02d%02d-%02d%02d%02d", Int(parts.tm_year) + 1900, Int(parts.tm_mon) + 1, Int(parts.tm_mday),
            Int(parts.tm_hour), Int(parts.tm_min), Int(parts.tm_sec))
    }
}
