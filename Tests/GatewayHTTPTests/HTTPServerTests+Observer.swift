import Testing

@testable import GatewayHTTP

/// `HTTPServerConfiguration.observer`: one observation per answered request, with the router's
/// pattern (never the path), the status written, the body size and a duration; parse errors too.
extension HTTPServerTests {
    static func observingRouter() -> Router {
        var router = Self.echoRouter()
        router.eventStream("/events") { _, stream in stream.send(ServerSentEvent(data: "hi")) }
        router.on(.get, "/manual") { _, responder in
            responder.noteRoute("/custom-name")
            responder.send(.text("named"))
        }
        return router
    }

    @Test func theObserverSeesRoutePatternStatusBytesAndNothingOfThePath() async throws {
        let seen = Shared<[HTTPRequestObservation]>([])
        try await withServer(
            {
                $0.name = "obs"
                $0.observer = { observation in seen.update { $0.append(observation) } }
            }, handler: Self.observingRouter()
        ) { server in
            let client = try TestClient(port: server.port)
            try client.send("GET /path/secret%20value?token=abc HTTP/1.1\r\nHost: a\r\n\r\n")
            #expect(try client.readResponse().text == "secret value")
            try client.send("HEAD /hello HTTP/1.1\r\nHost: a\r\n\r\n")
            _ = try client.readResponse(forHead: true)
            try client.send("GET /missing HTTP/1.1\r\nHost: a\r\n\r\n")
            #expect(try client.readResponse().status == 404)
            try client.send("GET /manual HTTP/1.1\r\nHost: a\r\n\r\n")
            #expect(try client.readResponse().text == "named")
            try client.send("GET /bad-header HTTP/1.1\r\nHost: a\r\n\r\n")
            #expect(try client.readResponse().status == 500)
            let stream = try TestClient(port: server.port)
            try stream.send("GET /events HTTP/1.1\r\nHost: a\r\n\r\n")
            _ = try stream.readUntil("data: hi")
            let broken = try TestClient(port: server.port)
            try broken.send("GET / HTTP/1.1\r\nHost: a\r\nBad Header\r\n\r\n")
            #expect(try broken.readResponse().status == 400)

            let all = seen.current
            #expect(all.count == 7)
            guard all.count == 7 else { return }
            #expect(all.allSatisfy { $0.server == "obs" && $0.port == server.port && $0.duration >= .zero })
            #expect(all[0].route == "/path/:name" && all[0].status == 200 && all[0].bodyBytes == 12)
            #expect(all[0].method == .get && all[0].requestID > 0 && !all[0].isEventStream)
            #expect(all[1].route == "/hello" && all[1].method == .head && all[1].bodyBytes == 0)
            #expect(all[2].route == nil && all[2].status == 404)
            #expect(all[3].route == "/custom-name")
            // The writer refused the handler's header: the status written (500) is what is observed.
            #expect(all[4].route == "/bad-header" && all[4].status == 500)
            #expect(all[5].route == "/events" && all[5].isEventStream && all[5].status == 200 && all[5].bodyBytes == 0)
            #expect(all[6].method == nil && all[6].route == nil && all[6].status == 400 && all[6].requestID == 0)
            #expect(!"\(all)".contains("secret") && !"\(all)".contains("token"))
        }
    }
}
