/// A small router: method + path pattern → handler. Patterns are `/`-separated segments: a literal,
/// `:name` (one segment, captured percent-decoded into `HTTPRequest.pathParameters`), or a final `*`
/// (the rest of the path, captured as `"*"`). First registered match wins.
///
/// Unknown path → 404; known path, other method → 405 with `Allow`; a method no route uses → 501
/// (RFC 9110 §9.1, §15.5.6). `HEAD` is served by the `GET` route (the writer drops the body).
///
/// Build it before starting the server; it is an immutable value once handed over.
package struct Router: HTTPHandler {
    /// A handler that answers through the responder, now or later, from any thread. It runs on the
    /// connection's event-loop queue (the loop's serial queue, shared by every connection of that
    /// loop) and must not block.
    package typealias Handler = @Sendable (HTTPRequest, HTTPResponder) -> Void

    private struct Route: Sendable {
        let method: HTTPMethod
        let pattern: RoutePattern
        /// The pattern as registered (the observation's route name).
        let name: String
        let handler: Handler
    }

    private var routes: [Route] = []
    /// Called when no route matches the path (default: empty 404).
    package var notFound: Handler = { _, responder in responder.send(.status(.notFound)) }

    package init() {}

    /// Adds a route answered through a responder (deferred-capable).
    package mutating func on(_ method: HTTPMethod, _ pattern: String, handler: @escaping Handler) {
        routes.append(Route(method: method, pattern: RoutePattern(pattern), name: pattern, handler: handler))
    }

    /// Adds a route answered synchronously. The closure must be quick and must not block.
    package mutating func on(
        _ method: HTTPMethod, _ pattern: String, respond: @escaping @Sendable (HTTPRequest) -> HTTPResponse
    ) {
        on(method, pattern) { request, responder in responder.send(respond(request)) }
    }

    /// Adds a route answered by an async closure, run in a `Task` so the event loop never waits on it.
    package mutating func on(
        _ method: HTTPMethod, _ pattern: String, async respond: @escaping @Sendable (HTTPRequest) async -> HTTPResponse
    ) {
        on(method, pattern) { request, responder in
            Task { responder.send(await respond(request)) }
        }
    }

    /// Adds a Server-Sent Events route: the client gets `200 text/event-stream` (plus `headers`) and
    /// `handler` gets the stream, whose `lastEventID` carries the client's resume point.
    package mutating func eventStream(
        _ pattern: String, headers: HTTPHeaders = [:],
        handler: @escaping @Sendable (HTTPRequest, EventStream) -> Void
    ) {
        on(.get, pattern) { request, responder in
            if let stream = responder.startEventStream(headers: headers) { handler(request, stream) }
        }
    }

    /// `on(.get, pattern, respond:)`.
    package mutating func get(_ pattern: String, respond: @escaping @Sendable (HTTPRequest) -> HTTPResponse) {
        on(.get, pattern, respond: respond)
    }

    /// `on(.post, pattern, respond:)`.
    package mutating func post(_ pattern: String, respond: @escaping @Sendable (HTTPRequest) -> HTTPResponse) {
        on(.post, pattern, respond: respond)
    }

    package func handle(_ request: HTTPRequest, responder: HTTPResponder) {
        let segments = RoutePattern.segments(of: request.path)
        var allowed: [HTTPMethod] = []
        for route in routes {
            guard let parameters = route.pattern.match(segments) else { continue }
            if route.method == request.method || (request.method == .head && route.method == .get) {
                var request = request
                request.pathParameters = parameters
                responder.noteRoute(route.name)
                route.handler(request, responder)
                return
            }
            if !allowed.contains(route.method) { allowed.append(route.method) }
        }
        if !routes.contains(where: { $0.method == request.method || (request.method == .head && $0.method == .get) }) {
            responder.send(.status(.notImplemented))
            return
        }
        if allowed.isEmpty {
            notFound(request, responder)
            return
        }
        if allowed.contains(.get) && !allowed.contains(.head) { allowed.append(.head) }
        responder.send(
            HTTPResponse(
                status: .methodNotAllowed, headers: ["Allow": allowed.map(\.rawValue).joined(separator: ", ")]))
    }
}
