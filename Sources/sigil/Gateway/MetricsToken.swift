import Glibc
import Logging

/// Reads `--metrics-token-file`: the token a Prometheus scraper sends as `Authorization: Bearer`
/// (Prometheus `authorization.credentials_file` reads the same file format: the token, optionally
/// followed by a newline). Validated at start; errors name the option and the file, never the token.
enum MetricsToken {
    /// - Throws: `ValidationErrorText` when the file is unreadable, or its token is shorter than 16
    ///   or longer than 4096 characters, or holds anything but visible ASCII.
    static func read(_ path: String, logger: Logger) throws -> String {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            throw ValidationErrorText("--metrics-token-file \(path): cannot open (\(String(cString: strerror(errno))))")
        }
        defer { close(fd) }
        var info = stat()
        if fstat(fd, &info) == 0 && info.st_mode & 0o077 != 0 {
            logger.warning(
                "--metrics-token-file is readable by other users; chmod 600 it", metadata: ["path": "\(path)"])
        }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while bytes.count <= 8192 {
            let n = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            if n < 0 { throw ValidationErrorText("--metrics-token-file \(path): cannot read") }
            if n == 0 { break }
            bytes += buffer[0..<n]
        }
        while let last = bytes.last, last == 0x0A || last == 0x0D || last == 0x20 || last == 0x09 { bytes.removeLast() }
        guard (16...4096).contains(bytes.count) else {
            throw ValidationErrorText("--metrics-token-file \(path): the token must be 16...4096 characters")
        }
        guard bytes.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else {
            throw ValidationErrorText("--metrics-token-file \(path): the token must be visible ASCII without spaces")
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
