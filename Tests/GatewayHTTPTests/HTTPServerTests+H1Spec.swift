import Testing

@testable import GatewayHTTP

/// The raw-socket cases of uNetworking/h1spec `http_test.ts` (docs/reference/http-server.md §4), as data, run
/// against the real server with an echo-everything handler as h1spec requires.
extension HTTPServerTests {
    struct EchoAll: HTTPHandler {
        func handle(_ request: HTTPRequest, responder: HTTPResponder) {
            responder.send(HTTPResponse(status: .ok, body: request.body))
        }
    }

    struct H1SpecCase: Sendable, CustomTestStringConvertible {
        let description: String
        let request: String
        let accepted: [ClosedRange<Int>]
        var testDescription: String { description }
    }

    static let h1specCases: [H1SpecCase] = [
        .init(description: "Request without HTTP version", request: "GET / \r\n\r\n", accepted: [400...599]),
        .init(
            description: "Request with Expect header",
            request: "GET / HTTP/1.1\r\nHost: example.com\r\nExpect: 100-continue\r\n\r\n",
            accepted: [100...100, 200...299]),
        .init(
            description: "Valid GET request", request: "GET / HTTP/1.1\r\nHost: example.com\r\n\r\n",
            accepted: [200...299]),
        .init(
            description: "Valid GET request with edge cases",
            request: "GET / HTTP/1.1\r\nhoSt:\texample.com\r\nempty:\r\n\r\n", accepted: [200...299]),
        .init(
            description: "Invalid header characters",
            request: "GET / HTTP/1.1\r\nHost: example.com\r\nX-Invalid[]: test\r\n\r\n", accepted: [400...499]),
        .init(
            description: "Missing Host header", request: "GET / HTTP/1.1\r\nContent-Length: 5\r\n\r\n",
            accepted: [400...499]),
        .init(
            description: "Multiple Host headers",
            request: "GET / HTTP/1.1\r\nHost: example.com\r\nHost: example.org\r\n\r\n", accepted: [400...499]),
        .init(
            description: "Overflowing negative Content-Length header",
            request: "GET / HTTP/1.1\r\nHost: example.com\r\nContent-Length: -123456789123456789123456789\r\n\r\n",
            accepted: [400...499]),
        .init(
            description: "Negative Content-Length header",
            request: "GET / HTTP/1.1\r\nHost: example.com\r\nContent-Length: -1234\r\n\r\n", accepted: [400...499]),
        .init(
            description: "Non-numeric Content-Length header",
            request: "GET / HTTP/1.1\r\nHost: example.com\r\nContent-Length: abc\r\n\r\n", accepted: [400...499]),
        .init(
            description: "Empty header value",
            request: "GET / HTTP/1.1\r\nHost: example.com\r\nX-Empty-Header: \r\n\r\n", accepted: [200...299]),
        .init(
            description: "Header containing invalid control character",
            request: "GET / HTTP/1.1\r\nHost: example.com\r\nX-Bad-Control-Char: test\u{07}\r\n\r\n",
            accepted: [400...499]),
        .init(
            description: "Invalid HTTP version", request: "GET / HTTP/9.9\r\nHost: example.com\r\n\r\n",
            accepted: [400...499, 500...599]),
        .init(
            description: "Invalid prefix of request", request: "Extra lineGET / HTTP/1.1\r\nHost: example.com\r\n\r\n",
            accepted: [400...499, 500...599]),
        .init(
            description: "Invalid line ending",
            request: "GET / HTTP/1.1\r\nHost: example.com\r\n\rSome-Header: Test\r\n\r\n", accepted: [400...499]),
        .init(
            description: "Valid POST request with body",
            request: "POST / HTTP/1.1\r\nHost: example.com\r\nContent-Length: 5\r\n\r\nhello", accepted: [200...299]),
        .init(
            description: "Conflicting Transfer-Encoding and Content-Length",
            request: "GET / HTTP/1.1\r\nHost: example.com\r\nTransfer-Encoding: chunked\r\nContent-Length: 5\r\n\r\n",
            accepted: [400...499]),
    ]

    @Test(arguments: h1specCases)
    func passesH1SpecCase(_ vector: H1SpecCase) async throws {
        try await withServer(handler: EchoAll()) { server in
            let client = try TestClient(port: server.port)
            try client.send(vector.request)
            let status = try client.readResponse().status
            #expect(vector.accepted.contains { $0.contains(status) }, "status \(status)")
        }
    }

    /// h1spec's "fragmented" cases: every prefix of a valid request must make the server wait (no
    /// answer, no error); when the rest arrives, the request is answered normally.
    @Test func waitsForEveryFragmentOfARequest() async throws {
        let full = "GET /hello HTTP/1.1\r\nHost: localhost\r\n\r\n"
        try await withServer(handler: EchoAll()) { server in
            for cut in [1, 4, 10, 11, 15, 19, 20, 21, 24, 26, 27, 36, 37, 38, 39] {
                let client = try TestClient(port: server.port)
                try client.send(Array(full.utf8.prefix(cut)))
                try client.send(Array(full.utf8.dropFirst(cut)))
                #expect(try client.readResponse().status == 200, "cut at \(cut)")
            }
            for cut in 1..<full.utf8.count {
                var parser = HTTPRequestParser()
                parser.feed(Array(full.utf8.prefix(cut)))
                #expect(try parser.nextMessage() == nil, "prefix of \(cut) bytes")
            }
        }
    }
}
