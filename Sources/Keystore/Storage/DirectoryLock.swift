import Foundation
import Primitives
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// An exclusive advisory lock (`flock(2)`) on a file in the data directory.
///
/// `sigil serve` holds `serve.lock` for its whole life, so a second server on the same directory
/// refuses to start. Account commands hold `accounts.lock` for the few milliseconds of a
/// read-modify-write. The kernel drops the lock when the process dies, even by SIGKILL, so a crash
/// never leaves a stale lock. The holder's pid is written into the file for the error message only.
package final class DirectoryLock: Sendable {
    /// The open lock file, `-1` once released.
    private let fd: Mutex<Int32>
    /// The lock file's path.
    package let path: String

    private init(fd: Int32, path: String) {
        self.fd = Mutex(fd)
        self.path = path
    }

    deinit { unlock() }

    /// Takes the lock without waiting.
    /// - Throws: `.dataDirectoryInUse` (naming the holder's pid when known) if another open file
    ///   description holds it — another process, or another `DirectoryLock` in this process.
    package static func acquire(_ path: String) throws(KeystoreError) -> DirectoryLock {
        let fd = try POSIX.open(path, O_RDWR | O_CREAT, mode: 0o600)
        if flock(fd, LOCK_EX | LOCK_NB) != 0 {
            let code = errno
            let holder = (try? POSIX.readFile(path, limit: 64)).map { String(decoding: $0, as: UTF8.self) } ?? ""
            _ = close(fd)
            if code == EWOULDBLOCK {
                let pid = holder.trimmingCharacters(in: .whitespacesAndNewlines)
                let who = Int(pid).map { " by process \($0)" } ?? ""
                throw KeystoreError(.dataDirectoryInUse, "\(path) is locked\(who)")
            }
            throw POSIX.error("flock", path, code)
        }
        let lock = DirectoryLock(fd: fd, path: path)
        let pid = "\(getpid())\n"
        if ftruncate(fd, 0) == 0 {
            _ = pid.utf8CString.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count - 1, 0) }
        }
        return lock
    }

    /// Takes the lock, waiting up to `timeout` for the current holder.
    /// - Throws: `.dataDirectoryInUse` after the timeout.
    package static func acquire(_ path: String, waitingUpTo timeout: Duration) throws(KeystoreError) -> DirectoryLock {
        let clock = ContinuousClock()
        let deadline = clock.now + timeout
        while true {
            do {
                return try acquire(path)
            } catch  where error.code == .dataDirectoryInUse && clock.now < deadline {
                var pause = timespec(tv_sec: 0, tv_nsec: 5_000_000)
                nanosleep(&pause, nil)
            }
        }
    }

    /// Releases the lock (idempotent). The pid is left in the file; it is informational only.
    package func unlock() {
        fd.withLock { fd in
            if fd >= 0 {
                _ = flock(fd, LOCK_UN)
                _ = close(fd)
                fd = -1
            }
        }
    }
}
