/// What a server reports about one answered request to `HTTPServerConfiguration.observer`: enough
/// for a metrics counter, a latency histogram and an access-log line, and nothing from the request
/// that could hold a secret (no path, no query string, no header).
///
/// Reported when the response head is queued: for a normal response its status and body size; for
/// an event stream its `200` head (`isEventStream`, bytes 0: the stream's lifetime is not latency).
/// Requests refused by the parser (400/413/414/431/501/505) and header/body timeouts (408) are
/// reported with `method`/`route` `nil`. A request whose client left before the reply is not.
package struct HTTPRequestObservation: Sendable {
    /// The server's `HTTPServerConfiguration.name` ("dapp", "ui").
    package let server: String
    /// The local port the request arrived on.
    package let port: Int
    /// `HTTPRequest.id` (per server, from 1); 0 for a request the parser refused.
    package let requestID: UInt64
    /// The request method; `nil` when the request was refused before it was parsed.
    package let method: HTTPMethod?
    /// The route pattern that answered (`HTTPResponder.noteRoute`), `nil` when none did (404,
    /// 405, 501, a gate that refused before routing, a parse error).
    package let route: String?
    /// The status code written.
    package let status: Int
    /// From the complete request (head and body parsed) to its response head being queued.
    package let duration: Duration
    /// Body bytes of the response (0 for HEAD, 204/304 and event streams).
    package let bodyBytes: Int
    /// The response opened an event stream.
    package let isEventStream: Bool

    /// Creates an observation (servers do; public so consumers can be tested without sockets).
    package init(
        server: String, port: Int, requestID: UInt64, method: HTTPMethod?, route: String?, status: Int,
        duration: Duration, bodyBytes: Int, isEventStream: Bool = false
    ) {
        self.server = server
        self.port = port
        self.requestID = requestID
        self.method = method
        self.route = route
        self.status = status
        self.duration = duration
        self.bodyBytes = bodyBytes
        self.isEventStream = isEventStream
    }
}
