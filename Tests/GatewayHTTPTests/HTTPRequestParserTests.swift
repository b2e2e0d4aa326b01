import Primitives
import Testing

@testable import GatewayHTTP

/// Parser vectors: RFC 9112 framing, request-smuggling and malformed inputs, and the payloads listed
/// in docs/reference/http-server.md §4 (h1spec, http-garden "trophies", llhttp request vectors).
@Suite struct HTTPRequestParserTests {
    struct Rejection: CustomTestStringConvertible, Sendable {
        let name: String
        let raw: String
        let code: HTTPError.Code
        var testDescription: String { name }
    }

    static let rejections: [Rejection] = [
        // Host (RFC 9112 §3.2)
        .init(name: "1.1 without Host", raw: "GET / HTTP/1.1\r\n\r\n", code: .badRequest),
        .init(name: "two Host fields", raw: "GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n", code: .badRequest),
        .init(name: "two Host fields on 1.0", raw: "GET / HTTP/1.0\r\nHost: a\r\nHost: a\r\n\r\n", code: .badRequest),
        .init(name: "Host with a space", raw: "GET / HTTP/1.1\r\nHost: a b\r\n\r\n", code: .badRequest),
        // Content-Length (RFC 9110 §8.6, RFC 9112 §6.3)
        .init(
            name: "duplicate equal Content-Length",
            raw: "POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 1\r\nContent-Length: 1\r\n\r\nx", code: .badRequest),
        .init(
            name: "conflicting Content-Length",
            raw: "POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nxx", code: .badRequest),
        .init(
            name: "Content-Length list", raw: "POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 1, 1\r\n\r\nx",
            code: .badRequest),
        .init(
            name: "Content-Length with plus sign", raw: "POST / HTTP/1.1\r\nHost: a\r\nContent-Length: +5\r\n\r\nhello",
            code: .badRequest),
        .init(
            name: "negative Content-Length", raw: "POST / HTTP/1.1\r\nHost: a\r\nContent-Length: -1\r\n\r\n",
            code: .badRequest),
        .init(
            name: "hex Content-Length", raw: "POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 0x5\r\n\r\nhello",
            code: .badRequest),
        .init(
            name: "non-numeric Content-Length", raw: "POST / HTTP/1.1\r\nHost: a\r\nContent-Length: abc\r\n\r\n",
            code: .badRequest),
        .init(
            name: "empty Content-Length", raw: "POST / HTTP/1.1\r\nHost: a\r\nContent-Length:\r\n\r\n",
            code: .badRequest),
        .init(
            name: "Content-Length with inner space", raw: "POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 1 2\r\n\r\n",
            code: .badRequest),
        .init(
            name: "overflowing Content-Length",
            raw: "POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 99999999999999999999999\r\n\r\n", code: .bodyTooLarge),
        .init(
            name: "Content-Length over the body limit",
            raw: "POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 262145\r\n\r\n", code: .bodyTooLarge),
        // Transfer-Encoding (RFC 9112 §6.1, §6.3)
        .init(
            name: "Transfer-Encoding and Content-Length",
            raw: "POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
            code: .badRequest),
        .init(
            name: "Transfer-Encoding on HTTP/1.0",
            raw: "POST / HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n", code: .badRequest),
        .init(
            name: "chunked not last", raw: "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked, gzip\r\n\r\n",
            code: .badRequest),
        .init(
            name: "chunked twice", raw: "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked, chunked\r\n\r\n",
            code: .badRequest),
        .init(
            name: "unknown coding before chunked",
            raw: "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: gzip, chunked\r\n\r\n", code: .notImplemented),
        .init(
            name: "identity coding", raw: "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: identity\r\n\r\n",
            code: .badRequest),
        .init(
            name: "obfuscated chunked", raw: "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: xchunked\r\n\r\n",
            code: .badRequest),
        .init(
            name: "empty Transfer-Encoding", raw: "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding:\r\n\r\n",
            code: .badRequest),
        // Chunked bodies (RFC 9112 §7.1)
        .init(
            name: "chunk size with 0x prefix",
            raw: "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n0x5\r\nhello\r\n0\r\n\r\n",
            code: .badRequest),
        .init(
            name: "chunk size not hex",
            raw: "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nhello\r\n0\r\n\r\n",
            code: .badRequest),
        .init(
            name: "empty chunk size",
            raw: "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n\r\nhello\r\n0\r\n\r\n",
            code: .badRequest),
        .init(
            name: "negative chunk size",
            raw: "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n-5\r\nhello\r\n0\r\n\r\n",
            code: .badRequest),
        .init(
            name: "huge chunk size",
            raw: "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\nffffffffffffffffff\r\n",
            code: .bodyTooLarge),
        .init(
            name: "chunk data longer than its size",
            raw: "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nhello\r\n0\r\n\r\n",
            code: .badRequest),
        .init(
            name: "bare CR in a chunk extension",
            raw: "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n5;a=\rb\r\nhello\r\n0\r\n\r\n",
            code: .badRequest),
        .init(
            name: "bare LF after chunk size",
            raw: "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n5\nhello\r\n0\r\n\r\n",
            code: .badRequest),
        .init(
            name: "NUL in a chunk extension",
            raw: "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n5;a=\u{0}\r\nhello\r\n0\r\n\r\n",
            code: .badRequest),
        .init(
            name: "chunk size followed by junk",
            raw: "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n5 x\r\nhello\r\n0\r\n\r\n",
            code: .badRequest),
        .init(
            name: "obs-fold in a trailer",
            raw: "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n0\r\nX: a\r\n b\r\n\r\n",
            code: .badRequest),
        // Field syntax (RFC 9112 §5)
        .init(name: "space before the colon", raw: "GET / HTTP/1.1\r\nHost : a\r\n\r\n", code: .badRequest),
        .init(name: "tab before the colon", raw: "GET / HTTP/1.1\r\nHost\t: a\r\n\r\n", code: .badRequest),
        .init(
            name: "Content-Length with space before colon",
            raw: "POST / HTTP/1.1\r\nHost: a\r\nContent-Length : 5\r\n\r\nhello", code: .badRequest),
        .init(name: "obs-fold", raw: "GET / HTTP/1.1\r\nHost: a\r\nX-A: b\r\n c\r\n\r\n", code: .badRequest),
        .init(name: "whitespace before the first field", raw: "GET / HTTP/1.1\r\n Host: a\r\n\r\n", code: .badRequest),
        .init(name: "NUL in a value", raw: "GET / HTTP/1.1\r\nHost: a\r\nX: a\u{0}b\r\n\r\n", code: .badRequest),
        .init(name: "bare CR in a value", raw: "GET / HTTP/1.1\r\nHost: a\r\nX: a\rb\r\n\r\n", code: .badRequest),
        .init(name: "bare LF line ending", raw: "GET / HTTP/1.1\nHost: a\n\n", code: .badRequest),
        .init(name: "bare LF inside a value", raw: "GET / HTTP/1.1\r\nHost: a\r\nX: a\nb\r\n\r\n", code: .badRequest),
        .init(name: "DEL in a value", raw: "GET / HTTP/1.1\r\nHost: a\r\nX: a\u{7F}\r\n\r\n", code: .badRequest),
        .init(
            name: "vertical tab in a value", raw: "GET / HTTP/1.1\r\nHost: a\r\nX: a\u{0B}\r\n\r\n", code: .badRequest),
        .init(name: "empty field name", raw: "GET / HTTP/1.1\r\nHost: a\r\n: b\r\n\r\n", code: .badRequest),
        .init(name: "field line without colon", raw: "GET / HTTP/1.1\r\nHost: a\r\nNoColon\r\n\r\n", code: .badRequest),
        .init(name: "non-token field name", raw: "GET / HTTP/1.1\r\nHost: a\r\nX(y): b\r\n\r\n", code: .badRequest),
        // Request line (RFC 9112 §3)
        .init(name: "two spaces after the method", raw: "GET  / HTTP/1.1\r\nHost: a\r\n\r\n", code: .badRequest),
        .init(name: "tab as separator", raw: "GET\t/ HTTP/1.1\r\nHost: a\r\n\r\n", code: .badRequest),
        .init(name: "lower-case version", raw: "GET / http/1.1\r\nHost: a\r\n\r\n", code: .badRequest),
        .init(name: "version with two minor digits", raw: "GET / HTTP/1.10\r\nHost: a\r\n\r\n", code: .badRequest),
        .init(name: "version prefix junk", raw: "GET / XHTTP/1.1\r\nHost: a\r\n\r\n", code: .badRequest),
        .init(name: "missing version", raw: "GET /\r\nHost: a\r\n\r\n", code: .badRequest),
        .init(name: "trailing space after version", raw: "GET / HTTP/1.1 \r\nHost: a\r\n\r\n", code: .badRequest),
        .init(name: "HTTP/2.0", raw: "GET / HTTP/2.0\r\nHost: a\r\n\r\n", code: .versionNotSupported),
        .init(name: "HTTP/0.9 style", raw: "GET / HTTP/0.9\r\nHost: a\r\n\r\n", code: .versionNotSupported),
        .init(name: "h2 preface", raw: "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n", code: .versionNotSupported),
        .init(name: "method with a control byte", raw: "G\u{1}T / HTTP/1.1\r\nHost: a\r\n\r\n", code: .badRequest),
        .init(name: "empty method", raw: " / HTTP/1.1\r\nHost: a\r\n\r\n", code: .badRequest),
        .init(name: "target with a control byte", raw: "GET /a\u{1}b HTTP/1.1\r\nHost: a\r\n\r\n", code: .badRequest),
        .init(name: "target with non-ASCII", raw: "GET /é HTTP/1.1\r\nHost: a\r\n\r\n", code: .badRequest),
        .init(name: "target not origin-form", raw: "GET a/b HTTP/1.1\r\nHost: a\r\n\r\n", code: .badRequest),
        .init(name: "asterisk outside OPTIONS", raw: "GET * HTTP/1.1\r\nHost: a\r\n\r\n", code: .badRequest),
        .init(name: "CONNECT", raw: "CONNECT a:443 HTTP/1.1\r\nHost: a:443\r\n\r\n", code: .notImplemented),
        .init(name: "bare CR in the request line", raw: "GET / HTTP/1.1\rHost: a\r\n\r\n", code: .badRequest),
        .init(
            name: "too many empty lines first",
            raw: String(repeating: "\r\n", count: 9) + "GET / HTTP/1.1\r\nHost: a\r\n\r\n",
            code: .badRequest),
        // Expect (RFC 9110 §10.1.1)
        .init(
            name: "unknown expectation",
            raw: "POST / HTTP/1.1\r\nHost: a\r\nExpect: 200-ok\r\nContent-Length: 0\r\n\r\n",
            code: .expectationFailed),
        // Limits
        .init(
            name: "request line over 8 KiB",
            raw: "GET /" + String(repeating: "a", count: 9000) + " HTTP/1.1\r\nHost: a\r\n\r\n",
            code: .uriTooLong),
        .init(
            name: "header section over 16 KiB",
            raw: "GET / HTTP/1.1\r\nHost: a\r\nX: " + String(repeating: "a", count: 17000) + "\r\n\r\n",
            code: .headersTooLarge),
        .init(
            name: "65 header fields",
            raw: "GET / HTTP/1.1\r\nHost: a\r\n" + (0..<64).map { "X-\($0): v\r\n" }.joined() + "\r\n",
            code: .headersTooLarge),
        .init(
            name: "trailers over 16 KiB",
            raw: "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n0\r\nX: "
                + String(repeating: "a", count: 17000) + "\r\n\r\n",
            code: .headersTooLarge),
        .init(
            name: "chunked body over the limit",
            raw: "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n40001\r\n", code: .bodyTooLarge),
    ]

