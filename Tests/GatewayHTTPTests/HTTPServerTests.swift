import Dispatch
import Glibc
import Testing

@testable import GatewayHTTP

/// Integration tests over real loopback sockets on an ephemeral port. No fixed delays: every wait
/// is on a socket read (with a 10 s timeout) or a polled condition.
@Suite(.serialized) struct HTTPServerTests {
    static func echoRouter() -> Router {
        var router = Router()
        router.get("/hello") { _ in .text("hello") }
        router.get("/path/:name") { request in .text(request.pathParameters["name"] ?? "?") }
        router.post("/echo") { request in
            HTTPResponse(status: .ok, headers: ["Content-Type": "application/octet-stream"], body: request.body)
        }
        router.get("/big") { _ in HTTPResponse(body: Self.bigBody) }
        router.get("/huge") { _ in HTTPResponse(body: [UInt8](repeating: 0x61, count: 8 << 20)) }
        router.get("/bad-header") { _ in HTTPResponse(headers: ["X-Injected": "a\r\nSet-Cookie: x=1"]) }
        return router
    }

    static let bigBody: [UInt8] = (0..<(1 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 8) }

    @Test func answersTwoRequestsOnOneKeptAliveConnection() async throws {
        try await withServer(handler: Self.echoRouter()) { server in
            let client = try TestClient(port: server.port)
            try client.send("GET /hello HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            let first = try client.readResponse()
            try client.send("GET /path/second%20one HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            let second = try client.readResponse()
            #expect(first.status == 200 && first.text == "hello")
            #expect(second.status == 200 && second.text == "second one")
            #expect(second.headers["Connection"] == nil)
            #expect(second.headers["Date"]?.hasSuffix(" GMT") == true)
            #expect(server.connectionCount == 1)
        }
    }

    @Test func answersPipelinedRequestsInOrder() async throws {
        try await withServer(handler: Self.echoRouter()) { server in
            let client = try TestClient(port: server.port)
            var batch = ""
            for i in 0..<20 { batch += "GET /path/\(i) HTTP/1.1\r\nHost: a\r\n\r\n" }
            batch += "POST /echo HTTP/1.1\r\nHost: a\r\nContent-Length: 4\r\n\r\nlast"
            try client.send(batch)
            for i in 0..<20 { #expect(try client.readResponse().text == "\(i)") }
            #expect(try client.readResponse().text == "last")
        }
    }

    @Test func deliversOneMegabyteToASlowReader() async throws {
        try await withServer(handler: Self.echoRouter()) { server in
            let client = try TestClient(port: server.port, receiveBuffer: 4096)
            try client.send("GET /big HTTP/1.1\r\nHost: a\r\n\r\n")
            let response = try client.readResponse(readChunk: 1024)
            #expect(response.status == 200)
            #expect(response.body == Self.bigBody)
            try client.send("GET /hello HTTP/1.1\r\nHost: a\r\n\r\n")
            #expect(try client.readResponse().text == "hello")
        }
    }

    @Test func readsABodyArrivingOneByteAtATime() async throws {
        try await withServer(handler: Self.echoRouter()) { server in
            let client = try TestClient(port: server.port)
            let body = Array("{\"id\":1,\"message\":\"pub(authorize.tab)\"}".utf8)
            for byte in Array("POST /echo HTTP/1.1\r\nHost: a\r\nContent-Length: \(body.count)\r\n\r\n".utf8) + body {
                try client.send([byte])
            }
            #expect(try client.readResponse().body == body)
            let chunked =
                "POST /echo HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n2\r\nde\r\n0\r\n\r\n"
            for byte in chunked.utf8 { try client.send([byte]) }
            #expect(try client.readResponse().text == "abcde")
        }
    }

    @Test func survivesAClientThatDisconnectsMidResponse() async throws {
        try await withServer(handler: Self.echoRouter()) { server in
            do {
                let client = try TestClient(port: server.port, receiveBuffer: 4096)
                try client.send("GET /huge HTTP/1.1\r\nHost: a\r\n\r\n")
                try client.fill(max: 16 * 1024)
                var linger = linger(l_onoff: 1, l_linger: 0)  // close with RST
                setsockopt(client.fd, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<linger>.size))
            }
            #expect(await waitUntil { server.connectionCount == 0 })
            let next = try TestClient(port: server.port)
            try next.send("GET /hello HTTP/1.1\r\nHost: a\r\n\r\n")
            #expect(try next.readResponse().text == "hello")
        }
    }

    @Test func opensAndClosesFiveHundredConnectionsWithoutLeakingDescriptors() async throws {
        try await withServer(handler: Self.echoRouter()) { server in
            // Warm up once so lazily opened descriptors (epoll, eventfd) are counted in the baseline.
            do {
                let warm = try TestClient(port: server.port)
                try warm.send("GET /hello HTTP/1.1\r\nHost: a\r\n\r\n")
                _ = try warm.readResponse()
            }
            #expect(await waitUntil { server.connectionCount == 0 })
            let before = openSocketCount(localPort: server.port)
            #expect(before >= 1)  // the listening socket(s)
            for i in 0..<500 {
                let client = try TestClient(port: server.port)
                switch i % 3 {
                case 0:
                    try client.send("GET /hello HTTP/1.1\r\nHost: a\r\n\r\n")
                    #expect(try client.readResponse().status == 200)
                case 1:
                    try client.send("GET /hello HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n")
                    _ = try client.readUntilClosed()
                default:
                    try client.send("GET /hel")  // half a request, then gone
                }
            }
            #expect(await waitUntil { server.connectionCount == 0 })
            #expect(await waitUntil { openSocketCount(localPort: server.port) == before })
        }
    }

    @Test func answersMalformedRequestsWith400AndCloses() async throws {
        try await withServer(handler: Self.echoRouter()) { server in
            let client = try TestClient(port: server.port)
            try client.send(
                "POST /echo HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\nGET /hello HTTP/1.1\r\nHost: a\r\n\r\n"
            )
            let response = try client.readResponse()
            #expect(response.status == 400)
            #expect(response.headers["Connection"] == "close")
            #expect(try client.readUntilClosed().isEmpty)  // the smuggled request is never answered
        }
    }

    @Test(arguments: [
        ("GET /" + String(repeating: "a", count: 9000) + " HTTP/1.1\r\nHost: a\r\n\r\n", 414),
        ("GET / HTTP/1.1\r\nHost: a\r\nX: " + String(repeating: "a", count: 17000) + "\r\n\r\n", 431),
        ("POST /echo HTTP/1.1\r\nHost: a\r\nContent-Length: 999999999\r\n\r\n", 413),
        ("GET / HTTP/3.0\r\nHost: a\r\n\r\n", 505),
        ("GET / HTTP/1.1\r\n\r\n", 400),
    ])
    func answersLimitViolationsWithTheirStatus(_ raw: String, _ status: Int) async throws {
        try await withServer(handler: Self.echoRouter()) { server in
            let client = try TestClient(port: server.port)
            try client.send(raw)
            #expect(try client.readResponse().status == status)
            _ = try client.readUntilClosed()
        }
    }

    @Test func closesAfterAnHTTP10RequestAndHonoursConnectionClose() async throws {
        try await withServer(handler: Self.echoRouter()) { server in
            let client = try TestClient(port: server.port)
            try client.send("GET /hello HTTP/1.0\r\n\r\n")
            let response = try client.readResponse()
            #expect(response.text == "hello" && response.headers["Connection"] == "close")
            #expect(try client.readUntilClosed().isEmpty)
            let alive = try TestClient(port: server.port)
            try alive.send("GET /hello HTTP/1.0\r\nConnection: keep-alive\r\n\r\n")
            #expect(try alive.readResponse().headers["Connection"] == "keep-alive")
            try alive.send("GET /hello HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n")
            #expect(try alive.readResponse().headers["Connection"] == "close")
            #expect(try alive.readUntilClosed().isEmpty)
        }
    }

    @Test func sendsContinueBeforeTheBody() async throws {
        try await withServer(handler: Self.echoRouter()) { server in
            let client = try TestClient(port: server.port)
            try client.send("POST /echo HTTP/1.1\r\nHost: a\r\nExpect: 100-continue\r\nContent-Length: 2\r\n\r\n")
            #expect(try client.readUntil("\r\n\r\n").hasPrefix("HTTP/1.1 100 Continue"))
            try client.send("ok")
            #expect(try client.readResponse().text == "ok")
        }
    }

    @Test func omitsTheBodyForHEAD() async throws {
        try await withServer(handler: Self.echoRouter()) { server in
            let client = try TestClient(port: server.port)
            try client.send("HEAD /hello HTTP/1.1\r\nHost: a\r\n\r\n")
            let head = try client.readResponse(forHead: true)
            #expect(head.status == 200 && head.headers["Content-Length"] == "5")
            try client.send("GET /hello HTTP/1.1\r\nHost: a\r\n\r\n")
            #expect(try client.readResponse().text == "hello")  // no stray body bytes in between
        }
    }

    @Test func refusesHeaderInjectionFromAHandler() async throws {
        try await withServer(handler: Self.echoRouter()) { server in
            let client = try TestClient(port: server.port)
            try client.send("GET /bad-header HTTP/1.1\r\nHost: a\r\n\r\n")
            let response = try client.readResponse()
            #expect(response.status == 500)
            #expect(response.headers["Set-Cookie"] == nil)
        }
    }

    @Test func routesToPathParametersAndAnswers404405And501() async throws {
        try await withServer(handler: Self.echoRouter()) { server in
            let client = try TestClient(port: server.port)
            try client.send("GET /nope HTTP/1.1\r\nHost: a\r\n\r\n")
            #expect(try client.readResponse().status == 404)
            try client.send("POST /hello HTTP/1.1\r\nHost: a\r\nContent-Length: 0\r\n\r\n")
            let notAllowed = try client.readResponse()
            #expect(notAllowed.status == 405 && notAllowed.headers["Allow"] == "GET, HEAD")
            try client.send("BREW /hello HTTP/1.1\r\nHost: a\r\n\r\n")
            #expect(try client.readResponse().status == 501)
        }
    }

    @Test func answersADeferredRequestLaterWithoutBlockingOthers() async throws {
        let parked = Shared<[HTTPResponder]>([])
        var router = Router()
        router.on(.post, "/approve") { _, responder in parked.update { $0.append(responder) } }
        router.get("/hello") { _ in .text("hello") }
        try await withServer(handler: router) { server in
            let waiting = try TestClient(port: server.port)
            try waiting.send("POST /approve HTTP/1.1\r\nHost: a\r\nContent-Length: 0\r\n\r\n")
            #expect(await waitUntil { parked.current.count == 1 })
            // Many other requests are served while the first one waits for its "person".
            for _ in 0..<20 {
                let other = try TestClient(port: server.port)
                try other.send("GET /hello HTTP/1.1\r\nHost: a\r\n\r\n")
                #expect(try other.readResponse().text == "hello")
            }
            let responder = try #require(parked.current.first)
            DispatchQueue.global().async { responder.send(.text("approved")) }
            #expect(try waiting.readResponse().text == "approved")
        }
    }

    @Test func answers500WhenAHandlerDropsItsResponder() async throws {
        var router = Router()
        router.on(.get, "/forgot") { _, _ in }
        router.get("/hello") { _ in .text("hello") }
        try await withServer(handler: router) { server in
            let client = try TestClient(port: server.port)
            try client.send("GET /forgot HTTP/1.1\r\nHost: a\r\n\r\n")
            #expect(try client.readResponse().status == 500)
            // Pipelined behind others: each dropped responder answers 500 in its turn, in order.
            let forgot = "GET /forgot HTTP/1.1\r\nHost: a\r\n\r\n"
            try client.send(forgot + "GET /hello HTTP/1.1\r\nHost: a\r\n\r\n" + forgot + forgot)
            #expect(try client.readResponse().status == 500)
            #expect(try client.readResponse().text == "hello")
            #expect(try client.readResponse().status == 500)
            #expect(try client.readResponse().status == 500)
            try client.send("GET /hello HTTP/1.1\r\nHost: a\r\n\r\n")
            #expect(try client.readResponse().text == "hello")
        }
    }

    @Test func tellsADeferredHandlerWhenTheClientLeaves() async throws {
        let cancelled = Shared(false)
        var router = Router()
        let parked = Shared<[HTTPResponder]>([])
        router.on(.get, "/wait") { _, responder in
            responder.onCancel { cancelled.update { $0 = true } }
            parked.update { $0.append(responder) }
        }
        try await withServer(handler: router) { server in
            do {
                let client = try TestClient(port: server.port)
                try client.send("GET /wait HTTP/1.1\r\nHost: a\r\n\r\n")
                #expect(await waitUntil { parked.current.count == 1 })
            }
            #expect(await waitUntil { cancelled.current })
            #expect(parked.current.first?.isCancelled == true)
        }
    }

    @Test func answersAnAsyncHandler() async throws {
        var router = Router()
        router.on(
            .get, "/async",
            async: { request in
                await Task.yield()
                return .text("async \(request.path)")
            })
        try await withServer(handler: router) { server in
            let client = try TestClient(port: server.port)
            try client.send("GET /async HTTP/1.1\r\nHost: a\r\n\r\n")
            #expect(try client.readResponse().text == "async /async")
        }
    }

    @Test func answers503AboveTheConnectionCap() async throws {
        try await withServer({ $0.maxConnections = 2 }, handler: Self.echoRouter()) { server in
            let a = try TestClient(port: server.port)
            let b = try TestClient(port: server.port)
            #expect(await waitUntil { server.connectionCount == 2 })
            let c = try TestClient(port: server.port)
            #expect(try c.readResponse().status == 503)
            try a.send("GET /hello HTTP/1.1\r\nHost: a\r\n\r\n")
            #expect(try a.readResponse().status == 200)
            _ = b
        }
    }

    @Test func givesRemoteAddressAndLocalPortToHandlers() async throws {
        var router = Router()
        router.get("/who") { request in
            .text("\(request.remoteAddress?.host ?? "-") \(request.localPort) \(request.headers["Origin"] ?? "-")")
        }
        try await withServer(handler: router) { server in
            let client = try TestClient(port: server.port)
            try client.send("GET /who HTTP/1.1\r\nHost: a\r\nOrigin: https://dapp.example\r\n\r\n")
            #expect(try client.readResponse().text == "127.0.0.1 \(server.port) https://dapp.example")
        }
    }
}

extension HTTPServerTests {
    @Test func answersRequestsSentBeforeAHalfClose() async throws {
        try await withServer(handler: Self.echoRouter()) { server in
            let client = try TestClient(port: server.port)
            try client.send("GET /path/one HTTP/1.1\r\nHost: a\r\n\r\nGET /path/two HTTP/1.1\r\nHost: a\r\n\r\n")
            client.shutdownWrite()
            #expect(try client.readResponse().text == "one")
            #expect(try client.readResponse().text == "two")
            #expect(try client.readUntilClosed().isEmpty)
            #expect(await waitUntil { server.connectionCount == 0 })
        }
    }
}
