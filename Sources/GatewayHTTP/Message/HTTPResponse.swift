/// A complete response: status, headers and body bytes. The writer adds `Content-Length`, `Date`
/// and `Connection`; a handler sets anything else (CORS, CSP, `Vary`, caching) in `headers`.
package struct HTTPResponse: Sendable {
    package var status: HTTPStatus
    package var headers: HTTPHeaders
    /// The content. Ignored (not sent) for HEAD requests and for 1xx/204/304 statuses.
    package var body: [UInt8]

    package init(status: HTTPStatus = .ok, headers: HTTPHeaders = [:], body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// A `text/plain; charset=utf-8` response.
    package static func text(_ text: String, status: HTTPStatus = .ok) -> HTTPResponse {
        HTTPResponse(
            status: status, headers: ["Content-Type": "text/plain; charset=utf-8"], body: Array(text.utf8))
    }

    /// An `application/json` response carrying already-encoded JSON bytes.
    package static func json(_ bytes: [UInt8], status: HTTPStatus = .ok) -> HTTPResponse {
        HTTPResponse(status: status, headers: ["Content-Type": "application/json"], body: bytes)
    }

    /// An empty response with the given status (`Content-Length: 0` unless the status forbids a body).
    package static func status(_ status: HTTPStatus) -> HTTPResponse {
        HTTPResponse(status: status)
    }
}
