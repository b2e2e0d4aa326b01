import Primitives

/// A reply to a client, correlated by the request id (never by message type): `{id, response}`,
/// `{id, error}` or `{id, subscription}` (polkadot-js/extension `handlers/index.ts`).
public struct WireReply: Sendable, Equatable {
    /// What the reply carries.
    public enum Body: Sendable, Equatable {
        case response(JSONValue)
        case error(String)
        case subscription(JSONValue)
    }

    /// The request id the client chose.
    public var id: String
    /// The content.
    public var body: Body

    /// Creates a reply.
    public init(id: String, _ body: Body) {
        self.id = id
        self.body = body
    }

    /// The JSON form sent on the wire.
    public var json: JSONValue {
        switch body {
        case .response(let value): ["id": .string(id), "response": value]
        case .error(let message): ["id": .string(id), "error": .string(message)]
        case .subscription(let value): ["id": .string(id), "subscription": value]
        }
    }
}
