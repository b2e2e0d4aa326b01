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
        if let method = parsed?["method"]?.stringValue { await service.noteDenied(method, client.source) }
        // JSON-RPC ids are strings or integers; anything else is answered with null.
        let id = parsed?["id"].flatMap { $0.stringValue != nil || $0.integer(as: Int64.self) != nil ? $0 : nil }
        return json(adapter.deniedReply(id: id), .ok)
    }
}
