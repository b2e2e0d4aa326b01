import IconCodec
import Primitives
import SignerCore

/// ICON's messages (docs/protocol.md "ICON"): the ICONex/Hana browser relay events, answered by
/// the bridge through `/v1/request` under these names, and ICONex Connect v1 (`icon(connect)`,
/// also reached by `POST /icon/connect` and `GET /icon/connect?data=&caller=`). Every ICON reply is
/// a Connect-v1-shaped object `{code, result}` (code 1 = success, the -1000…-9999 table
/// otherwise), so the bridge can tell a person's refusal (`CANCEL_…`) from an error.
public enum Icon {
    /// `REQUEST_HAS_ACCOUNT`: is there any ICON account (`{hasAccount}`)?
    public struct HasAccount: WireMethod {
        public typealias Params = NoParams
        public typealias Result = JSONValue
        public static let name = "icon(hasAccount)"
        public static let wireProtocol = WireProtocol.icon
        public static let needsConnectedSite = false
    }

    /// `REQUEST_HAS_ADDRESS`: may this site use the address (`{hasAddress}`)? False for sites
    /// that are not connected, so strangers learn nothing about the person's accounts.
    public struct HasAddress: WireMethod {
        /// The address, as a string or as `{address}` (both forms occur in dapps).
        public typealias Params = JSONValue
        public typealias Result = JSONValue
        public static let name = "icon(hasAddress)"
        public static let wireProtocol = WireProtocol.icon
        public static let needsConnectedSite = false
    }

    /// `REQUEST_ADDRESS` (and Connect `bind`): the person picks the ICON account for the site.
    public struct Address: WireMethod {
        public typealias Params = NoParams
        public typealias Result = JSONValue
        public static let name = "icon(address)"
        public static let wireProtocol = WireProtocol.icon
        public static let needsConnectedSite = false
    }

    /// `REQUEST_JSON-RPC`: an `icx_sendTransaction` JSON-RPC request to sign and send.
    public struct JsonRpc: WireMethod {
        public typealias Params = JSONValue
        public typealias Result = JSONValue
        public static let name = "icon(jsonRpc)"
        public static let wireProtocol = WireProtocol.icon
        public static let needsConnectedSite = false
    }

    /// `REQUEST_SIGNING` `{from, hash}`: blind signing of a bare hash (per-site opt-in only).
    public struct Signing: WireMethod {
        public typealias Params = JSONValue
        public typealias Result = JSONValue
        public static let name = "icon(signing)"
        public static let wireProtocol = WireProtocol.icon
        public static let needsConnectedSite = false
    }

    /// ICONex Connect v1 `{id, method, params}` → `{id, code, result}`.
    public struct Connect: WireMethod {
        public typealias Params = JSONValue
        public typealias Result = JSONValue
        public static let name = "icon(connect)"
        public static let wireProtocol = WireProtocol.icon
        public static let needsConnectedSite = false
    }
}

/// Every ICON message the gateway answers.
public enum IconMethod: String, Sendable, Hashable, CaseIterable {
    case hasAccount, hasAddress, address, jsonRpc, signing, connect

    public var type: any WireMethod.Type {
        switch self {
        case .hasAccount: Icon.HasAccount.self
        case .hasAddress: Icon.HasAddress.self
        case .address: Icon.Address.self
        case .jsonRpc: Icon.JsonRpc.self
        case .signing: Icon.Signing.self
        case .connect: Icon.Connect.self
        }
    }
}

/// An ICONex Connect v1 answer code with its message (the v1 error table; docs/protocol.md).
public struct IconConnectError: Error, Sendable, Equatable, CustomStringConvertible {
    public let code: Int
    public let message: String

    public init(_ code: Int, _ message: String) {
        self.code = code
        self.message = message
    }

    public static let cancelled = IconConnectError(-1000, "Operation canceled by user.")
    public static let parseError = IconConnectError(-1001, "Parse error (Invalid JSON type)")
    public static let invalidRequest = IconConnectError(-1002, "Invalid request. (missing required parameters)")
    public static let invalidMethod = IconConnectError(-1003, "Invalid method")
    public static let noCaller = IconConnectError(-1004, "Not found caller.")
    public static let noWallet = IconConnectError(-2001, "ICONex has no ICX wallet.")
    public static func missingParameter(_ key: String) -> IconConnectError {
        IconConnectError(-2002, "Not found parameter. ('\(key)')")
    }
    public static func noMatchedWallet(_ address: String) -> IconConnectError {
        IconConnectError(-3001, "Could not find matched wallet. ('\(address)')")
    }
    public static let sameAddress = IconConnectError(-3002, "Sending and receiving address are same.")
    public static func invalidParameter(_ key: String) -> IconConnectError {
        IconConnectError(-3005, "Invalid parameter. ('\(key)')")
    }
    public static let signFailed = IconConnectError(-4001, "Failed to sign.")
    public static func network(_ message: String) -> IconConnectError {
        IconConnectError(-9999, "Somethings wrong with network (\(message))")
    }
    public static let noNode = network("no ICON node configured")

    public var description: String { "\(code) \(message)" }

    /// The Connect answer for any failure on an ICON path. Names fields, never echoes values other
    /// than the public keys (`field` is a dotted path of ASCII keys from IconCodec).
    public static func from(_ error: any Error) -> IconConnectError {
        switch error {
        case let e as IconConnectError: return e
        case let e as IconCodecError:
            let field = e.field ?? ""
            switch e.code {
            case .missingField: return .missingParameter(field)
            case .unknownField: return .invalidRequest
            case .invalidJSON, .notAnObject: return .parseError
            default: return .invalidParameter(field.isEmpty ? e.code.rawValue : field)
            }
        case let e as SignerError:
            switch e.code {
            case .cancelled, .rejected, .authorizationRejected, .authorizationCancelled, .expired: return .cancelled
            case .unknownAccount, .notEnabled: return .noMatchedWallet("")
            case .authorizationPending, .tooManyPending:
                return IconConnectError(-1002, "Invalid request. (another request is waiting)")
            case .badLength: return .invalidParameter("hash")
            default: return .signFailed
            }
        default: return .signFailed
        }
    }
}

/// ICON failures that reach the registry's mapper (none should: the ICON dispatch answers its own).
public struct IconErrorMapper: WireErrorMapper {
    public init() {}
    public func body(for error: any Error, source: String) -> WireReply.Body {
        let e = IconConnectError.from(error)
        return .response(["code": .integer(e.code), "result": .string(e.message)])
    }
}
