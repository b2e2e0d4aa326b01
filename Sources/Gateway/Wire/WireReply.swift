import Primitives

/// A reply to a client, correlated by the request id (never by message type): `{id, response}`,
/// `{id, error}` or `{id, subscription}` (polkadot-js/extension `handlers/index.ts`).
package struct WireReply: Sendable, Equatable {
    /// What the reply carries.
    package enum Body: Sendable, Equatable {
        case response(JSONValue)
        case error(String)
        case subscription(JSONValue)
    }

    /// The request id the client chose.
    package var id: String
    /// The content.
    package var body: Body

    /// Creates a reply.
    package init(id: String, _ body: Body) {
        self.id = id
        self.body = body
    }

    /// The JSON form sent on the wire.
    package var json: JSONValue {
        switch body {
        case .response(let value): ["id": .string(id), "response": value]
        case .error(let message): ["id": .string(id), "error": .string(message)]
        case .subscription(let value): ["id": .string(id), "subscription": value]
        }
    }
}
