import Foundation
import Primitives

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Crash-safe replacement of whole files: a reader (or a process started after a crash) sees either
/// the old contents or the new ones, never a mix or a truncated file.
///
/// Write: create `.<name>.tmp-<pid>-<random>` next to the target with `O_EXCL` and mode 0600, write,
/// `fsync`, `rename` over the target, `fsync` the directory. A crash before the rename leaves only a
/// temporary file, which readers ignore (dot files) and `removeLeftovers` deletes.
package enum AtomicFile {
    /// Marker in temporary file names.
    static let temporaryMarker = ".tmp-"

    /// Atomically writes `bytes` to `path` with permissions `mode` (default owner read/write only).
    /// - Throws: `.fileSystem` naming the failing call; the target is then unchanged.
    static func writeBytes(_ bytes: some ContiguousBytesView, to path: String, mode: mode_t = 0o600)
        throws(KeystoreError)
    {
        let (directory, name) = split(path)
        let suffix = (try? Sodium.randomBytes(6)).map { Hex.encode($0).dropFirst(2) } ?? "0"
        let temporary = "\(directory)/.\(name)\(temporaryMarker)\(getpid())-\(suffix)"
        let fd = try POSIX.open(temporary, O_WRONLY | O_CREAT | O_EXCL, mode: mode)
        var renamed = false
        defer {
            if !renamed { unlink(temporary) }
        }
        do throws(KeystoreError) {
            // The umask may have cleared bits of `mode`; set exactly `mode`, never more.
            guard fchmod(fd, mode) == 0 else { throw POSIX.error("fchmod", temporary) }
            try bytes.withBytes { (b) throws(KeystoreError) in
                try POSIX.writeAll(fd, UnsafeRawBufferPointer(b), path: temporary)
            }
            guard fsync(fd) == 0 else { throw POSIX.error("fsync", temporary) }
        } catch {
            _ = close(fd)
            throw error
        }
        guard close(fd) == 0 else { throw POSIX.error("close", temporary) }
        guard rename(temporary, path) == 0 else { throw POSIX.error("rename", path) }
        renamed = true
        try POSIX.syncDirectory(directory)
    }

    /// Atomically writes `data` to `path` (mode 0600 by default): readers see the old file or the new
    /// one, never a partial write, even if the process is killed.
    /// - Throws: `.fileSystem`; the target is then unchanged.
    package static func write(_ data: [UInt8], to path: String, mode: UInt32 = 0o600) throws(KeystoreError) {
        try writeBytes(data, to: path, mode: mode_t(mode))
    }

    /// Removes `path` durably (unlink, then `fsync` the directory). Returns false when it did not exist.
    @discardableResult
    static func remove(_ path: String) throws(KeystoreError) -> Bool {
        if unlink(path) != 0 {
            if errno == ENOENT { return false }
            throw POSIX.error("unlink", path)
        }
        try POSIX.syncDirectory(split(path).directory)
        return true
    }

    /// Deletes temporary files a crashed writer left in `directory`. Only files this type creates
    /// (`.<name>.tmp-<pid>-<hex>`) whose writer process no longer exists are touched.
    static func removeLeftovers(in directory: String) throws(KeystoreError) {
        for name in try POSIX.listDirectory(directory) where name.hasPrefix(".") && name.contains(temporaryMarker) {
            guard let marker = name.range(of: temporaryMarker) else { continue }
            let rest = name[marker.upperBound...]
            guard let pidText = rest.split(separator: "-").first, let pid = pid_t(pidText) else { continue }
            if pid == getpid() { continue }
            if kill(pid, 0) == 0 || errno == EPERM { continue }  // that writer is still running
            unlink("\(directory)/\(name)")
        }
    }

    private static func split(_ path: String) -> (directory: String, name: String) {
        guard let slash = path.lastIndex(of: "/") else { return (".", path) }
        let directory = String(path[..<slash])
        return (directory.isEmpty ? "/" : directory, String(path[path.index(after: slash)...]))
    }
}
