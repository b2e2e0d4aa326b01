import Primitives
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Small wrappers over the POSIX calls the storage layer needs, each turning a failure into a
/// `KeystoreError.fileSystem` that names the call, the path and `errno` (never file contents).
package enum POSIX {
    package static func error(_ call: String, _ path: String, _ code: Int32 = errno) -> KeystoreError {
        let message = String(cString: strerror(code))
        return KeystoreError(
            code == ENOSPC || code == EDQUOT ? .diskFull : .fileSystem,
            "\(call)(\(path)) failed: \(message) (errno \(code))")
    }

    /// `open(2)` with `O_CLOEXEC`, retrying on `EINTR`.
    package static func open(_ path: String, _ flags: Int32, mode: mode_t = 0o600) throws(KeystoreError) -> Int32 {
        while true {
            let fd = Glibc.open(path, flags | O_CLOEXEC, mode)
            if fd >= 0 { return fd }
            if errno != EINTR { throw error("open", path) }
        }
    }

    /// Writes all of `bytes`, retrying short writes and `EINTR`.
    package static func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer, path: String) throws(KeystoreError) {
        var offset = 0
        while offset < bytes.count {
            guard let base = bytes.baseAddress else { return }
            let n = Glibc.write(fd, base + offset, bytes.count - offset)
            if n < 0 {
                if errno == EINTR { continue }
                throw error("write", path)
            }
            offset += n
        }
    }

    /// Reads a whole file, refusing files over `limit` bytes.
    package static func readFile(_ path: String, limit: Int) throws(KeystoreError) -> [UInt8] {
        let fd = try open(path, O_RDONLY)
        defer { _ = Glibc.close(fd) }
        var out: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let n = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                throw error("read", path)
            }
            if n == 0 { break }
            out += chunk[0..<n]
            if out.count > limit {
                throw KeystoreError(.malformedFile, "\(path) is larger than \(limit) bytes")
            }
        }
        return out
    }

    /// `fsync(2)` on a directory, so that a rename or unlink inside it is durable.
    package static func syncDirectory(_ path: String) throws(KeystoreError) {
        let fd = try open(path, O_RDONLY | O_DIRECTORY)
        defer { _ = Glibc.close(fd) }
        guard fsync(fd) == 0 else { throw error("fsync", path) }
    }

    /// `lstat(2)`; nil when the path does not exist.
    package static func status(_ path: String) throws(KeystoreError) -> stat? {
        var st = stat()
        if lstat(path, &st) == 0 { return st }
        if errno == ENOENT { return nil }
        throw error("lstat", path)
    }

    /// Names in a directory, without `.` and `..`.
    package static func listDirectory(_ path: String) throws(KeystoreError) -> [String] {
        guard let dir = opendir(path) else { throw error("opendir", path) }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names.sorted()
    }
}
