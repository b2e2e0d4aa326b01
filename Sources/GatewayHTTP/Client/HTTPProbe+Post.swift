import Glibc

/// `POST` for the same minimal client: one request per connection, a body of the given type, the
/// same deadline, TLS verification and response bound as `get()`. Used to submit signed Internet
/// Computer requests to `--ic-url` (no credentials; the body is a signed, public envelope).
extension HTTPProbe {
    public func post(_ body: [UInt8], contentType: String) throws(HTTPError) -> Response {
        let deadline = ProbeDeadline(timeout)
        let fd = try connect(deadline: deadline)
        defer { Glibc.close(fd) }
        let request =
            Array(
                ("POST \(target.path) HTTP/1.1\r\nHost: \(target.authority)\r\nUser-Agent: sigil\r\n"
                    + "Content-Type: \(contentType)\r\nContent-Length: \(body.count)\r\nConnection: close\r\n\r\n")
                    .utf8) + body
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
}
