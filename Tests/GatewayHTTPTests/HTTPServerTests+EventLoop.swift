import Dispatch
import Glibc
import Logging
import Testing

@testable import GatewayHTTP

/// The event loop's own edges (EventLoop.swift): more ready sockets than one `epoll_wait` batch, a
/// peer that vanishes while its socket is registered for nothing, and the loop descriptors' life.
extension HTTPServerTests {
    @Test func answersMoreConnectionsReadyAtOnceThanOneEpollBatchHolds() async throws {
        // 300 requests are sent before any answer is read: the loop sees far more than its 64-event
        // batch ready at once, and every connection must still be answered exactly once, in order.
        try await withServer({ $0.maxConnections = 512 }, handler: Self.echoRouter()) { server in
            var clients: [TestClient] = []
            for i in 0..<300 {
                let client = try TestClient(port: server.port)
                try client.send(
                    "GET /path/\(i) HTTP/1.1\r\nHost: a\r\n\r\nGET /path/again\(i) HTTP/1.1\r\nHost: a\r\n\r\n")
                clients.append(client)
            }
            for (i, client) in clients.enumerated() {
                #expect(try client.readResponse().text == "\(i)")
                #expect(try client.readResponse().text == "again\(i)")
            }
            #expect(server.connectionCount == 300)
        }
    }

    @Test func dropsAPeerThatResetsWhileItsReadingIsPaused() async throws {
        // A request parked with its handler plus more pipelined input than the parser may buffer
        // pauses reading (input back-pressure); nothing is being written either. The socket is then
        // registered for no event at all, and only the hang-up tells the loop the client is gone.
        let cancelled = Shared(false)
        let parked = Shared<[HTTPResponder]>([])
        var router = Router()
        router.on(.post, "/wait") { _, responder in
            responder.onCancel { cancelled.update { $0 = true } }
            parked.update { $0.append(responder) }
        }
        try await withServer(
            {
                $0.limits.maxHeaderBytes = 1024
                $0.limits.maxBodyBytes = 1024
            }, handler: router
        ) { server in
            do {
                let client = try TestClient(port: server.port)
                try client.send("POST /wait HTTP/1.1\r\nHost: a\r\nContent-Length: 0\r\n\r\n")
                #expect(await waitUntil { parked.current.count == 1 })
                // Pipelined input well past maxHeaderBytes + maxBodyBytes: reading pauses.
                let filler =
                    "POST /wait HTTP/1.1\r\nHost: a\r\nContent-Length: 900\r\n\r\n"
                    + String(repeating: "x", count: 900)
                try client.send(String(repeating: filler, count: 8))
                var linger = linger(l_onoff: 1, l_linger: 0)  // close with RST
                setsockopt(client.fd, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<linger>.size))
            }
            #expect(await waitUntil { cancelled.current })
            #expect(await waitUntil { server.connectionCount == 0 })
            let next = try TestClient(port: server.port)
            try next.send("POST /wait HTTP/1.1\r\nHost: a\r\nContent-Length: 0\r\n\r\n")
            #expect(await waitUntil { parked.current.count == 2 })
        }
    }

    @Test func closesItsEpollDescriptorsOnShutdown() async throws {
        var loops: [EventLoop] = []
        try await withServer(handler: Self.echoRouter()) { server in
            loops = try #require(server.loops).loops
            #expect(!loops.isEmpty && loops.allSatisfy { !$0.descriptorClosed })
            let client = try TestClient(port: server.port)
            try client.send("GET /hello HTTP/1.1\r\nHost: a\r\n\r\n")
            #expect(try client.readResponse().text == "hello")
        }
        // Closed in each loop's cancel handler, just after shutdown completes.
        #expect(await waitUntil { loops.allSatisfy(\.descriptorClosed) })
    }

    @Test func releasesTheLoopsOfAServerThatNeverStarted() async throws {
        var loops: [EventLoop] = []
        do {
            var configuration = HTTPServerConfiguration()
            configuration.bindAddress = .host("not an address")
            let server = HTTPServer(
                configuration: configuration, handler: Self.echoRouter(), logger: Logger(label: "test"))
            loops = try #require(server.loops).loops
            #expect(throws: HTTPError.self) { try server.bind() }
        }
        #expect(await waitUntil { loops.allSatisfy(\.descriptorClosed) })
    }
}

/// Queue confinement is checked, not only documented: in debug builds a loop member touched off its
/// loop's queue traps (`EventLoop.assertOnLoopQueue`, called by every `Connection` entry point the
/// loop or the sweep drives).
@Suite struct LoopConfinementTests {
    #if DEBUG
        @Test func touchingALoopOffItsQueueTraps() async {
            await #expect(processExitsWith: .failure) {
                EventLoop(label: "sigil.test.confinement")?.assertOnLoopQueue()
            }
        }
    #endif

    @Test func onItsQueueTheCheckPasses() throws {
        let loop = try #require(EventLoop(label: "sigil.test.confinement"))
        loop.queue.sync { loop.assertOnLoopQueue() }
        loop.stop()
    }
}
