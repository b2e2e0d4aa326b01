import Foundation
import GatewayHTTP
import Primitives
import SignerCore

extension EntryPoint {
    /// `POST /icon/connect`: ICONex Connect v1 as a JSON body.
    package static let iconConnectPost = EntryPoint("POST", "/icon/connect")
    /// `GET /icon/connect`: ICONex Connect v1 in the seed's URL form (answered by a 303).
    package static let iconConnectGet = EntryPoint("GET", "/icon/connect")
}

/// ICONex Connect v1 over HTTP (docs/protocol.md "ICON"), beside the relay messages the bridge
/// sends to `/v1/request`:
///
/// - `POST /icon/connect` with the v1 object `{id, method, params}` as the JSON body, for programs
///   (bearer client token) and pages (`Origin`); the answer `{id, code, result}` comes when the
///   person has decided (the request waits).
/// - `GET /icon/connect?data=<Base64 JSON>&caller=<URL>`, the seed's own URL form: the browser
///   navigates here, the person decides on the approval page, and the browser is redirected
///   (303) to `caller?data=<Base64 answer>`. `caller` must be an `http`/`https` URL of the same
///   origin as the page that navigated here (its `Referer`); it is the site identity and is shown
///   to the person. No `caller`: `-1004` as JSON (nowhere to redirect to).
enum IconConnectRoutes {
    static let message = Icon.Connect.name

    static func add(
        to router: inout Router, service: GatewayService, configuration: GatewayConfiguration,
        identify: ClientIdentification
    ) {
        router.route(.post, "/icon/connect") { request, responder in
            let session = request.headers["X-Sigil-Session"] ?? newSession()
            let ident: ClientIdentification.Result
            switch identify(request, session: session) {
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
                let refusal = await service.admit(ident.client, at: .iconConnectPost)
                guard refusal != .rateLimited else {
                    responder.send(ident.decorate(.status(.tooManyRequests))); return
                }
                let body = try? JSONValue.parse(request.body)
                if refusal == .deniedHost {
                    await service.noteDenied(message, ident.client.source)
                    responder.send(ident.decorate(DappHandler.json(failure(.cancelled, id: body?["id"] ?? .null), .ok)))
                    return
                }
                let answer = await run(service, body: body, client: ident.client)
                if request.headers["X-Sigil-Session"] == nil {
                    await service.closeSession(ident.client.session, source: ident.client.source)
                }
                responder.send(ident.decorate(DappHandler.json(answer, .ok)))
            }
            responder.onCancel { task.cancel() }
        }
        router.route(.get, "/icon/connect") { request, responder in
            guard let caller = request.queryParameter("caller"), !caller.isEmpty else {
                responder.send(DappHandler.json(failure(.noCaller, id: .null), .badRequest)); return
            }
            guard let callerOrigin = origin(ofURL: caller),
                let referer = request.headers["Referer"], let refererOrigin = origin(ofURL: referer),
                refererOrigin == callerOrigin
            else {
                responder.send(
                    .text(
                        "Sigil: the caller must be an http(s) URL of the page that opened this link.",
                        status: .forbidden)
                )
                return
            }
            let client = ClientIdentity(source: callerOrigin.description, session: newSession())
            let task = Task {
                let answer: JSONValue
                let refusal = await service.admit(client, at: .iconConnectGet)
                guard refusal != .rateLimited else { responder.send(.status(.tooManyRequests)); return }
                let body = request.queryParameter("data").flatMap(decodeData)
                switch refusal {
                case .rateLimited?, .deniedHost?:
                    await service.noteDenied(message, client.source)
                    answer = failure(.cancelled, id: body?["id"] ?? .null)
                case nil:
                    answer = await run(service, body: body, client: client, caller: caller)
                    await service.closeSession(client.session, source: client.source)
                }
                var response = HTTPResponse(status: HTTPStatus(code: 303, reasonPhrase: "See Other"))
                response.headers.set("Location", redirect(caller, answer))
                response.headers.set("Cache-Control", "no-store")
                response.headers.set("Referrer-Policy", "no-referrer")
                responder.send(response)
            }
            responder.onCancel { task.cancel() }
        }
    }

    /// Runs one Connect request through the gateway and waits for its answer.
    static func run(
        _ service: GatewayService, body: JSONValue?, client: ClientIdentity, caller: String? = nil
    ) async -> JSONValue {
        guard let body, case .object = body else { return failure(.parseError, id: .null) }
        let id = "connect"
        do {
            let events = try await service.events(for: client, after: nil)
            let wire = WireRequest(id: id, message: message, request: body)
            let outcome =
                if let caller {
                    try await service.handleIconConnect(wire, from: client, caller: caller)
                } else {
                    try await service.handle(wire, from: client)
                }
            switch outcome {
            case .reply(let reply): return answer(reply, id: body["id"] ?? .null)
            case .pending:
                for await event in events where event.reply.id == id {
                    return answer(event.reply, id: body["id"] ?? .null)
                }
                return failure(.cancelled, id: body["id"] ?? .null)
            }
        } catch {
            return failure(.network("Sigil is busy"), id: body["id"] ?? .null)
        }
    }

    static func answer(_ reply: WireReply, id: JSONValue) -> JSONValue {
        if case .response(let value) = reply.body { return value }
        return failure(.signFailed, id: id)
    }

    static func failure(_ error: IconConnectError, id: JSONValue) -> JSONValue {
        ["id": id, "code": .integer(error.code), "result": .string(error.message)]
    }

    /// The origin of an absolute `http`/`https` URL (scheme, host, port), or nil.
    static func origin(ofURL url: String) -> SiteOrigin? {
        guard let schemeEnd = url.range(of: "://") else { return nil }
        let scheme = url[..<schemeEnd.lowerBound].lowercased()
        guard scheme == "http" || scheme == "https" else { return nil }
        let rest = url[schemeEnd.upperBound...]
        let authority = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        guard !authority.isEmpty, !authority.contains("@") else { return nil }
        return SiteOrigin("\(scheme)://\(authority)")
    }

    /// `data`: standard or URL-safe Base64 (a `+` read as a space by form decoding is put back).
    static func decodeData(_ text: String) -> JSONValue? {
        var s = text.replacingOccurrences(of: " ", with: "+").replacingOccurrences(of: "-", with: "+")
            .replacingOccurrences(of: "_", with: "/")
        while s.utf8.count % 4 != 0 { s += "=" }
        guard s.utf8.count <= 1 << 20, let data = Data(base64Encoded: s) else { return nil }
        return try? JSONValue.parse(Array(data))
    }

    /// `caller` with `data=<Base64 answer>` added to its query (before any fragment).
    static func redirect(_ caller: String, _ answer: JSONValue) -> String {
        let encoded = Data(answer.encoded()).base64EncodedString()
            .replacingOccurrences(of: "+", with: "%2B").replacingOccurrences(of: "/", with: "%2F")
            .replacingOccurrences(of: "=", with: "%3D")
        var base = caller
        var fragment = ""
        if let hash = caller.firstIndex(of: "#") {
            base = String(caller[..<hash])
            fragment = String(caller[hash...])
        }
        return base + (base.contains("?") ? "&" : "?") + "data=" + encoded + fragment
    }

    static func newSession() -> String {
        "iconconnect-" + Hex.encode(SecretBytes.random(count: 12).unsafeExposedBytes(), prefix: false)
    }
}
