import Dispatch
import Foundation
import Glibc

/// A minimal blocking HTTP/1.1 client over a loopback socket, for tests (no Foundation networking).
/// Sends one request with `Connection: close` and reads until EOF, or until `until` appears in the
/// response (event streams), with a receive timeout so a broken server fails the test instead of
/// hanging it.
enum RawHTTPClient {
    struct Response {
        var status: Int
        var headers: [(String, String)]
        var body: [UInt8]
        func header(_ name: String) -> String? {
            headers.first { $0.0.lowercased() == name.lowercased() }?.1
        }
        var text: String { String(decoding: body, as: UTF8.self) }
    }

    /// Runs the blocking exchange on a Dispatch thread, never on Swift's cooperative pool (which the
    /// server's async handlers need: blocking it from tests would starve them).
    static func send(
        port: Int, method: String, path: String, headers: [(String, String)] = [], body: [UInt8] = [],
        host: String? = nil, until: String? = nil
    ) async throws -> Response {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(
                    with: Result {
                        try blockingSend(
                            port: port, method: method, path: path, headers: headers, body: body, host: host,
                            until: until)
                    })
            }
        }
    }

    static func blockingSend(
        port: Int, method: String, path: String, headers: [(String, String)], body: [UInt8],
        host: String?, until: String?
    ) throws -> Response {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw ClientError.socket }
        defer { close(fd) }
        // Generous: a loaded 2-core machine running every suite in parallel can take seconds to answer;
        // a server that never answers still fails the test (`.timedOut`), it only takes longer.
        var timeout = timeval(tv_sec: 60, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else { throw ClientError.connect }
        var head = "\(method) \(path) HTTP/1.1\r\nHost: \(host ?? "127.0.0.1:\(port)")\r\nConnection: close\r\n"
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        if !body.isEmpty || method == "POST" { head += "Content-Length: \(body.count)\r\n" }
        head += "\r\n"
        let out = Array(head.utf8) + body
        var sent = 0
        while sent < out.count {
            let n = out[sent...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard n > 0 else { throw ClientError.send }
            sent += n
        }
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) && received.isEmpty { throw ClientError.timedOut }
            if n <= 0 { break }
            received += buffer[0..<n]
            if let until, String(decoding: received, as: UTF8.self).contains(until) { break }
        }
        return try parse(received)
    }

    static func parse(_ bytes: [UInt8]) throws -> Response {
        let text = String(decoding: bytes, as: UTF8.self)
        guard let split = text.range(of: "\r\n\r\n") else { throw ClientError.malformed }
        let headLines = text[..<split.lowerBound].components(separatedBy: "\r\n")
        guard let statusLine = headLines.first, statusLine.count >= 12,
            let status = Int(statusLine.dropFirst(9).prefix(3))
        else { throw ClientError.malformed }
        var headers: [(String, String)] = []
        for line in headLines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers.append(
                (String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)))
        }
        let headLength = text[..<split.upperBound].utf8.count
        return Response(status: status, headers: headers, body: Array(bytes[headLength...]))
    }

    enum ClientError: Error { case socket, connect, send, malformed, timedOut }
}
