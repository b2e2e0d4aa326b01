import GatewayHTTP
import Primitives

/// `POST /v1/ethereum` (docs/protocol.md "Ethereum"): one EIP-1193 JSON-RPC 2.0 request per POST,
/// answered with one JSON-RPC 2.0 reply, held until the person decides. Gates as `/v1/icrc`:
/// identity (`X-Sigil-Session` or a bearer token), JSON content type (415), size (413), then the
/// admission gate (429; a denied host is the JSON-RPC error 4100) before the adapter reads the
/// body. A client that drops the connection withdraws its prompt.
extension DappHandler {
    static func addEthereumRoute(
        to router: inout Router, service: GatewayService, configuration: GatewayConfiguration,
        identify: ClientIdentification, ethereum: EthereumService
    ) {
        router.route(.post, "/v1/ethereum") { request, responder in
            let ident: ClientIdentification.Result
            switch identify(request, session: request.headers["X-Sigil-Session"] ?? "ethereum-json-rpc") {
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
                if let refusal = await service.admit(ident.client, at: .ethereum) {
                    responder.send(
                        ident.decorate(await Self.ethereumRefusal(refusal, request.body, ident.client, service)))
                    return
                }
                let reply = await ethereum.handle(body: request.body, origin: ident.client.source)
                responder.send(ident.decorate(Self.json(reply, .ok)))
            }
            responder.onCancel { task.cancel() }
        }
    }

    /// The Ethereum route's answer to a gate refusal: 429, or for a denied host the JSON-RPC error
    /// 4100 with the request's id (the refusal journaled within the budget, as for ICRC).
    static func ethereumRefusal(
        _ refusal: AdmissionRefusal, _ body: [UInt8], _ client: ClientIdentity, _ service: GatewayService
    ) async -> HTTPResponse {
        guard refusal == .deniedHost else { return .status(.tooManyRequests) }
        let parsed = try? JSONValue.parse(body)
        if let method = parsed?["method"]?.stringValue { await service.noteDenied(method, client.source) }
        let id = parsed?["id"].flatMap { $0.stringValue != nil || $0.integer(as: Int64.self) != nil ? $0 : nil }
        let reply = EthereumService.reply(
            id: id ?? .null, error: .unauthorized("Unauthorized: the site is on Sigil's deny list."))
        return json(reply, .ok)
    }
}
