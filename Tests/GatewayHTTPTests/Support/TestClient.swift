import COpenSSL
import Foundation
import Glibc

@testable import GatewayHTTP

/// A blocking raw-socket HTTP client for tests. Every read and write has a 10 s socket timeout so a
/// failing test cannot hang the run.
final class TestClient {
    struct Response {
        var status: Int
        var headers: HTTPHeaders
        var body: [UInt8]
        var text: String { String(decoding: body, as: UTF8.self) }
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    let fd: Int32
    private var buffer: [UInt8] = []
    /// After `startTLS` (TestClient+TLS.swift): the client's `SSL *` and `SSL_CTX *`; reads and
    /// writes then go through them (blocking, with the same socket timeouts).
    var ssl: OpaquePointer?
    var sslContext: OpaquePointer?
    /// Set when a TLS read ended with the server's close_notify (a clean TLS close).
    var receivedCloseNotify = false

    /// Connects to `host:port`. `receiveBuffer` shrinks SO_RCVBUF (set before connect) to make a slow reader.
    init(port: Int, host: String = "127.0.0.1", receiveBuffer: Int32? = nil) throws {
        let v6 = host.contains(":")
        fd = socket(v6 ? AF_INET6 : AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw Failure(description: "socket failed") }
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var one: Int32 = 1
        setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        if var size = receiveBuffer {
            setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        }
        let rc: Int32
        if v6 {
            var address = sockaddr_in6()
            address.sin6_family = sa_family_t(AF_INET6)
            address.sin6_port = UInt16(port).bigEndian
            inet_pton(AF_INET6, host, &address.sin6_addr)
            rc = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in6>.size))
                }
            }
        } else {
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = UInt16(port).bigEndian
            inet_pton(AF_INET, host, &address.sin_addr)
            rc = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
        }
        guard rc == 0 else {
            Glibc.close(fd)
            throw Failure(description: "connect failed: errno \(errno)")
        }
    }

    deinit {
        if let ssl { SSL_free(ssl) }
        if let sslContext { SSL_CTX_free(sslContext) }
        Glibc.close(fd)
    }

    func send(_ text: String) throws { try send(Array(text.utf8)) }

    func send(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { raw -> Int in
                if let ssl { return Int(SSL_write(ssl, raw.baseAddress, Int32(clamping: raw.count))) }
                return Glibc.send(fd, raw.baseAddress, raw.count, Int32(MSG_NOSIGNAL))
            }
            guard n > 0 else { throw Failure(description: "send failed: errno \(errno)") }
            offset += n
        }
    }

    /// Reads at most `max` bytes into the buffer; returns false on EOF.
    @discardableResult
    func fill(max: Int = 64 * 1024) throws -> Bool {
        var chunk = [UInt8](repeating: 0, count: max)
        if let ssl {
            let n = chunk.withUnsafeMutableBytes { SSL_read(ssl, $0.baseAddress, Int32(clamping: $0.count)) }
            if n > 0 {
                buffer.append(contentsOf: chunk[0..<Int(n)])
                return true
            }
            switch SSL_get_error(ssl, n) {
            case SSL_ERROR_ZERO_RETURN:
                receivedCloseNotify = true
                return false
            case SSL_ERROR_SYSCALL where errno == 0 || errno == ECONNRESET:
                return false
            default:
                throw Failure(description: "SSL_read failed or timed out: errno \(errno)")
            }
        }
        let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        if n == 0 { return false }
        if n < 0 {
            if errno == ECONNRESET { return false }
            throw Failure(description: "recv failed or timed out: errno \(errno)")
        }
        buffer.append(contentsOf: chunk[0..<n])
        return true
    }

    /// Reads one response (Content-Length framed, or until close when there is none).
    func readResponse(readChunk: Int = 64 * 1024, forHead: Bool = false) throws -> Response {
        var headEnd: Int?
        while headEnd == nil {
            headEnd = Self.find([13, 10, 13, 10], in: buffer)
            if headEnd == nil {
                guard try fill(max: readChunk) else { throw Failure(description: "closed before a response head") }
            }
        }
        guard let end = headEnd else { throw Failure(description: "unreachable") }
        let headText = String(decoding: buffer[0..<end], as: UTF8.self)
        var lines = headText.split(separator: "\r\n", omittingEmptySubsequences: false)
        let statusLine = lines.removeFirst()
        let parts = statusLine.split(separator: " ")
        guard parts.count >= 2, let status = Int(parts[1]) else {
            throw Failure(description: "bad status line \(statusLine)")
        }
        var headers = HTTPHeaders()
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers.add(String(line[..<colon]), String(line[line.index(after: colon)...].drop { $0 == " " }))
        }
        buffer.removeFirst(end + 4)
        if status == 100 { return try readResponse(readChunk: readChunk, forHead: forHead) }
        var body: [UInt8] = []
        if forHead || status == 204 || status == 304 {
            // no body
        } else if let lengthText = headers["Content-Length"], let length = Int(lengthText) {
            while buffer.count < length {
                guard try fill(max: readChunk) else { throw Failure(description: "closed mid-body") }
            }
            body = Array(buffer[0..<length])
            buffer.removeFirst(length)
        } else {
            while try fill(max: readChunk) {}
            body = buffer
            buffer = []
        }
        return Response(status: status, headers: headers, body: body)
    }

    /// Reads until `marker` is in the buffered text; returns everything read so far and clears it.
    func readUntil(_ marker: String) throws -> String {
        let needle = Array(marker.utf8)
        while Self.find(needle, in: buffer) == nil {
            guard try fill() else { throw Failure(description: "closed before \(marker.debugDescription)") }
        }
        let text = String(decoding: buffer, as: UTF8.self)
        buffer = []
        return text
    }

    /// Reads until the peer closes; returns what arrived. Throws on timeout.
    func readUntilClosed() throws -> [UInt8] {
        while try fill() {}
        defer { buffer = [] }
        return buffer
    }

    /// Shuts down the write side (half-close).
    func shutdownWrite() { Glibc.shutdown(fd, Int32(SHUT_WR)) }

    static func find(_ needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        for i in 0...(haystack.count - needle.count) where haystack[i] == needle[0] {
            if Array(haystack[i..<(i + needle.count)]) == needle { return i }
        }
        return nil
    }
}

