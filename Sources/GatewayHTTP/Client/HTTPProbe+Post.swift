/// `POST` for the same minimal client: one request per connection, a body of the given type, the
/// same deadline, TLS verification and response bound as `get()`. Used to submit signed Internet
/// Computer requests to `--ic-url` (no credentials; the body is a signed, public envelope).
extension HTTPProbe {
    package func post(_ body: [UInt8], contentType: String) throws(HTTPError) -> Response {
        try exchange(
            Array(
                ("POST \(target.path) HTTP/1.1\r\nHost: \(target.authority)\r\nUser-Agent: sigil\r\n"
                    + "Content-Type: \(contentType)\r\nContent-Length: \(body.count)\r\nConnection: close\r\n\r\n")
                    .utf8) + body)
    }
}
