import Dispatch
import Glibc
import Logging
import Primitives
import Testing

@testable import GatewayHTTP

/// Event streams, deadlines and shutdown over real sockets (part of the serialized `HTTPServerTests`
/// suite, so descriptor counts are not disturbed by parallel tests).
extension HTTPServerTests {
    static func streamRouter(terminated: Shared<Int>, streams: Shared<[EventStream]>) -> Router {
        var router = Router()
        router.eventStream("/events", headers: ["Access-Control-Allow-Origin": "https://dapp.example"]) { _, stream in
            // Resume after the id the client last saw.
            let next = (stream.lastEventID.flatMap { Int($0) } ?? 0) + 1
            stream.send(
                ServerSentEvent(id: "\(next)", event: "hello", data: "line one\nline two", retryMilliseconds: 2000))
            stream.onTermination { terminated.update { $0 += 1 } }
            streams.update { $0.append(stream) }
        }
        router.get("/hello") { _ in .text("hello") }
        return router
    }

    @Test func streamsEventsWithHeartbeatsAndResumesFromLastEventID() async throws {
        let terminated = Shared(0)
        let streams = Shared<[EventStream]>([])
        try await withServer(
            { $0.eventStreamHeartbeat = .milliseconds(50) },
            handler: Self.streamRouter(terminated: terminated, streams: streams)
        ) { server in
            let client = try TestClient(port: server.port)
            try client.send("GET /events HTTP/1.1\r\nHost: a\r\nLast-Event-ID: 41\r\n\r\n")
            let start = try client.readUntil("line two\n\n")
            #expect(start.hasPrefix("HTTP/1.1 200 OK\r\n"))
            #expect(start.contains("Content-Type: text/event-stream; charset=utf-8\r\n"))
            #expect(start.contains("Access-Control-Allow-Origin: https://dapp.example\r\n"))
            #expect(!start.contains("Content-Length"))
            #expect(start.contains("id: 42\nevent: hello\nretry: 2000\ndata: line one\ndata: line two\n\n"))
            // Nothing is sent for 50 ms: a heartbeat comment follows.
            #expect(try client.readUntil(":\n\n") == ":\n\n")
            #expect(server.eventStreamCount == 1)
            // Events sent from another thread arrive in order.
            let stream = try #require(streams.current.first)
            DispatchQueue.global().async {
                for i in 43...45 { stream.send(ServerSentEvent(id: "\(i)", data: "n\(i)")) }
            }
            let more = try client.readUntil("data: n45\n\n")
            #expect(
                more.split(separator: ":\n\n", omittingEmptySubsequences: true).joined()
                    == "id: 43\ndata: n43\n\nid: 44\ndata: n44\n\nid: 45\ndata: n45\n\n")
            // Resume through the query parameter (EventSource cannot set headers on a first connect).
            let second = try TestClient(port: server.port)
            try second.send("GET /events?lastEventID=9 HTTP/1.1\r\nHost: a\r\n\r\n")
            #expect(try second.readUntil("line two\n\n").contains("id: 10\n"))
            #expect(await waitUntil { server.eventStreamCount == 2 })
        }
        #expect(terminated.current == 2)  // shutdown ended both streams and told the handler
    }

    @Test func tellsTheStreamWhenTheClientGoesAwayAndCloseEndsIt() async throws {
        let terminated = Shared(0)
        let streams = Shared<[EventStream]>([])
        try await withServer(handler: Self.streamRouter(terminated: terminated, streams: streams)) { server in
            do {
                let client = try TestClient(port: server.port)
                try client.send("GET /events HTTP/1.1\r\nHost: a\r\n\r\n")
                _ = try client.readUntil("line two\n\n")
            }
            #expect(await waitUntil { terminated.current == 1 })
            #expect(streams.current.first?.isTerminated == true)
            #expect(await waitUntil { server.eventStreamCount == 0 })

            let client = try TestClient(port: server.port)
            try client.send("GET /events HTTP/1.1\r\nHost: a\r\n\r\n")
            _ = try client.readUntil("line two\n\n")
            #expect(await waitUntil { streams.current.count == 2 })
            streams.current.last?.close()
            #expect(try client.readUntilClosed().isEmpty)
            #expect(await waitUntil { terminated.current == 2 })
        }
    }

    @Test func dropsAnEventStreamConsumerThatDoesNotRead() async throws {
        let terminated = Shared(0)
        let streams = Shared<[EventStream]>([])
        try await withServer(
            { $0.eventStreamMaxPendingBytes = 64 * 1024 },
            handler: Self.streamRouter(terminated: terminated, streams: streams)
        ) { server in
            let client = try TestClient(port: server.port, receiveBuffer: 4096)
            try client.send("GET /events HTTP/1.1\r\nHost: a\r\n\r\n")
            #expect(await waitUntil { streams.current.count == 1 })
            let stream = try #require(streams.current.first)
            let payload = String(repeating: "x", count: 8 * 1024)
            for _ in 0..<400 where !stream.isTerminated { stream.send(ServerSentEvent(data: payload)) }
            #expect(await waitUntil { terminated.current == 1 })
            _ = client
        }
    }

    @Test func reapsSlowlorisConnectionsWhileServingOthers() async throws {
        try await withServer(
            { $0.headerTimeout = .milliseconds(300) },
            handler: Self.echoRouter()
        ) { server in
            var slow: [TestClient] = []
            for _ in 0..<100 {
                let client = try TestClient(port: server.port)
                try client.send("GET /hello HTTP/1.1\r\nHost: a\r\nX-Slow: ")
                slow.append(client)
            }
            // Normal requests are still answered while the half-sent ones wait.
            for _ in 0..<20 {
                let client = try TestClient(port: server.port)
                try client.send("GET /hello HTTP/1.1\r\nHost: a\r\n\r\n")
                #expect(try client.readResponse().text == "hello")
            }
            // Each slow client gets 408 and is closed by the header deadline, one byte a time or not.
            try slow[0].send("a")
            for client in slow {
                #expect(try client.readResponse().status == 408)
                #expect(try client.readUntilClosed().isEmpty)
            }
            #expect(await waitUntil { server.connectionCount == 0 })
        }
    }

    @Test func closesIdleKeepAliveConnections() async throws {
        try await withServer({ $0.idleTimeout = .milliseconds(100) }, handler: Self.echoRouter()) { server in
            let client = try TestClient(port: server.port)
            try client.send("GET /hello HTTP/1.1\r\nHost: a\r\n\r\n")
            #expect(try client.readResponse().text == "hello")
            #expect(try client.readUntilClosed().isEmpty)
        }
    }

    @Test func timesOutASlowBody() async throws {
        try await withServer({ $0.bodyTimeout = .milliseconds(100) }, handler: Self.echoRouter()) { server in
            let client = try TestClient(port: server.port)
            try client.send("POST /echo HTTP/1.1\r\nHost: a\r\nContent-Length: 10\r\n\r\nabc")
            #expect(try client.readResponse().status == 408)
        }
    }

    @Test func shutsDownGracefullyFinishingInFlightResponses() async throws {
        var configuration = HTTPServerConfiguration()
        configuration.port = 0
        configuration.bindAddress = .host("127.0.0.1")
        configuration.shutdownGracePeriod = .seconds(5)
        let parked = Shared<[HTTPResponder]>([])
        var router = Router()
        router.on(.get, "/slow") { _, responder in parked.update { $0.append(responder) } }
        router.get("/hello") { _ in .text("hello") }
        let server = HTTPServer(configuration: configuration, handler: router, logger: .init(label: "test"))
        try server.start()
        let port = server.port
        let inFlight = try TestClient(port: port)
        try inFlight.send("GET /slow HTTP/1.1\r\nHost: a\r\n\r\n")
        let idle = try TestClient(port: port)
        try idle.send("GET /hello HTTP/1.1\r\nHost: a\r\n\r\n")
        _ = try idle.readResponse()
        #expect(await waitUntil { parked.current.count == 1 })

        let finished = Shared(false)
        server.shutdown { finished.update { $0 = true } }
        #expect(try idle.readUntilClosed().isEmpty)  // idle keep-alive connection closed at once
        #expect(!finished.current)
        parked.current.first?.send(.text("done"))
        let response = try inFlight.readResponse()
        #expect(response.text == "done" && response.headers["Connection"] == "close")
        #expect(await waitUntil { finished.current })
        #expect(throws: TestClient.Failure.self) { _ = try TestClient(port: port) }  // no longer listening
    }

    @Test func forceClosesWhatIsLeftAfterTheGracePeriod() async throws {
        var configuration = HTTPServerConfiguration()
        configuration.bindAddress = .host("127.0.0.1")
        configuration.shutdownGracePeriod = .milliseconds(100)
        let cancelled = Shared(false)
        let parked = Shared<[HTTPResponder]>([])
        var router = Router()
        router.on(.get, "/never") { _, responder in
            responder.onCancel { cancelled.update { $0 = true } }
            parked.update { $0.append(responder) }
        }
        let server = HTTPServer(configuration: configuration, handler: router, logger: .init(label: "test"))
        try server.start()
        let client = try TestClient(port: server.port)
        try client.send("GET /never HTTP/1.1\r\nHost: a\r\n\r\n")
        #expect(await waitUntil { parked.current.count == 1 })
        await server.shutdown()
        #expect(cancelled.current)
        #expect(try client.readUntilClosed().isEmpty)
    }

    @Test func listensOnIPv4AndIPv6LoopbackByDefault() async throws {
        var configuration = HTTPServerConfiguration()
        configuration.port = 0
        let server = HTTPServer(configuration: configuration, handler: Self.echoRouter(), logger: .init(label: "test"))
        let addresses = try server.start()
        #expect(addresses.allSatisfy { $0.isLoopback })
        #expect(addresses.first?.host == "127.0.0.1")
        #expect(Set(addresses.map(\.port)).count == 1)
        for address in addresses {
            let client = try TestClient(port: address.port, host: address.host)
            try client.send("GET /hello HTTP/1.1\r\nHost: a\r\n\r\n")
            #expect(try client.readResponse().text == "hello")
        }
        await server.shutdown()
    }

    @Test func refusesABindAddressThatDoesNotParse() {
        var configuration = HTTPServerConfiguration()
        configuration.bindAddress = .host("localhost.example")
        let server = HTTPServer(configuration: configuration, handler: Self.echoRouter(), logger: .init(label: "test"))
        #expect(throws: HTTPError(.invalidConfiguration, "")) { try server.bind() }
    }

    @Test func runsTwoServersInOneProcess() async throws {
        try await withServer(handler: Self.echoRouter()) { first in
            var router = Router()
            router.get("/") { _ in .text("ui") }
            try await withServer(handler: router) { second in
                #expect(first.port != second.port)
                let a = try TestClient(port: first.port)
                let b = try TestClient(port: second.port)
                try a.send("GET /hello HTTP/1.1\r\nHost: a\r\n\r\n")
                try b.send("GET / HTTP/1.1\r\nHost: a\r\n\r\n")
                #expect(try a.readResponse().text == "hello")
                #expect(try b.readResponse().text == "ui")
            }
        }
    }
}

