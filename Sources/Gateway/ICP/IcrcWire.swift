import Foundation
import Primitives

/// ICRC-25 error codes (dfinity/wg-identity-authentication `icrc_25_signer_interaction_standard.md`,
/// ICRC-49 adds 2001) and the JSON-RPC 2.0 codes for malformed envelopes.
public enum IcrcErrorCode: Int, Sendable, Hashable {
    case genericError = 1000
    case notSupported = 2000
    case noConsentMessage = 2001
    case permissionNotGranted = 3000
    case actionAborted = 3001
    case networkError = 4000
    case invalidRequest = -32600
    case parseError = -32700

    public var message: String {
        switch self {
        case .genericError: "Generic error"
        case .notSupported: "Not supported"
        case .noConsentMessage: "No consent message"
        case .permissionNotGranted: "Permission not granted"
        case .actionAborted: "Action aborted"
        case .networkError: "Network error"
        case .invalidRequest: "Invalid Request"
        case .parseError: "Parse error"
        }
    }
}

/// An ICRC error reply: a code from the standard and a description Sigil wrote (never echoed input).
public struct IcrcError: Error, Sendable, Hashable {
    public let code: IcrcErrorCode
    public let description: String

    public init(_ code: IcrcErrorCode, _ description: String) {
        self.code = code
        self.description = description
    }

    var json: JSONValue {
        [
            "code": .integer(code.rawValue), "message": .string(code.message),
            "data": ["description": .string(description)],
        ]
    }
}

/// The ICRC signer methods Sigil answers (ICRC-25, -27, -29, -49): a closed set.
public enum IcrcMethod: String, Sendable, Hashable, CaseIterable {
    case requestPermissions = "icrc25_request_permissions"
    case permissions = "icrc25_permissions"
    case supportedStandards = "icrc25_supported_standards"
    case accounts = "icrc27_accounts"
    case callCanister = "icrc49_call_canister"
    case status = "icrc29_status"
    /// Sigil's own: signed envelopes for tools that submit themselves (offline; optionally a
    /// Rosetta-style series over `windowSeconds`). Needs the `icrc49_call_canister` scope.
    case signEnvelopes = "sigil_icp_sign_envelopes"

    /// The methods a site asks permission for (ICRC-25 scopes).
    public static let scoped: [IcrcMethod] = [.accounts, .callCanister]

    /// `icrc25_supported_standards`: name and specification of each standard Sigil implements.
    public static let standards: [(name: String, url: String)] = [
        ("ICRC-25", "https://github.com/dfinity/ICRC/blob/main/ICRCs/ICRC-25/ICRC-25.md"),
        ("ICRC-27", "https://github.com/dfinity/ICRC/blob/main/ICRCs/ICRC-27/ICRC-27.md"),
        ("ICRC-29", "https://github.com/dfinity/ICRC/blob/main/ICRCs/ICRC-29/ICRC-29.md"),
        ("ICRC-49", "https://github.com/dfinity/ICRC/blob/main/ICRCs/ICRC-49/ICRC-49.md"),
    ]
}

/// One JSON-RPC 2.0 request, strictly read: `jsonrpc` must be `"2.0"`, `id` a string or integer
/// (notifications without `id` are refused: every ICRC method answers), `method` a string, `params`
/// an object or absent.
public struct IcrcRequest: Sendable, Hashable {
    public let id: JSONValue
    public let method: String
    public let params: JSONValue

    public init(id: JSONValue, method: String, params: JSONValue = .null) {
        self.id = id
        self.method = method
        self.params = params
    }

    public init(json: JSONValue) throws(IcrcError) {
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
    public func reply(_ result: JSONValue) -> JSONValue { ["jsonrpc": "2.0", "id": id, "result": result] }

    /// The reply envelope for an error (id null when the request had none that could be read).
    public static func reply(id: JSONValue?, error: IcrcError) -> JSONValue {
        ["jsonrpc": "2.0", "id": id ?? .null, "error": error.json]
    }
}
