import Primitives
import SignerCore

/// How an ICON reply is shaped (every one carries a Connect v1 `code`, 1 = success).
enum IconReplyShape: Sendable, Equatable {
    /// Relay events: `{code, result}`.
    case plain
    /// ICONex Connect v1: `{id, code, result}` with the request's `id`.
    case connect(JSONValue)
    /// Relay `REQUEST_JSON-RPC`: `{code, result}` where `result` is the JSON-RPC 2.0 response
    /// (`{jsonrpc, id, result}` or `{jsonrpc, id, error: {code, message}}`).
    case jsonRPC(JSONValue)
}

/// ICON reply bodies and titles (docs/protocol.md "ICON").
enum IconGateway {
    static func title(_ request: IconSigningRequest, source: String) -> String {
        switch request.action {
        case .signOnly: "Sign an ICON transaction for \(source)? (the site sends it)"
        case .send: "Sign and send an ICON transaction for \(source)?"
        case .blindHash: "BLIND-sign a hash for \(source)?"
        }
    }

    static func success(_ shape: IconReplyShape, _ result: JSONValue) -> WireReply.Body {
        switch shape {
        case .plain: .response(["code": 1, "result": result])
        case .connect(let id): .response(["id": id, "code": 1, "result": result])
        case .jsonRPC(let id): .response(["code": 1, "result": ["jsonrpc": "2.0", "id": id, "result": result]])
        }
    }

    static func failure(_ shape: IconReplyShape, _ error: IconConnectError) -> WireReply.Body {
        switch shape {
        case .plain: .response(["code": .integer(error.code), "result": .string(error.message)])
        case .connect(let id): .response(["id": id, "code": .integer(error.code), "result": .string(error.message)])
        case .jsonRPC(let id):
            .response([
                "code": .integer(error.code),
                "result": [
                    "jsonrpc": "2.0", "id": id,
                    "error": ["code": .integer(error.code), "message": .string(error.message)],
                ],
            ])
        }
    }

    /// The fields of the v3 transaction (everything else is refused by IconCodec).
    static let defaultStepLimitTransfer = "0x186a0"  // 100,000
    static let defaultStepLimitCall = "0x1e8480"  // 2,000,000

    static func hex(_ value: some BinaryInteger) -> String { "0x" + String(value, radix: 16) }
}

/// Small checks shared by the ICON paths.
enum IconSigningGate {
    /// `hx` + 40 lower-case hex digits (safe to echo in a Connect message).
    static func isAddress(_ s: String) -> Bool {
        let u = Array(s.utf8)
        return u.count == 42 && u[0] == UInt8(ascii: "h") && u[1] == UInt8(ascii: "x")
            && u[2...].allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x61 && $0 <= 0x66) }
    }
}
