import Primitives

/// One JSON-RPC 2.0 request, strictly read: `jsonrpc` must be `"2.0"`, `id` a string or integer
/// (notifications without `id` are refused: every ICRC method answers), `method` a string, `params`
/// an object or absent.
package struct IcrcRequest: Sendable, Hashable {
    package let id: JSONValue
    package let method: String
    package let params: JSONValue

    package init(id: JSONValue, method: String, params: JSONValue = .null) {
        self.id = id
        self.method = method
        self.params = params
    }

    package init(json: JSONValue) throws(IcrcError) {
        guard case .object = json, json["jsonrpc"]?.stringValue == "2.0" else {
            throw IcrcError(.invalidRequest, "not a JSON-RPC 2.0 request")
        }
        guard let id = json["id"], id.stringValue != nil || id.numberValue?.integer(as: Int64.self) != nil else {
            throw IcrcError(.invalidRequest, "id must be a string or an integer")
        }
        guard let method = json["method"]?.stringValue else {
            throw IcrcError(.invalidRequest, "method must be a string")
        }
        let params = json["params"] ?? .null
        guard params == .null || params.objectValue != nil else {
            throw IcrcError(.invalidRequest, "params must be an object")
        }
        self.init(id: id, method: method, params: params)
    }

    /// The reply envelope for a result.
    package func reply(_ result: JSONValue) -> JSONValue { ["jsonrpc": "2.0", "id": id, "result": result] }

    /// The reply envelope for an error (id null when the request had none that could be read).
    package static func reply(id: JSONValue?, error: IcrcError) -> JSONValue {
        ["jsonrpc": "2.0", "id": id ?? .null, "error": error.json]
    }
}
