import Dispatch
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The WAL syncs of a ``SQLiteStateStore`` opened with ``SQLiteStateStore/Durability/periodic``
/// (docs/journal.md §7, "What each guarantee needs"). Every commit of the store, of any kind (a
/// journal batch, a checkpoint, a grant, a revocation, a setting), calls ``committed()``; a commit
/// is then on disk at most ``interval`` after it, by a sync on a queue of its own, so that neither a
/// writer waiting for SQLite's lock nor a steady stream of commits can hold it back.
///
/// A sync covers what was committed before it began: `unsynced` is cleared when it starts, and a
/// commit during the sync sets it again (the next timer syncs it). A failed sync keeps the commits
/// unsynced, is counted (``failures``) and retried one interval later.
final class PeriodicSync: Sendable {
    /// The longest a commit stays unsynced.
    let interval: DispatchTimeInterval
    /// The WAL file, as SQLite names it.
    let walPath: String
    private let queue = DispatchQueue(label: "sigil.state.sync")
    private struct State {
        var unsynced = false
        var scheduled = false
        var syncs = 0
        var failures = 0
        var lastError: Int32 = 0
    }
    private let state = Mutex(State())

    init(walPath: String, interval: DispatchTimeInterval) {
        self.walPath = walPath
        self.interval = interval
    }

    /// A commit returned: it is synced within `interval`.
    func committed() {
        let schedule = state.withLock { state -> Bool in
            state.unsynced = true
            guard !state.scheduled else { return false }
            state.scheduled = true
            return true
        }
        if schedule { queue.asyncAfter(deadline: .now() + interval) { self.run() } }
    }

    private func run() {
        let needed = state.withLock { state -> Bool in
            state.scheduled = false
            defer { state.unsynced = false }
            return state.unsynced
        }
        guard needed else { return }
        let code = Self.sync(walPath)
        guard code != 0 else {
            state.withLock { $0.syncs += 1 }
            return
        }
        let retry = state.withLock { state -> Bool in
            state.unsynced = true
            state.failures += 1
            state.lastError = code
            guard !state.scheduled else { return false }
            state.scheduled = true
            return true
        }
        if retry { queue.asyncAfter(deadline: .now() + interval) { self.run() } }
    }

    /// Syncs now, on the caller's thread (a checkpoint before its mirror line, shutdown).
    /// - Returns: 0, or the `errno` of the failed call.
    func syncNow() -> Int32 {
        state.withLock { $0.unsynced = false }
        let code = Self.sync(walPath)
        state.withLock { state in
            if code == 0 {
                state.syncs += 1
            } else {
                state.unsynced = true
                state.failures += 1
                state.lastError = code
            }
        }
        return code
    }

    /// How many syncs succeeded and failed so far.
    var counts: (syncs: Int, failures: Int) { state.withLock { ($0.syncs, $0.failures) } }

    /// The `errno` of the last failed sync (0: none failed).
    var lastError: Int32 { state.withLock { $0.lastError } }

    /// `fdatasync` of the WAL file through a descriptor of its own (a sync flushes the file, not
    /// the descriptor). A missing file has nothing to sync (no write since the pool opened it).
    /// - Returns: 0, or `errno`.
    static func sync(_ path: String) -> Int32 {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return errno == ENOENT ? 0 : errno }
        defer { _ = close(fd) }
        #if canImport(Darwin)
            // Darwin's fsync does not flush the drive's cache; F_FULLFSYNC does.
            guard fcntl(fd, F_FULLFSYNC) == 0 || fsync(fd) == 0 else { return errno }
        #else
            guard fdatasync(fd) == 0 else { return errno }
        #endif
        return 0
    }
}
