import GatewayHTTP
import Journal
import Logging
import Primitives
import SignerCore

/// The approval page's port: its own origin, so dapp tabs cannot exhaust its connections nor reach
/// it same-origin. Every response forbids framing and carries a strict CSP; every API call needs
/// the approval token (constant-time compared); every POST must also be same-origin (`Origin`
/// equal to the page's own, `Sec-Fetch-Site: same-origin` when sent) with a JSON body: a
/// cross-site form or fetch cannot approve anything (docs/reference/http-server.md §3.1 "CSRF on the approval page").
package struct ApprovalPortal: HTTPHandler {
    private let router: Router
    private let extraHosts: Set<String>
    private let publicURLs: [SiteOrigin]
    /// The port a `Host` without one means (443 under TLS).
    private let defaultHostPort: Int
    private let telemetry: GatewayTelemetry
    private let service: GatewayService
    private let approvalToken: String

    /// Headers on every response of this port.
    static let pageHeaders: [(String, String)] = [
        (
            "Content-Security-Policy",
            "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self'; "
                + "base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
        ),
        ("X-Frame-Options", "DENY"),
        ("X-Content-Type-Options", "nosniff"),
        ("Cross-Origin-Opener-Policy", "same-origin"),
        ("Cross-Origin-Resource-Policy", "same-origin"),
        ("Referrer-Policy", "no-referrer"),
        ("Cache-Control", "no-store"),
    ]

    /// Creates the handler.
    /// - Parameters:
    ///   - endpoints: the real URLs (known once the ports are bound), for the page and userscript.
    ///   - files: `public/` (`/ui/…`, the userscript and bookmarklet templates, the bridge source).
    ///   - telemetry: `/healthz` and `/metrics` (docs/observability.md).
    package init(
        service: GatewayService, directory: any AccountDirectory, configuration: GatewayConfiguration,
        endpoints: GatewayEndpoints, files: StaticFiles, logger: Logger,
        telemetry: GatewayTelemetry = GatewayTelemetry()
    ) {
        extraHosts = configuration.extraAllowedHosts
        publicURLs = configuration.publicUIURLs
        let publicOrigins = configuration.publicUIURLs
        defaultHostPort = configuration.usesTLS ? 443 : 80
        self.telemetry = telemetry
        self.service = service
        approvalToken = configuration.approvalToken
        let token = configuration.approvalToken
        var router = Router()
        // The token travels in `X-Sigil-Token`. Only the two GETs a browser cannot add a header to
        // take it from the query (`EventSource`, and the userscript link an extension manager opens);
        // a request line is what access logs and proxies record (docs/threat-model.md).
        let authorized: @Sendable (HTTPRequest, Bool) -> Bool = { request, queryAllowed in
            let fromQuery = queryAllowed ? request.queryParameter("token") : nil
            let given = request.headers["X-Sigil-Token"] ?? fromQuery ?? ""
            return SecurityGates.constantTimeEqual(given, token)
        }
        // The page's own origin is `<scheme>://<Host>`, with the scheme this port is served on
        // (`https` under --tls-cert: `sigil serve` records it in `endpoints` before accepting), or
        // one of the declared public approval URLs (`--public-ui-url`, e.g. https behind a proxy).
        let sameOrigin: @Sendable (HTTPRequest) -> Bool = { request in
            if let site = request.headers["Sec-Fetch-Site"], site != "same-origin" { return false }
            guard let origin = SecurityGates.siteOrigin(request), let host = request.headers["Host"] else {
                return false
            }
            if publicOrigins.contains(origin) { return true }
            let scheme = endpoints.uiBase.lowercased().hasPrefix("https://") ? "https" : "http"
            let defaultPort = scheme == "https" ? 443 : 80
            guard origin.scheme == scheme else { return false }
            return origin.description == "\(scheme)://\(host.lowercased())"
                || origin.description == "\(scheme)://\(host.lowercased()):\(defaultPort)"
        }
        // A POST API endpoint: token + same-origin + JSON + small body, then the async action.
        func post(_ path: String, _ action: @escaping @Sendable (JSONValue) async throws -> Void) {
            router.route(.post, path) { request, responder in
                guard sameOrigin(request), authorized(request, false) else {
                    responder.send(Self.wrap(.status(.forbidden))); return
                }
                guard SecurityGates.isJSON(request) else {
                    responder.send(Self.wrap(.status(.unsupportedMediaType))); return
                }
                guard request.body.count <= configuration.maxSmallBodyBytes else {
                    responder.send(Self.wrap(.status(.contentTooLarge))); return
                }
                Task {
                    do {
                        try await action(try JSONValue.parse(request.body))
                        responder.send(Self.wrap(.json(Array("{\"ok\":true}".utf8))))
                    } catch let error as SignerError where error.code == .unknownApproval {
                        responder.send(Self.wrap(.json(Array("{\"ok\":false}".utf8), status: .notFound)))
                    } catch let error as GatewayError where error.code == .notSaved {
                        // The store refused the change (logged by the service): nothing happened.
                        responder.send(Self.wrap(.status(.internalServerError)))
                    } catch {
                        responder.send(Self.wrap(.status(.badRequest)))
                    }
                }
            }
        }
        @Sendable func approvalID(_ body: JSONValue) throws -> UInt64 {
            guard let id = body["id"]?.integer(as: UInt64.self) else {
                throw GatewayError(.invalidInput, "field id")
            }
            return id
        }
        post("/api/approve") { body in
            let accounts: [String] =
                if case .array(let items) = body["accounts"] ?? .null { items.compactMap(\.stringValue) } else { [] }
            try await service.approve(try approvalID(body), accounts: accounts)
        }
        post("/api/reject") { body in try await service.reject(try approvalID(body)) }
        post("/api/revoke") { body in
            guard let source = body["source"]?.stringValue else { throw GatewayError(.invalidInput, "field source") }
            try await service.revoke(source)
        }
        post("/api/blind-signing") { body in
            guard let source = body["source"]?.stringValue, case .bool(let on) = body["on"] ?? .null else {
                throw GatewayError(.invalidInput, "fields source, on")
            }
            try await service.setBlindSigning(on, for: source)
        }
        post("/api/accounts") { body in
            guard let source = body["source"]?.stringValue, case .array(let items) = body["accounts"] ?? .null else {
                throw GatewayError(.invalidInput, "fields source, accounts")
            }
            try await service.setAccounts(source, accounts: items.compactMap(\.stringValue))
        }
        router.route(.get, "/api/state") { request, responder in
            guard authorized(request, false) else { responder.send(Self.wrap(.status(.forbidden))); return }
            Task {
                let state = await ApprovalState.json(
                    service: service, directory: directory, endpoints: endpoints,
                    bookmarklet: GatewayAssets.bookmarklet(files: files, endpoints: endpoints))
                responder.send(Self.wrap(.json(state.encoded())))
            }
        }
        // One request's Details in full, for the page's "N more" (state rows are capped).
        router.route(.get, "/api/details") { request, responder in
            guard authorized(request, false) else { responder.send(Self.wrap(.status(.forbidden))); return }
            guard let id = request.queryParameter("id").flatMap({ UInt64($0) }) else {
                responder.send(Self.wrap(.status(.badRequest))); return
            }
            Task {
                let details = await ApprovalState.details(service: service, id: id)
                responder.send(Self.wrap(details.map { .json($0.encoded()) } ?? .status(.notFound)))
            }
        }
        // The History view: recent journal entries and the latest verification (docs/journal.md).
        router.route(.get, "/api/journal") { request, responder in
            guard authorized(request, false) else { responder.send(Self.wrap(.status(.forbidden))); return }
            Task {
                let view = await JournalView.json(journal: service.journal, request: request)
                responder.send(Self.wrap(.json(view.encoded())))
            }
        }
        post("/api/journal/verify") { _ in
            guard let journal = service.journal else { throw GatewayError(.invalidInput, "no journal") }
            _ = try await journal.verify()
        }
        router.route(.get, "/api/events") { request, responder in
            guard authorized(request, true) else { responder.send(Self.wrap(.status(.forbidden))); return }
            Task {
                let changes = await service.changes()
                var headers: HTTPHeaders = [:]
                for (name, value) in Self.pageHeaders where name != "Cache-Control" { headers.set(name, value) }
                guard let stream = responder.startEventStream(headers: headers) else { return }
                stream.send(ServerSentEvent(event: "changed", data: "{}", retryMilliseconds: 2000))
                let pump = Task {
                    for await _ in changes { stream.send(ServerSentEvent(event: "changed", data: "{}")) }
                    stream.close()
                }
                stream.onTermination { pump.cancel() }
            }
        }
        router.get("/sigil.user.js") { request in
            guard authorized(request, true) else { return Self.wrap(.status(.forbidden)) }
            guard
                let script = GatewayAssets.userscript(
                    files: files, endpoints: endpoints, relayToken: configuration.relayToken)
            else { return Self.wrap(.status(.notFound)) }
            var response = HTTPResponse(
                status: .ok, headers: ["Content-Type": "application/javascript; charset=utf-8"], body: script)
            response.headers.set("Content-Disposition", "inline; filename=\"sigil.user.js\"")
            return Self.wrap(response)
        }
        router.get("/") { request in
            var page = request
            page.path = "/ui/index.html"
            return Self.wrap(files.response(for: page, cacheControl: "no-store") ?? .status(.notFound))
        }
        router.get("/ui/:file") { request in
            Self.wrap(files.response(for: request, cacheControl: "no-store") ?? .status(.notFound))
        }
        self.router = router
        _ = logger
    }

    package func handle(_ request: HTTPRequest, responder: HTTPResponder) {
        // Liveness answers any Host: a container orchestrator or load balancer probes by IP address,
        // and the answer holds nothing a DNS-rebinding page could use (status, version, uptime).
        if request.path == "/healthz" {
            responder.noteRoute("/healthz")
            responder.send(Self.health(request, telemetry: telemetry))
            return
        }
        // Metrics need a token a rebinding page cannot know, and a scraper names the host by its
        // own address: no Host gate here either (docs/observability.md).
        if request.path == "/metrics" {
            responder.noteRoute("/metrics")
            metrics(request, responder: responder)
            return
        }
        guard
            SecurityGates.hostAllowed(request, extra: extraHosts, defaultPort: defaultHostPort, publicURLs: publicURLs)
        else {
            responder.send(
                Self.wrap(SecurityGates.hostRefusal(request, option: "public-ui-url", tls: defaultHostPort == 443)))
            return
        }
        router.handle(request, responder: responder)
    }

    /// `GET /metrics`: 401 with `WWW-Authenticate: Bearer` without a valid token, else the
    /// Prometheus text (pending approvals read from the service).
    private func metrics(_ request: HTTPRequest, responder: HTTPResponder) {
        guard request.method == .get || request.method == .head else {
            responder.send(Self.wrap(HTTPResponse(status: .methodNotAllowed, headers: ["Allow": "GET, HEAD"])))
            return
        }
        guard telemetry.mayReadMetrics(request, approvalToken: approvalToken) else {
            var refused = HTTPResponse(status: .unauthorized)
            refused.headers.set("WWW-Authenticate", "Bearer realm=\"sigil-metrics\"")
            responder.send(Self.wrap(refused))
            return
        }
        let telemetry = telemetry
        let service = service
        Task {
            let pending = await service.pendingApprovals.count
            let body = telemetry.renderMetrics(pendingApprovals: pending)
            responder.send(
                Self.wrap(
                    HTTPResponse(
                        status: .ok, headers: ["Content-Type": PrometheusText.contentType], body: Array(body.utf8))
                ))
        }
    }

    /// `GET`/`HEAD /healthz`: 200 `{"status":"ok","version":…,"uptimeSeconds":…}`; other methods 405.
    static func health(_ request: HTTPRequest, telemetry: GatewayTelemetry) -> HTTPResponse {
        guard request.method == .get || request.method == .head else {
            return wrap(HTTPResponse(status: .methodNotAllowed, headers: ["Allow": "GET, HEAD"]))
        }
        return wrap(.json(telemetry.healthJSON().encoded()))
    }

    static func wrap(_ response: HTTPResponse) -> HTTPResponse {
        var response = response
        for (name, value) in pageHeaders { response.headers.set(name, value) }
        return response
    }
}
