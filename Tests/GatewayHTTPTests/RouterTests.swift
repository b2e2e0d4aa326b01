import Testing

@testable import GatewayHTTP

/// The router as "request value in, response value out", with no sockets.
@Suite struct RouterTests {
    static let router: Router = {
        var router = Router()
        router.get("/requests/:id") { request in .text("request \(request.pathParameters["id"] ?? "")") }
        router.get("/requests/:id/status") { request in .text("status \(request.pathParameters["id"] ?? "")") }
        router.post("/rpc") { request in .json(request.body) }
        router.get("/files/*") { request in .text("file \(request.pathParameters["*"] ?? "")") }
        router.on(.get, "/later") { _, responder in
            Task { responder.send(.text("later")) }
        }
        router.eventStream("/events") { _, stream in
            stream.send(ServerSentEvent(id: "\((Int(stream.lastEventID ?? "") ?? 0) + 1)", data: "x"))
        }
        return router
    }()

    struct Case: Sendable, CustomTestStringConvertible {
        let method: HTTPMethod
        let target: String
        let status: Int
        let body: String
        var testDescription: String { "\(method) \(target)" }
    }

    static let cases: [Case] = [
        .init(method: .get, target: "/requests/42", status: 200, body: "request 42"),
        .init(method: .get, target: "/requests/a%20b?x=1", status: 200, body: "request a b"),
        .init(method: .get, target: "/requests/42/status", status: 200, body: "status 42"),
        .init(method: .head, target: "/requests/42", status: 200, body: "request 42"),
        .init(method: .get, target: "/requests/", status: 404, body: ""),
        .init(method: .get, target: "/requests", status: 404, body: ""),
        .init(method: .get, target: "/requests/%zz", status: 404, body: ""),
        .init(method: .get, target: "/requests/1/2/3", status: 404, body: ""),
        .init(method: .get, target: "/files/a/b.js", status: 200, body: "file a/b.js"),
        .init(method: .get, target: "/rpc", status: 405, body: ""),
        .init(method: .delete, target: "/rpc", status: 501, body: ""),
        .init(method: .get, target: "/later", status: 200, body: "later"),
    ]

    @Test(arguments: cases)
    func routes(_ vector: Case) async {
        let response = await Self.router.response(for: HTTPRequest(method: vector.method, target: vector.target))
        #expect(response.status.code == vector.status)
        #expect(String(decoding: response.body, as: UTF8.self) == vector.body)
    }

    @Test func postsBodyThrough() async {
        let response = await Self.router.response(
            for: HTTPRequest(method: .post, target: "/rpc", body: Array("{}".utf8)))
        #expect(response.body == Array("{}".utf8))
        #expect(response.headers["Content-Type"] == "application/json")
    }

    @Test func reportsAllowedMethods() async {
        let response = await Self.router.response(for: HTTPRequest(method: .post, target: "/requests/1"))
        #expect(response.status == .methodNotAllowed)
        #expect(response.headers["Allow"] == "GET, HEAD")
    }

    @Test func capturesEventStreamsWithoutSockets() async {
        let response = await Self.router.response(
            for: HTTPRequest(method: .get, target: "/events", headers: ["Last-Event-ID": "6"]))
        #expect(response.headers["Content-Type"] == "text/event-stream; charset=utf-8")
        #expect(String(decoding: response.body, as: UTF8.self) == "id: 7\ndata: x\n\n")
    }
}