/// Number of this process's open descriptors that are sockets bound to local port `port`: a server's
/// listening and accepted sockets, whatever their TCP state (a leaked descriptor of a finished
/// connection still reports its local address through `getsockname`). Unlike a count of every
/// descriptor, it is not disturbed by other suites opening files or sockets in parallel (their
/// servers listen on other ports; clients have ephemeral local ports).
func openSocketCount(localPort port: Int) -> Int {
    guard let names = try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd") else { return -1 }
    var count = 0
    for name in names {
        guard let fd = Int32(name) else { continue }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFSOCK else { continue }
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let ok = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) == 0 }
        }
        guard ok else { continue }
        let localPort: UInt16
        switch Int32(storage.ss_family) {
        case AF_INET: localPort = withUnsafeBytes(of: storage) { $0.load(as: sockaddr_in.self).sin_port }
        case AF_INET6: localPort = withUnsafeBytes(of: storage) { $0.load(as: sockaddr_in6.self).sin6_port }
        default: continue
        }
        if Int(UInt16(bigEndian: localPort)) == port { count += 1 }
    }
    return count
}

/// Polls `condition` until it holds or `seconds` pass (a condition wait with a bounded poll, not a
/// fixed delay standing in for synchronisation).
func waitUntil(seconds: Double = 10, _ condition: () -> Bool) async -> Bool {
    let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
    while ContinuousClock.now < deadline {
        if condition() { return true }
        try? await Task.sleep(for: .milliseconds(2))
    }
    return condition()
}
