import GatewayHTTP
import Primitives

/// A protocol adapter served on the dapp port as one JSON-RPC route (ICRC at `POST /v1/icrc`,
/// Ethereum at `POST /v1/ethereum`). The route is written once (``DappHandler``'s
/// `addAdapterRoute`), so every adapter passes the same gates in the same order and none can go
/// around them: identity (`Origin`, or a bearer token; `X-Sigil-Session`, else `defaultSession`),
/// JSON content type (415), body size (413), then the admission gate at ``entryPoint`` (429; a
/// denied host gets the protocol's own refusal from ``deniedReply(id:)``, journaled within the
/// budget) before the adapter reads the body. A client that drops the connection cancels the
/// adapter's task, which withdraws its prompt (``ApprovalSeam``).
package protocol JSONRPCAdapter: Sendable {
    /// The route and its admission bucket.
    var entryPoint: EntryPoint { get }
    /// The session of a request that names none (its replies are not on any tab's event log).
    var defaultSession: String { get }
    /// Answers one request body (one JSON-RPC object) for `origin`, the transport's identity.
    func handle(body: [UInt8], origin: String) async -> JSONValue
    /// The protocol's answer to a request from a denied host, for the request id `id`.
    func deniedReply(id: JSONValue?) -> JSONValue
    /// Whether `method` would ask a person: a denied host's request for it is journaled as refused
    /// (within the journal budget), as every protocol's is.
    func asksAPerson(_ method: String) -> Bool
    /// A signer page of this port that relays for a dapp (ICRC-29), or nil.
    var pageRelay: PageRelay? { get }
}

extension JSONRPCAdapter {
    package var pageRelay: PageRelay? { nil }
}

/// A signer page served on the dapp port itself (the ICRC-29 page, `public/icrc29.html`) that relays
/// a dapp's requests with the origin its browser gave it (`event.origin`). Only the page may name
/// another origin: the request must be same-origin (its `Origin` is this port's own, which no other
/// site's browser request can carry) and name the dapp in ``originHeader``; then it passes the same
/// gates as the adapter route, with that origin as the identity.
package struct PageRelay: Sendable {
    /// The relay's route and admission bucket (`POST /v1/icrc29`).
    package let entryPoint: EntryPoint
    /// The header carrying the dapp's origin (`X-Sigil-ICRC29-Origin`).
    package let originHeader: String
    /// The session its replies belong to.
    package let session: String

    package init(entryPoint: EntryPoint, originHeader: String, session: String) {
        self.entryPoint = entryPoint
        self.originHeader = originHeader
        self.session = session
    }
}

extension DappHandler {
    /// Registers an adapter's route with the gates every adapter passes (``JSONRPCAdapter``).
    static func addAdapterRoute(
        _ adapter: any JSONRPCAdapter, to router: inout Router, service: GatewayService,
        configuration: GatewayConfiguration, identify: ClientIdentification
    ) {
        router.route(.post, adapter.entryPoint.path) { request, responder in
            let ident: ClientIdentification.Result
            switch identify(request, session: request.headers["X-Sigil-Session"] ?? adapter.defaultSession) {
            case .refused(let response): responder.send(response); return
            case .identified(let value): ident = value
            }
            guard SecurityGates.isJSON(request) else {
                responder.send(ident.decorate(.status(.unsupportedMediaType))); return
            }
            guard request.body.count <= configuration.maxRequestBodyBytes else {
                responder.send(ident.decorate(.status(.contentTooLarge))); return
            }
            let task = Task {
                if let refusal = await service.admit(ident.client, at: adapter.entryPoint) {
                    responder.send(
                        ident.decorate(await Self.adapterRefusal(adapter, refusal, request.body, ident.client, service))
                    )
                    return
                }
                let reply = await adapter.handle(body: request.body, origin: ident.client.source)
                responder.send(ident.decorate(Self.json(reply, .ok)))
            }
            responder.onCancel { task.cancel() }
        }
        if let relay = adapter.pageRelay {
            addPageRelayRoute(relay, adapter, to: &router, service: service, configuration: configuration)
        }
    }

    /// The route of an adapter's signer page (``PageRelay``): same-origin only, the dapp's origin from
    /// the page, then the gates of the adapter route.
    static func addPageRelayRoute(
        _ relay: PageRelay, _ adapter: any JSONRPCAdapter, to router: inout Router, service: GatewayService,
        configuration: GatewayConfiguration
    ) {
        let scheme = configuration.usesTLS ? "https" : "http"
        router.route(.post, relay.entryPoint.path) { request, responder in
            guard let host = request.headers["Host"], let own = SiteOrigin("\(scheme)://\(host)"),
                let origin = SecurityGates.siteOrigin(request), origin == own,
                let claimed = request.headers[relay.originHeader].flatMap(SiteOrigin.init), claimed != own
            else { responder.send(.status(.forbidden)); return }
            guard SecurityGates.isJSON(request) else { responder.send(.status(.unsupportedMediaType)); return }
            guard request.body.count <= configuration.maxRequestBodyBytes else {
                responder.send(.status(.contentTooLarge)); return
            }
            let task = Task {
                let client = ClientIdentity(source: claimed.description, session: relay.session)
                if let refusal = await service.admit(client, at: relay.entryPoint) {
                    responder.send(await Self.adapterRefusal(adapter, refusal, request.body, client, service))
                    return
                }
                responder.send(Self.json(await adapter.handle(body: request.body, origin: claimed.description), .ok))
            }
            responder.onCancel { task.cancel() }
        }
    }

    /// An adapter route's answer to a gate refusal: 429, or for a denied host the protocol's refusal
    /// with the request's id (read from the body when it parses; the refusal is journaled within the
    /// budget when the method would have asked a person).
    static func adapterRefusal(
        _ adapter: any JSONRPCAdapter, _ refusal: AdmissionRefusal, _ body: [UInt8], _ client: ClientIdentity,
        _ service: GatewayService
    ) async -> HTTPResponse {
        guard refusal == .deniedHost else { return .status(.tooManyRequests) }
        let parsed = try? JSONValue.parse(body)
        if let method = parsed?["method"]?.stringValue, adapter.asksAPerson(method) {
            await service.journalDenied(method, client.source)
        }
        // JSON-RPC ids are strings or integers; anything else is answered with null.
        let id = parsed?["id"].flatMap { $0.stringValue != nil || $0.integer(as: Int64.self) != nil ? $0 : nil }
        return json(adapter.deniedReply(id: id), .ok)
    }
}
