import GatewayHTTP
import Journal
import Logging
import Primitives

/// The dapp-facing port: the bridge script, the wire protocol (`POST /v1/request`), the per-tab
/// event stream (`GET /v1/events`, SSE) and its long-poll twin (`GET /v1/poll`). docs/protocol.md
/// describes every endpoint.
///
/// Gates, in order (docs/reference/http-server.md §6 item 7): `Host` allow-list (403); CORS preflight answered
/// for well-formed origins with the exact origin, `Vary: Origin` and the private/local-network
/// headers; identity (`ClientIdentification`): a valid session id (400), then a bearer token
/// (relay token without a valid `X-Sigil-Relay-Origin`: 400; unknown token: 401) or a
/// well-formed `Origin` (403); `Content-Type: application/json` on POST (415); body size (413,
/// normally already answered by the HTTP layer's body limit); then, before any protocol code reads
/// the body, the admission gate (`GatewayService.admit(_:at:)`, ``AdmissionGate``): the request
/// rate (429) and the deny list (each protocol's "not allowed"), on every route but
/// `POST /v1/session/close` (which only frees) and the static files. `POST /v1/session/close` answers
/// every identification failure with 403. docs/threat-model.md "Checks per entry point" lists them.
package struct DappHandler: HTTPHandler {
    private let router: Router
    private let extraHosts: Set<String>
    private let publicURLs: [SiteOrigin]
    /// The port a `Host` without one means (443 under TLS).
    private let defaultHostPort: Int

    /// Paths of `public/` never served on this port (approval page assets, templates with secrets).
    static func isPrivateAsset(_ path: String) -> Bool {
        path.hasPrefix("/ui/") || path == "/sigil.user.js" || path == "/bookmarklet.js" || path == "/index.html"
            || path == "/"
    }

    /// Creates the handler.
    /// - Parameters:
    ///   - service: the gateway core.
    ///   - configuration: tokens and limits.
    ///   - files: `public/` (the bridge script); approval assets and templates are not served here.
    ///   - adapters: the protocol adapters served as JSON-RPC routes, each on the one adapter route
    ///     (``JSONRPCAdapter``: ICRC at `POST /v1/icrc` with its ICRC-29 page's relay, Ethereum at
    ///     `POST /v1/ethereum`).
    package init(
        service: GatewayService, configuration: GatewayConfiguration, files: StaticFiles, logger: Logger,
        adapters: [any JSONRPCAdapter] = []
    ) {
        extraHosts = configuration.extraAllowedHosts
        publicURLs = configuration.publicURLs
        defaultHostPort = configuration.usesTLS ? 443 : 80
        var router = Router()
        let identify = ClientIdentification(configuration: configuration)

        router.route(.options, "/*") { request, responder in
            responder.send(Self.preflight(request))
        }
        router.route(.post, "/v1/request") { request, responder in
            let ident: ClientIdentification.Result
            switch identify(request, session: request.headers["X-Sigil-Session"]) {
            case .refused(let response): responder.send(response); return
            case .identified(let value): ident = value
            }
            guard SecurityGates.isJSON(request) else {
                responder.send(ident.decorate(.status(.unsupportedMediaType))); return
            }
            guard request.body.count <= configuration.maxRequestBodyBytes else {
                responder.send(ident.decorate(.status(.contentTooLarge))); return
            }
            // A request in flight may journal an entry soon: its promise, taken as soon as the request
            // is read (before its task waits for a thread), lets the journal commit concurrent
            // signatures together (docs/journal.md §7). It ends with its entry, or with the task (a
            // reply without an entry, or a wait for a person).
            let promise = service.journal?.expectAppend()
            Task {
                await JournalExpectation.$current.withValue(promise) {
                    let refusal = await service.admit(ident.client, at: .request)
                    guard refusal != .rateLimited else {
                        responder.send(ident.decorate(.status(.tooManyRequests))); return
                    }
                    let wire: WireRequest
                    do {
                        wire = try WireRequest(json: try JSONValue.parse(request.body))
                    } catch {
                        responder.send(
                            ident.decorate(Self.json(["error": .string(WireErrorText.badRequest)], .badRequest)))
                        return
                    }
                    if refusal == .deniedHost {
                        let reply = await service.refuseDenied(wire, from: ident.client)
                        responder.send(ident.decorate(Self.json(reply.json, .ok)))
                        return
                    }
                    do {
                        switch try await service.handle(wire, from: ident.client) {
                        case .reply(let reply): responder.send(ident.decorate(Self.json(reply.json, .ok)))
                        case .pending:
                            // `server`: the run that holds the request, so a client can tell a restart
                            // that lost it from one it learned of late (docs/protocol.md §2).
                            let body: JSONValue = ["id": .string(wire.id), "pending": true, "server": .string(service.serverID)]
                            responder.send(ident.decorate(Self.json(body, .accepted)))
                        }
                    } catch {
                        responder.send(ident.decorate(.status(Self.status(for: error))))
                    }
                }
            }
        }
        for adapter in adapters {
            Self.addAdapterRoute(
                adapter, to: &router, service: service, configuration: configuration, identify: identify)
        }
        router.route(.post, "/v1/session/close") { request, responder in
            guard case .identified(let ident) = identify(request, session: request.headers["X-Sigil-Session"]) else {
                responder.send(.status(.forbidden)); return
            }
            guard SecurityGates.isJSON(request) else {
                responder.send(ident.decorate(.status(.unsupportedMediaType))); return
            }
            Task {
                await service.closeSession(ident.client.session, source: ident.client.source)
                responder.send(ident.decorate(.status(.noContent)))
            }
        }
        router.route(.get, "/v1/events") { request, responder in
            let ident: ClientIdentification.Result
            switch identify(request, session: request.queryParameter("session")) {
            case .refused(let response): responder.send(response); return
            case .identified(let value): ident = value
            }
            Task {
                if let refusal = await service.admit(ident.client, at: .events) {
                    responder.send(ident.decorate(.status(Self.status(for: refusal)))); return
                }
                let resume = service.sequence(
                    ofEventID: request.headers["Last-Event-ID"] ?? request.queryParameter("lastEventID"))
                let events: AsyncStream<SessionEvent>
                do {
                    events = try await service.events(for: ident.client, after: resume)
                } catch {
                    responder.send(ident.decorate(.status(Self.status(for: error)))); return
                }
                var headers: HTTPHeaders = [:]
                ident.corsHeaders(into: &headers)
                guard let stream = responder.startEventStream(headers: headers) else { return }
                let hello: JSONValue = ["server": .string(service.serverID)]
                stream.send(ServerSentEvent(event: "hello", data: Self.text(hello), retryMilliseconds: 2000))
                let pump = Task {
                    for await event in events {
                        stream.send(ServerSentEvent(id: event.eventID, data: Self.text(event.reply.json)))
                    }
                    stream.close()
                }
                stream.onTermination { pump.cancel() }
            }
        }
        router.route(.get, "/v1/poll") { request, responder in
            let ident: ClientIdentification.Result
            switch identify(request, session: request.queryParameter("session")) {
            case .refused(let response): responder.send(response); return
            case .identified(let value): ident = value
            }
            let task = Task {
                if let refusal = await service.admit(ident.client, at: .poll) {
                    responder.send(ident.decorate(.status(Self.status(for: refusal)))); return
                }
                let resume = service.sequence(ofEventID: request.queryParameter("after"))
                do {
                    var events = try await service.keptEvents(for: ident.client, after: resume)
                    if events.isEmpty {
                        let stream = try await service.events(for: ident.client, after: resume)
                        events = await Self.first(of: stream, within: configuration.pollHold)
                    }
                    let body: JSONValue = [
                        "server": .string(service.serverID),
                        "events": .array(events.map { ["eventId": .string($0.eventID), "data": $0.reply.json] }),
                    ]
                    responder.send(ident.decorate(Self.json(body, .ok)))
                } catch {
                    responder.send(ident.decorate(.status(Self.status(for: error))))
                }
            }
            responder.onCancel { task.cancel() }
        }
        IconConnectRoutes.add(to: &router, service: service, configuration: configuration, identify: identify)
        router.get("/*") { request in
            guard !Self.isPrivateAsset(request.path),
                let response = files.response(for: request, headers: ["Cross-Origin-Resource-Policy": "cross-origin"])
            else { return .status(.notFound) }
            return response
        }
        self.router = router
        _ = logger
    }

    package func handle(_ request: HTTPRequest, responder: HTTPResponder) {
        guard
            SecurityGates.hostAllowed(request, extra: extraHosts, defaultPort: defaultHostPort, publicURLs: publicURLs)
        else {
            responder.send(SecurityGates.hostRefusal(request, option: "public-url", tls: defaultHostPort == 443))
            return
        }
        router.handle(request, responder: responder)
    }

    /// CORS preflight: any well-formed site origin may ask (it may be about to authorize); the
    /// answer echoes exactly that origin. Private Network Access / Local Network Access headers
    /// are answered when asked (docs/reference/http-server.md §3.2).
    static func preflight(_ request: HTTPRequest) -> HTTPResponse {
        guard let origin = SecurityGates.siteOrigin(request) else { return .status(.forbidden) }
        var response = HTTPResponse(status: .noContent)
        response.headers.set("Access-Control-Allow-Origin", origin.description)
        response.headers.set("Vary", "Origin")
        response.headers.set("Access-Control-Allow-Methods", "GET, POST")
        response.headers.set("Access-Control-Allow-Headers", "Content-Type, X-Sigil-Session, Last-Event-ID")
        response.headers.set("Access-Control-Max-Age", "600")
        if request.headers["Access-Control-Request-Private-Network"]?.lowercased() == "true" {
            response.headers.set("Access-Control-Allow-Private-Network", "true")
        }
        if request.headers["Access-Control-Request-Local-Network"]?.lowercased() == "true" {
            response.headers.set("Access-Control-Allow-Local-Network", "true")
        }
        return response
    }

    /// The transport answer to a gate refusal where the protocol has no body of its own: 429 when
    /// rate-limited, 403 for a denied host.
    static func status(for refusal: AdmissionRefusal) -> HTTPStatus {
        refusal == .rateLimited ? .tooManyRequests : .forbidden
    }

    /// 503 when the session table is full, else 403 (a session of another identity).
    static func status(for error: any Error) -> HTTPStatus {
        (error as? GatewayError)?.code == .tooManySessions ? .serviceUnavailable : .forbidden
    }

    static func json(_ value: JSONValue, _ status: HTTPStatus) -> HTTPResponse {
        var response = HTTPResponse.json(value.encoded(), status: status)
        response.headers.set("Cache-Control", "no-store")
        response.headers.set("X-Content-Type-Options", "nosniff")
        return response
    }

    static func text(_ value: JSONValue) -> String { String(decoding: value.encoded(), as: UTF8.self) }

    /// The first events of a stream, or none after `limit`.
    static func first(of stream: AsyncStream<SessionEvent>, within limit: Duration) async -> [SessionEvent] {
        await withTaskGroup(of: [SessionEvent].self) { group in
            group.addTask {
                var iterator = stream.makeAsyncIterator()
                if let event = await iterator.next() { return [event] }
                return []
            }
            group.addTask {
                try? await Task.sleep(for: limit)
                return []
            }
            let result = await group.next() ?? []
            group.cancelAll()
            return result
        }
    }
}
