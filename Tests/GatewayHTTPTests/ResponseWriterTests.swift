import Glibc
import Testing

@testable import GatewayHTTP

@Suite struct ResponseWriterTests {
    static func text(_ head: ResponseWriter.Head) -> String { String(decoding: head.bytes, as: UTF8.self) }

    @Test func writesStatusLineDateLengthAndHandlerHeadersInOrder() {
        let response = HTTPResponse(
            status: .ok, headers: ["Content-Type": "text/plain", "Vary": "Origin"], body: Array("hi".utf8))
        let head = ResponseWriter.head(for: response, method: .get, version: .http11, keepAlive: true)
        let lines = Self.text(head).split(separator: "\r\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines[0] == "HTTP/1.1 200 OK")
        #expect(lines[1].hasPrefix("Date: ") && lines[1].hasSuffix(" GMT"))
        #expect(Array(lines[2...]) == ["Content-Type: text/plain", "Vary: Origin", "Content-Length: 2", "", ""])
        #expect(head.sendsBody && head.keepAlive)
    }

    @Test func replacesFramingHeadersSetByHandlers() {
        let response = HTTPResponse(
            headers: [
                "Content-Length": "999", "Transfer-Encoding": "chunked", "Date": "x", "Connection": "keep-alive",
            ],
            body: Array("abc".utf8))
        let text = Self.text(ResponseWriter.head(for: response, method: .get, version: .http11, keepAlive: true))
        #expect(text.contains("Content-Length: 3\r\n"))
        #expect(!text.contains("999") && !text.contains("chunked") && !text.contains("Date: x"))
    }

    @Test func handlerConnectionCloseClosesTheConnection() {
        let response = HTTPResponse(headers: ["Connection": "close"])
        let head = ResponseWriter.head(for: response, method: .get, version: .http11, keepAlive: true)
        #expect(!head.keepAlive)
        #expect(Self.text(head).contains("Connection: close\r\n"))
    }

    @Test func http10KeepAliveIsAnnounced() {
        let head = ResponseWriter.head(for: .status(.ok), method: .get, version: .http10, keepAlive: true)
        #expect(Self.text(head).contains("Connection: keep-alive\r\n"))
    }

    @Test(arguments: [(HTTPStatus.noContent, false), (.notModified, false), (.ok, true)])
    func bodylessStatusesHaveNoLengthOrBody(_ status: HTTPStatus, _ hasLength: Bool) {
        let head = ResponseWriter.head(
            for: HTTPResponse(status: status, body: [1, 2]), method: .get, version: .http11, keepAlive: true)
        #expect(Self.text(head).contains("Content-Length") == hasLength)
        #expect(head.sendsBody == hasLength)
    }

    @Test func headKeepsTheLengthButSendsNoBody() {
        let head = ResponseWriter.head(for: .text("hello"), method: .head, version: .http11, keepAlive: true)
        #expect(Self.text(head).contains("Content-Length: 5\r\n"))
        #expect(!head.sendsBody)
    }

    @Test(arguments: [
        ("X-A", "a\r\nSet-Cookie: x"), ("X-A", "a\nb"), ("X-A", "a\u{0}"), ("Bad Name", "v"), ("", "v"), ("X:Y", "v"),
    ])
    func refusesHeadersThatBreakFraming(_ name: String, _ value: String) {
        var response = HTTPResponse.text("ok")
        response.headers.add(name, value)
        let head = ResponseWriter.head(for: response, method: .get, version: .http11, keepAlive: true)
        #expect(Self.text(head).hasPrefix("HTTP/1.1 500 Internal Server Error\r\n"))
        #expect(!head.keepAlive)
        #expect(head.refused && head.status == 500)
    }

    /// `refused` is the writer's own verdict, not the status: a handler's 500 is written as asked.
    @Test(arguments: [HTTPStatus.ok, .internalServerError])
    func aValidHeadIsNotRefusedWhateverItsStatus(_ status: HTTPStatus) {
        for streaming in [false, true] {
            let head = ResponseWriter.head(
                for: .status(status), method: .get, version: .http11, keepAlive: true, streaming: streaming)
            #expect(!head.refused && head.status == status.code)
        }
    }

    @Test func streamingHeadHasNoLengthAndCloses() {
        let head = ResponseWriter.head(
            for: .status(.ok), method: .get, version: .http11, keepAlive: true, streaming: true)
        #expect(!Self.text(head).contains("Content-Length"))
        #expect(Self.text(head).contains("Connection: close\r\n"))
    }

    @Test func formatsIMFFixdate() {
        var t = tmValue()
        t.tm_year = 94
        t.tm_mon = 10
        t.tm_mday = 6
        t.tm_hour = 8
        t.tm_min = 49
        t.tm_sec = 37
        t.tm_wday = 0
        #expect(HTTPDate.format(t) == "Sun, 06 Nov 1994 08:49:37 GMT")
    }

    @Test func serialisesServerSentEventsWithoutLineInjection() {
        let event = ServerSentEvent(id: "1\r\nevent: evil", event: "a\nb", data: "x\r\ny\rz\n", retryMilliseconds: 10)
        #expect(
            String(decoding: event.serialized, as: UTF8.self)
                == "id: 1event: evil\nevent: ab\nretry: 10\ndata: x\ndata: y\ndata: z\ndata: \n\n")
        #expect(String(decoding: ServerSentEvent(data: "").serialized, as: UTF8.self) == "data: \n\n")
        // A trailing CR is a line break like a trailing LF (the client reads "z\n" for both).
        #expect(String(decoding: ServerSentEvent(data: "z\r").serialized, as: UTF8.self) == "data: z\ndata: \n\n")
        #expect(String(decoding: ServerSentEvent(data: "z\n").serialized, as: UTF8.self) == "data: z\ndata: \n\n")
    }
}

func tmValue() -> tm { tm() }
