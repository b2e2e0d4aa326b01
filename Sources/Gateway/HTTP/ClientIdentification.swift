import GatewayHTTP

/// Establishes who sent a dapp-port request (never from the body):
/// - a browser page: its `Origin` header (a well-formed http(s) origin), answered with CORS headers
///   echoing exactly that origin plus `Vary: Origin`;
/// - the userscript relay: `Authorization: Bearer <relay token>` plus `X-Sigil-Relay-Origin`, the
///   origin of the tab it runs in (it cannot be set by a page: pages only reach us through CORS,
///   and our preflight does not allow `Authorization`);
/// - a non-browser client: `Authorization: Bearer <client token>`, source `client:NAME`.
struct ClientIdentification: Sendable {
    let configuration: GatewayConfiguration

    struct Result: Sendable {
        let client: ClientIdentity
        /// The origin to echo in CORS headers (browser requests only).
        let corsOrigin: String?

        func corsHeaders(into headers: inout HTTPHeaders) {
            guard let corsOrigin else { return }
            headers.set("Access-Control-Allow-Origin", corsOrigin)
            headers.set("Vary", "Origin")
        }

        func decorate(_ response: HTTPResponse) -> HTTPResponse {
            var response = response
            corsHeaders(into: &response.headers)
            return response
        }
    }

    enum Outcome: Sendable {
        case identified(Result)
        case refused(HTTPResponse)
    }

    func callAsFunction(_ request: HTTPRequest, session: String?) -> Outcome {
        guard let session, ClientIdentity.isValidSession(session) else {
            return .refused(.status(.badRequest))
        }
        if let token = SecurityGates.bearerToken(request) {
            if SecurityGates.constantTimeEqual(token, configuration.relayToken) {
                guard let claimed = request.headers["X-Sigil-Relay-Origin"], let origin = SiteOrigin(claimed) else {
                    return .refused(.status(.badRequest))
                }
                return .identified(
                    Result(client: ClientIdentity(source: origin.description, session: session), corsOrigin: nil))
            }
            var name: String?
            for (candidate, clientName) in configuration.clientTokens
            where SecurityGates.constantTimeEqual(token, candidate) {
                name = clientName
            }
            guard let name else { return .refused(.status(.unauthorized)) }
            return .identified(
                Result(client: ClientIdentity(source: "client:\(name)", session: session), corsOrigin: nil))
        }
        guard let origin = SecurityGates.siteOrigin(request) else { return .refused(.status(.forbidden)) }
        return .identified(
            Result(client: ClientIdentity(source: origin.description, session: session), corsOrigin: origin.description)
        )
    }
}
