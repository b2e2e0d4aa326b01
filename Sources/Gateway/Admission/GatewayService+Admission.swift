import Primitives
import SignerCore

extension GatewayService {
    /// The answer to a message of the bridge (`POST /v1/request`) from a host the deny list names
    /// (``AdmissionRefusal/deniedHost``), given without a session, a queue place or a prompt:
    /// `pub(phishing.redirectIfDenied)` is answered `true` (the bridge may act on it), every other
    /// message with its protocol's "not allowed" (polkadot-js's `… is not allowed to interact with
    /// this extension`; ICON relay: `-1000`). A message that would have asked a person is journaled
    /// as `refused` within the journal budget.
    package func refuseDenied(_ request: WireRequest, from client: ClientIdentity) async -> WireReply {
        let method = registry.method(named: request.message)
        if case .polkadot(.phishingRedirectIfDenied) = method {
            return WireReply(id: request.id, .response(true))
        }
        await noteDenied(request.message, client.source)
        let refusal = GatewayError(.notAllowed, "denied host")
        switch method?.type.wireProtocol ?? .polkadot {
        case .icon: return WireReply(id: request.id, IconGateway.failure(.plain, .cancelled))
        case let wireProtocol:
            return WireReply(
                id: request.id, registry.errorMapper(for: wireProtocol).body(for: refusal, source: client.source))
        }
    }

    /// Journals the refusal of a denied host's `message` (a bridge message: polkadot-js, ICON) when
    /// the message asks a person, within the journal budget (docs/journal.md §1).
    package func noteDenied(_ message: String, _ source: String) async {
        guard let method = registry.method(named: message), method.asksAPerson else { return }
        await journalDenied(message, source)
    }

    /// Journals the refusal of a denied host's request for `method`, a method that asks a person
    /// (the adapter said so: ``JSONRPCAdapter/asksAPerson(_:)``), within the journal budget.
    package func journalDenied(_ method: String, _ source: String) async {
        await coordinator.journalRefusal(method: method, source, GatewayError(.notAllowed, "denied host"))
    }
}
