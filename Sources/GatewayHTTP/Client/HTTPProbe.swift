import COpenSSL
import Glibc
import Primitives

/// A minimal, blocking HTTP/1.1 `GET` client for health checks (`sigil health`, the container's
/// `HEALTHCHECK`), so the image needs no curl. One request per connection (`Connection: close`),
/// no redirects, no request body, no credentials sent.
///
/// - Bounded: the whole exchange (resolve, connect, TLS handshake, request, response) must finish
///   within `timeout`; every blocking call waits at most the time left. The response is read up to
///   `maxResponseBytes`.
/// - TLS (`https:`): TLS 1.2+; the server's certificate is verified against `caFile` (or the system
///   trust store) and the URL's host name or IP address (RFC 6125 via `SSL_set1_host` /
///   `X509_VERIFY_PARAM_set1_ip_asc`). `insecureLoopback` skips that verification only when the
///   connected peer is a loopback address (the probe sends nothing secret; on loopback the peer is
///   in this network namespace, so no network attacker sits in between; a certificate names the
///   public host, not 127.0.0.1). The peer is checked after connect; any other peer is refused.
/// - Untrusted input: the response bytes; a malformed answer throws, never traps. The body is
///   delimited by `Content-Length` or the close; chunked bodies are not decoded (our server never
///   chunks).
/// - Name resolution uses the system resolver (`getaddrinfo`), whose own timeouts apply before the
///   deadline is checked; a numeric address or `localhost` (the health-check case) resolves at once.
package struct HTTPProbe: Sendable {
    /// A parsed `http://` or `https://` URL.
    package struct Target: Sendable, Equatable {
        package let secure: Bool
        /// Host name or numeric address, without IPv6 brackets.
        package let host: String
        package let port: Int
        /// Path and query, starting with `/`.
        package let path: String

        /// Parses `http(s)://host[:port][/path]` (IPv6 as `[::1]`). Throws `.invalidInput` naming the problem.
        package init(url: String) throws(HTTPError) {
            let lower = url.lowercased()
            let rest: Substring
            if lower.hasPrefix("http://") {
                secure = false
                rest = url.dropFirst(7)
            } else if lower.hasPrefix("https://") {
                secure = true
                rest = url.dropFirst(8)
            } else {
                throw HTTPError(.invalidInput, "URL must start with http:// or https://")
            }
            let slash = rest.firstIndex(of: "/") ?? rest.endIndex
            let authority = rest[..<slash]
            path = slash == rest.endIndex ? "/" : String(rest[slash...])
            if path.utf8.contains(where: { $0 <= 0x20 || $0 == 0x7F }) {
                throw HTTPError(.invalidInput, "URL path has spaces or control characters")
            }
            var hostPart = authority
            var portPart: Substring?
            if authority.hasPrefix("[") {
                guard let close = authority.firstIndex(of: "]") else {
                    throw HTTPError(.invalidInput, "URL has an unterminated IPv6 address")
                }
                hostPart = authority[authority.index(after: authority.startIndex)..<close]
                let after = authority[authority.index(after: close)...]
                if !after.isEmpty {
                    guard after.hasPrefix(":") else { throw HTTPError(.invalidInput, "URL authority is malformed") }
                    portPart = after.dropFirst()
                }
            } else if let colon = authority.lastIndex(of: ":") {
                hostPart = authority[..<colon]
                portPart = authority[authority.index(after: colon)...]
            }
            guard !hostPart.isEmpty, !hostPart.contains("@"),
                hostPart.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "/") })
            else {
                throw HTTPError(.invalidInput, "URL host is missing or malformed")
            }
            host = String(hostPart)
            if let portPart {
                guard let value = Int(portPart), (1...65535).contains(value) else {
                    throw HTTPError(.invalidInput, "URL port must be 1...65535")
                }
                port = value
            } else {
                port = secure ? 443 : 80
            }
        }

        /// The `Host` header value.
        var authority: String {
            let name = host.contains(":") ? "[\(host)]" : host
            return (port == (secure ? 443 : 80)) ? name : "\(name):\(port)"
        }
    }

    /// What came back.
    package struct Response: Sendable {
        /// The status code (e.g. 200).
        package let status: Int
        /// The body (at most `maxResponseBytes`, less the head).
        package let body: [UInt8]
    }

    package let target: Target
    /// The whole exchange's time limit.
    package var timeout: Duration = .seconds(5)
    /// PEM file of the certificate(s) to trust for `https:` (nil: the system trust store).
    package var caFile: String?
    /// Skip certificate verification when, and only when, the peer is a loopback address.
    package var insecureLoopback = false
    /// The most response bytes read (head and body).
    package var maxResponseBytes = 64 * 1024

    /// A probe of `url`. Throws `.invalidInput` for a URL it cannot use.
    package init(url: String) throws(HTTPError) {
        target = try Target(url: url)
    }

    /// Sends `GET` and returns the response. Throws `HTTPError` `.probeFailed` with a one-line reason
    /// (cannot resolve, connection refused, timeout, TLS verification, malformed response).
    package func get() throws(HTTPError) -> Response {
        try exchange(
            Array(
                ("GET \(target.path) HTTP/1.1\r\nHost: \(target.authority)\r\nUser-Agent: sigil-health\r\n"
                    + "Accept: application/json\r\nConnection: close\r\n\r\n").utf8))
    }

    /// Sends `POST` with a JSON body (the ICON node client, `--icon-rpc`) and returns the response.
    /// Same bounds and TLS rules as `get()`.
    package func postJSON(_ body: [UInt8]) throws(HTTPError) -> Response {
        try exchange(
            Array(
                ("POST \(target.path) HTTP/1.1\r\nHost: \(target.authority)\r\nUser-Agent: sigil\r\n"
                    + "Accept: application/json\r\nContent-Type: application/json\r\n"
                    + "Content-Length: \(body.count)\r\nConnection: close\r\n\r\n").utf8) + body)
    }

    /// Sends one request on a new connection and reads the whole response (shared by GET and POST).
    func exchange(_ request: [UInt8]) throws(HTTPError) -> Response {
        let deadline = ProbeDeadline(timeout)
        let fd = try connect(deadline: deadline)
        defer { Glibc.close(fd) }
        var raw: [UInt8]
        if target.secure {
            let channel = try ProbeTLS(fd: fd, target: target, caFile: caFile, insecure: insecureLoopback)
            try channel.handshake(deadline: deadline)
            try channel.write(request, deadline: deadline)
            raw = try channel.readAll(limit: maxResponseBytes, deadline: deadline)
        } else {
            try Self.writeAll(fd, request, deadline: deadline)
            raw = try Self.readAll(fd, limit: maxResponseBytes, deadline: deadline)
        }
        return try Self.parse(raw)
    }

    func connect(deadline: ProbeDeadline) throws(HTTPError) -> Int32 {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_family = AF_UNSPEC
        var list: UnsafeMutablePointer<addrinfo>?
        let rc = getaddrinfo(target.host, String(target.port), &hints, &list)
        guard rc == 0, let first = list else {
            throw HTTPError(
                .probeFailed, "cannot resolve \(target.host.prefix(64)): \(String(cString: gai_strerror(rc)))")
        }
        defer { freeaddrinfo(first) }
        var lastReason = "no address"
        var entry: UnsafeMutablePointer<addrinfo>? = first
        while let info = entry {
            entry = info.pointee.ai_next
            let fd = socket(info.pointee.ai_family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            if fd < 0 { continue }
            var one: Int32 = 1
            _ = ioctl(fd, UInt(FIONBIO), &one)
            if Glibc.connect(fd, info.pointee.ai_addr, info.pointee.ai_addrlen) != 0 {
                let e = errno
                if e != EINPROGRESS {
                    lastReason = Socket.errorName(e)
                    Glibc.close(fd)
                    continue
                }
                guard Self.wait(fd, events: Int16(POLLOUT), deadline: deadline) else {
                    Glibc.close(fd)
                    throw HTTPError(.probeFailed, "connect to \(target.authority): timed out")
                }
                var error: Int32 = 0
                var length = socklen_t(MemoryLayout<Int32>.size)
                getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &length)
                if error != 0 {
                    lastReason = Socket.errorName(error)
                    Glibc.close(fd)
                    continue
                }
            }
            if insecureLoopback {
                guard let peer = Self.peerAddress(fd), peer.isLoopback else {
                    Glibc.close(fd)
                    throw HTTPError(
                        .probeFailed, "--insecure-loopback refused: \(target.host.prefix(64)) is not a loopback address"
                    )
                }
            }
            return fd
        }
        throw HTTPError(.probeFailed, "connect to \(target.authority): \(lastReason)")
    }

    static func peerAddress(_ fd: Int32) -> SocketAddress? {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let rc = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getpeername(fd, $0, &length) }
        }
        return rc == 0 ? Socket.address(storage) : nil
    }

    /// Waits until `fd` is ready for `events`, at most until the deadline.
    static func wait(_ fd: Int32, events: Int16, deadline: ProbeDeadline) -> Bool {
        while true {
            let left = deadline.remainingMilliseconds
            if left <= 0 { return false }
            var item = pollfd(fd: fd, events: events, revents: 0)
            let n = poll(&item, 1, left)
            if n < 0 && errno == EINTR { continue }
            return n > 0
        }
    }

    static func writeAll(_ fd: Int32, _ bytes: [UInt8], deadline: ProbeDeadline) throws(HTTPError) {
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n > 0 {
                offset += n
                continue
            }
            let e = errno
            if n < 0 && (e == EAGAIN || e == EWOULDBLOCK || e == EINTR) {
                guard wait(fd, events: Int16(POLLOUT), deadline: deadline) else {
                    throw HTTPError(.probeFailed, "sending the request: timed out")
                }
                continue
            }
            throw HTTPError(.probeFailed, "sending the request: \(Socket.errorName(e))")
        }
    }

    static func readAll(_ fd: Int32, limit: Int, deadline: ProbeDeadline) throws(HTTPError) -> [UInt8] {
        var result: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        while result.count < limit {
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n > 0 {
                result.append(contentsOf: buffer[0..<min(n, limit - result.count)])
                continue
            }
            if n == 0 { break }
            let e = errno
            if e == EAGAIN || e == EWOULDBLOCK || e == EINTR {
                guard wait(fd, events: Int16(POLLIN), deadline: deadline) else {
                    throw HTTPError(.probeFailed, "reading the response: timed out")
                }
                continue
            }
            if !result.isEmpty { break }
            throw HTTPError(.probeFailed, "reading the response: \(Socket.errorName(e))")
        }
        return result
    }

    /// Splits a raw response into status and body (`Content-Length` honoured when present; the
    /// server closes after it otherwise). Throws `.probeFailed` for anything that is not HTTP/1.x.
    static func parse(_ raw: [UInt8]) throws(HTTPError) -> Response {
        guard !raw.isEmpty else { throw HTTPError(.probeFailed, "the server closed without answering") }
        let separator: [UInt8] = [13, 10, 13, 10]
        guard let end = (0..<max(0, raw.count - 3)).first(where: { raw[$0..<($0 + 4)].elementsEqual(separator) })
        else {
            throw HTTPError(.probeFailed, "the response has no complete head")
        }
        let head = String(decoding: raw[0..<end], as: UTF8.self)
        let lines = head.split(separator: "\r\n", omittingEmptySubsequences: false)
        let statusLine = lines.first.map(String.init) ?? ""
        let parts = statusLine.split(separator: " ", maxSplits: 2)
        guard parts.count >= 2, parts[0].hasPrefix("HTTP/1."), parts[1].count == 3, let status = Int(parts[1]) else {
            throw HTTPError(.probeFailed, "the response does not start with an HTTP/1.x status line")
        }
        var body = Array(raw[(end + 4)...])
        for line in lines.dropFirst() {
            let field = line.split(separator: ":", maxSplits: 1)
            guard field.count == 2, field[0].lowercased() == "content-length" else { continue }
            if let length = Int(field[1].filter { $0 != " " && $0 != "\t" }), length >= 0, length < body.count {
                body = Array(body[0..<length])
            }
        }
        return Response(status: status, body: body)
    }
}

/// A monotonic deadline (`CLOCK_MONOTONIC` through `ContinuousClock`).
struct ProbeDeadline: Sendable {
    private let end: ContinuousClock.Instant

    init(_ timeout: Duration) { end = ContinuousClock.now.advanced(by: timeout) }

    /// Milliseconds left, rounded up, 0 when past.
    var remainingMilliseconds: Int32 {
        let left = ContinuousClock.now.duration(to: end)
        if left <= .zero { return 0 }
        let ms = left.nanoseconds / 1_000_000 + 1
        return Int32(clamping: ms)
    }
}