    @Test(arguments: rejections)
    func rejectsMalformedRequest(_ vector: Rejection) {
        var parser = HTTPRequestParser()
        parser.feed(Array(vector.raw.utf8))
        #expect(throws: HTTPError(vector.code, "")) { _ = try Self.drain(&parser) }
        // The parser stays failed: never resynchronised after a framing error.
        #expect(throws: HTTPError(vector.code, "")) { _ = try parser.nextMessage() }
    }

    @Test(arguments: rejections)
    func rejectsMalformedRequestFedOneByteAtATime(_ vector: Rejection) {
        var parser = HTTPRequestParser()
        #expect(throws: HTTPError(vector.code, "")) {
            for byte in vector.raw.utf8 {
                parser.feed([byte])
                _ = try Self.drain(&parser)
            }
        }
    }

    struct Acceptance: CustomTestStringConvertible, Sendable {
        let name: String
        let raw: String
        let method: String
        let path: String
        let body: String
        let keepAlive: Bool
        var testDescription: String { name }
    }

    static let acceptances: [Acceptance] = [
        .init(
            name: "simple GET", raw: "GET /bridge.js HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n",
            method: "GET", path: "/bridge.js", body: "", keepAlive: true),
        .init(
            name: "Connection: close", raw: "GET / HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n",
            method: "GET", path: "/", body: "", keepAlive: false),
        .init(
            name: "Connection list with close", raw: "GET / HTTP/1.1\r\nHost: a\r\nConnection: Upgrade, Close\r\n\r\n",
            method: "GET", path: "/", body: "", keepAlive: false),
        .init(
            name: "HTTP/1.0 closes by default", raw: "GET / HTTP/1.0\r\n\r\n",
            method: "GET", path: "/", body: "", keepAlive: false),
        .init(
            name: "HTTP/1.0 keep-alive", raw: "GET / HTTP/1.0\r\nConnection: keep-alive\r\n\r\n",
            method: "GET", path: "/", body: "", keepAlive: true),
        .init(
            name: "HTTP/1.2 is answered as 1.1", raw: "GET / HTTP/1.2\r\nHost: a\r\n\r\n",
            method: "GET", path: "/", body: "", keepAlive: true),
        .init(
            name: "Content-Length body", raw: "POST /rpc HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\n\r\nhello",
            method: "POST", path: "/rpc", body: "hello", keepAlive: true),
        .init(
            name: "Content-Length with leading zeros",
            raw: "POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 005\r\n\r\nhello",
            method: "POST", path: "/", body: "hello", keepAlive: true),
        .init(
            name: "chunked body with extension and trailer",
            raw:
                "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: Chunked\r\n\r\n5;ext=1\r\nhello\r\n6 \r\n world\r\n0\r\nX-T: 1\r\n\r\n",
            method: "POST", path: "/", body: "hello world", keepAlive: true),
        .init(
            name: "upper-case hex chunk size",
            raw: "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\nA\r\n0123456789\r\n0\r\n\r\n",
            method: "POST", path: "/", body: "0123456789", keepAlive: true),
        .init(
            name: "query string", raw: "GET /events?lastEventID=7&x=%20y HTTP/1.1\r\nHost: a\r\n\r\n",
            method: "GET", path: "/events", body: "", keepAlive: true),
        .init(
            name: "absolute-form",
            raw: "GET http://127.0.0.1:9715/bridge.js?x=1 HTTP/1.1\r\nHost: 127.0.0.1:9715\r\n\r\n",
            method: "GET", path: "/bridge.js", body: "", keepAlive: true),
        .init(
            name: "absolute-form with an upper-case scheme (RFC 3986 §3.1: case-insensitive)",
            raw: "GET HTTP://127.0.0.1:9715/bridge.js HTTP/1.1\r\nHost: 127.0.0.1:9715\r\n\r\n",
            method: "GET", path: "/bridge.js", body: "", keepAlive: true),
        .init(
            name: "asterisk-form OPTIONS", raw: "OPTIONS * HTTP/1.1\r\nHost: a\r\n\r\n",
            method: "OPTIONS", path: "*", body: "", keepAlive: true),
        .init(
            name: "leading empty line", raw: "\r\nGET / HTTP/1.1\r\nHost: a\r\n\r\n",
            method: "GET", path: "/", body: "", keepAlive: true),
        .init(
            name: "OWS around a value", raw: "GET / HTTP/1.1\r\nHost: \t a \t\r\n\r\n",
            method: "GET", path: "/", body: "", keepAlive: true),
        .init(
            name: "empty Host", raw: "GET / HTTP/1.1\r\nHost:\r\n\r\n", method: "GET", path: "/", body: "",
            keepAlive: true),
        .init(
            name: "unknown method token", raw: "PURGE / HTTP/1.1\r\nHost: a\r\n\r\n",
            method: "PURGE", path: "/", body: "", keepAlive: true),
        .init(
            name: "obs-text in a value", raw: "GET / HTTP/1.1\r\nHost: a\r\nX: caf\u{E9}\r\n\r\n",
            method: "GET", path: "/", body: "", keepAlive: true),
        .init(
            name: "exactly 64 fields",
            raw: "GET / HTTP/1.1\r\nHost: a\r\n" + (0..<63).map { "X-\($0): v\r\n" }.joined() + "\r\n",
            method: "GET", path: "/", body: "", keepAlive: true),
    ]

    @Test(arguments: acceptances)
    func parsesValidRequest(_ vector: Acceptance) throws {
        for split in [0, 1, 7] {
            var parser = HTTPRequestParser()
            var messages: [HTTPRequestParser.Message] = []
            let bytes = Array(vector.raw.utf8)
            if split == 0 {
                parser.feed(bytes)
                messages += try Self.drain(&parser)
            } else {
                var index = 0
                while index < bytes.count {
                    parser.feed(bytes[index..<min(index + split, bytes.count)])
                    messages += try Self.drain(&parser)
                    index += split
                }
            }
            let message = try #require(messages.count == 1 ? messages.first : nil, "split \(split)")
            #expect(message.request.method.rawValue == vector.method)
            #expect(message.request.path == vector.path)
            #expect(message.request.body == Array(vector.body.utf8))
            #expect(message.keepAlive == vector.keepAlive)
            #expect(parser.phase == .idle)
        }
    }

    @Test func keepsHeaderOrderAndCaseInsensitiveLookup() throws {
        var parser = HTTPRequestParser()
        parser.feed(Array("GET / HTTP/1.1\r\nHost: h\r\nORIGIN: https://dapp.example\r\nx-a: 1\r\nX-A: 2\r\n\r\n".utf8))
        let message = try #require(try parser.nextMessage())
        #expect(message.request.headers["origin"] == "https://dapp.example")
        #expect(message.request.headers.values("x-a") == ["1", "2"])
        #expect(message.request.headers.fields.map(\.name) == ["Host", "ORIGIN", "x-a", "X-A"])
    }

    @Test func parsesPipelinedRequestsInOrder() throws {
        var parser = HTTPRequestParser()
        parser.feed(
            Array(
                ("GET /1 HTTP/1.1\r\nHost: a\r\n\r\nPOST /2 HTTP/1.1\r\nHost: a\r\nContent-Length: 3\r\n\r\nabc"
                    + "POST /3 HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n1\r\nz\r\n0\r\n\r\nGET /4 HTTP/1.1\r\n")
                    .utf8))
        let messages = try Self.drain(&parser)
        #expect(messages.map(\.request.path) == ["/1", "/2", "/3"])
        #expect(messages[1].request.body == Array("abc".utf8))
        #expect(messages[2].request.body == Array("z".utf8))
        #expect(parser.phase == .head)
        parser.feed(Array("Host: a\r\n\r\n".utf8))
        #expect(try parser.nextMessage()?.request.path == "/4")
    }

    @Test func reportsPhasesForDeadlines() throws {
        var parser = HTTPRequestParser()
        #expect(parser.phase == .idle)
        parser.feed(Array("POST / HTTP/1.1\r\nHo".utf8))
        #expect(try parser.nextMessage() == nil)
        #expect(parser.phase == .head)
        parser.feed(Array("st: a\r\nContent-Length: 4\r\n\r\nab".utf8))
        #expect(try parser.nextMessage() == nil)
        #expect(parser.phase == .body)
        parser.feed(Array("cd".utf8))
        #expect(try parser.nextMessage()?.request.body == Array("abcd".utf8))
        #expect(parser.phase == .idle)
    }

    @Test func asksForContinueOnlyBeforeTheBody() throws {
        var parser = HTTPRequestParser()
        parser.feed(Array("POST / HTTP/1.1\r\nHost: a\r\nExpect: 100-continue\r\nContent-Length: 2\r\n\r\n".utf8))
        #expect(try parser.nextMessage() == nil)
        #expect(parser.wantsContinue)
        parser.markContinueSent()
        #expect(!parser.wantsContinue)
        parser.feed(Array("ok".utf8))
        #expect(try parser.nextMessage()?.request.body == Array("ok".utf8))
    }

    @Test func ignoresExpectOnHTTP10() throws {
        var parser = HTTPRequestParser()
        parser.feed(Array("POST / HTTP/1.0\r\nExpect: 100-continue\r\nContent-Length: 0\r\n\r\n".utf8))
        #expect(try parser.nextMessage() != nil)
        #expect(!parser.wantsContinue)
    }

    @Test func acceptsABodyExactlyAtTheLimit() throws {
        var parser = HTTPRequestParser(limits: HTTPLimits(maxBodyBytes: 10))
        parser.feed(
            Array(
                "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n5\r\n01234\r\n5\r\n56789\r\n0\r\n\r\n"
                    .utf8))
        #expect(try parser.nextMessage()?.request.body.count == 10)
        parser.feed(Array("POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n5\r\n01234\r\n6\r\n".utf8))
        #expect(throws: HTTPError(.bodyTooLarge, "")) { _ = try parser.nextMessage() }
    }

    @Test func decodesQueryParameters() {
        let request = HTTPRequest(method: .get, target: "/events?lastEventID=a%2Fb&empty=&plus=a+b&bad=%zz")
        #expect(request.path == "/events")
        #expect(request.queryParameter("lastEventID") == "a/b")
        #expect(request.queryParameter("empty") == "")
        #expect(request.queryParameter("plus") == "a b")
        #expect(request.queryParameter("bad") == nil)
        #expect(request.queryParameter("missing") == nil)
    }

    static func drain(_ parser: inout HTTPRequestParser) throws -> [HTTPRequestParser.Message] {
        var messages: [HTTPRequestParser.Message] = []
        while let message = try parser.nextMessage() { messages.append(message) }
        return messages
    }

    @Test(arguments: [Int.max, Int.max / 2, 1 << 62])
    func aChunkSizeBeyondSixtyFourBitsNeverWrapsAroundEvenWithAHugeLimit(limit: Int) {
        // 0x1_0000_0000_0000_0001 would wrap to 1 in 64-bit arithmetic and frame "X" as the body.
        var parser = HTTPRequestParser(limits: HTTPLimits(maxBodyBytes: limit))
        parser.feed(Array("POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n".utf8))
        parser.feed(Array("10000000000000001\r\nX\r\n0\r\n\r\n".utf8))
        #expect(throws: HTTPError(.bodyTooLarge, "")) { _ = try parser.nextMessage() }
    }

    @Test func headerDescriptionsNeverShowCredentials() {
        let headers: HTTPHeaders = [
            "Host": "127.0.0.1", "Authorization": "Bearer s3cret-a", "X-Sigil-Token": "s3cret-b",
            "cookie": "id=s3cret-c", "X-Sigil-Session": "s3cret-d",
        ]
        #expect(!headers.description.contains("s3cret"))
        #expect(headers.description.contains("Host: 127.0.0.1"))
        #expect(headers.description.contains("X-Sigil-Token: <redacted>"))
    }
}
