import Primitives

/// A request envelope `{id, message, request}` (polkadot-js `TransportRequestMessage` without the
/// routing `origin` tag; the site identity never comes from the body).
package struct WireRequest: Sendable, Equatable {
    /// The client's request id: 1…128 printable ASCII characters.
    package var id: String
    /// The message name, e.g. `pub(extrinsic.sign)`.
    package var message: String
    /// The message's argument (`null` when absent).
    package var request: JSONValue

    /// The longest request id accepted.
    package static let maxIDLength = 128

    /// Creates a request.
    package init(id: String, message: String, request: JSONValue = .null) {
        self.id = id
        self.message = message
        self.request = request
    }

    /// Parses an envelope from untrusted JSON.
    /// - Throws: `GatewayError.invalidInput` naming the bad field.
    package init(json: JSONValue) throws {
        guard case .object = json else { throw GatewayError(.invalidInput, "the request is not a JSON object") }
        guard let id = json["id"]?.stringValue, !id.isEmpty, id.utf8.count <= Self.maxIDLength,
            id.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F })
        else { throw GatewayError(.invalidInput, "field id: 1…128 printable ASCII characters required") }
        guard let message = json["message"]?.stringValue, !message.isEmpty, message.utf8.count <= 64,
            message.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F })
        else {
            throw GatewayError(.invalidInput, "field message: a message name is required")
        }
        self.init(id: id, message: message, request: json["request"] ?? .null)
    }
}