extension HTTPServerTests {
    @Test func endsEventStreamsAtTheirMaximumAge() async throws {
        let terminated = Shared(0)
        let streams = Shared<[EventStream]>([])
        try await withServer(
            { $0.eventStreamMaxAge = .milliseconds(100) },
            handler: Self.streamRouter(terminated: terminated, streams: streams)
        ) { server in
            let client = try TestClient(port: server.port)
            try client.send("GET /events HTTP/1.1\r\nHost: a\r\n\r\n")
            _ = try client.readUntil("line two\n\n")
            #expect(try client.readUntilClosed().isEmpty)  // closed by the server: the client reconnects
            #expect(await waitUntil { terminated.current == 1 })
        }
    }

    /// A stream whose head the writer refused (a 500 went out instead), or a HEAD request on a stream
    /// route, gets no stream: the head is written, the connection closes and the stream is ended.
    @Test(arguments: [
        ("GET /bad-events HTTP/1.1\r\nHost: a\r\n\r\n", 500),
        ("HEAD /events HTTP/1.1\r\nHost: a\r\n\r\n", 200),
    ])
    func aStreamWhoseHeadCarriesNoStreamClosesAndEndsIt(_ request: String, _ status: Int) async throws {
        let terminated = Shared(0)
        let streams = Shared<[EventStream]>([])
        var router = Self.streamRouter(terminated: terminated, streams: streams)
        router.eventStream("/bad-events", headers: ["X-Injected": "a\r\nSet-Cookie: x=1"]) { _, stream in
            stream.onTermination { terminated.update { $0 += 1 } }
            streams.update { $0.append(stream) }
        }
        try await withServer(handler: router) { server in
            let client = try TestClient(port: server.port)
            try client.send(request)
            let response = try client.readResponse(forHead: true)
            #expect(response.status == status)
            #expect(response.headers["Connection"] == "close")
            #expect(response.headers["Set-Cookie"] == nil)
            #expect(try client.readUntilClosed().isEmpty)
            #expect(await waitUntil { terminated.current == 1 })
            #expect(streams.current.first?.isTerminated == true)
            #expect(server.eventStreamCount == 0)
        }
    }

    @Test func dropsAReaderThatStopsReadingAfterTheStallTimeout() async throws {
        try await withServer({ $0.writeStallTimeout = .milliseconds(200) }, handler: Self.echoRouter()) { server in
            let client = try TestClient(port: server.port, receiveBuffer: 4096)
            try client.send("GET /huge HTTP/1.1\r\nHost: a\r\n\r\n")
            #expect(await waitUntil { server.connectionCount == 1 })
            // The client never reads; the server gives up on the stalled write and closes.
            #expect(await waitUntil { server.connectionCount == 0 })
            _ = client
        }
    }
}
