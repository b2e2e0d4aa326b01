import IconCodec
import Primitives
import SignerCore

/// ICON's messages (docs/protocol.md "ICON"): the ICONex/Hana browser relay events, answered by
/// the bridge through `/v1/request` under these names, and ICONex Connect v1 (`icon(connect)`,
/// also reached by `POST /icon/connect` and `GET /icon/connect?data=&caller=`). Every ICON reply is
/// a Connect-v1-shaped object `{code, result}` (code 1 = success, the -1000…-9999 table
/// otherwise), so the bridge can tell a person's refusal (`CANCEL_…`) from an error.
package enum Icon {
    /// `REQUEST_HAS_ACCOUNT`: is there any ICON account (`{hasAccount}`)?
    package struct HasAccount: WireMethod {
        package typealias Params = NoParams
        package typealias Result = JSONValue
        package static let name = "icon(hasAccount)"
        package static let wireProtocol = WireProtocol.icon
        package static let needsConnectedSite = false
    }

    /// `REQUEST_HAS_ADDRESS`: may this site use the address (`{hasAddress}`)? False for sites
    /// that are not connected, so strangers learn nothing about the person's accounts.
    package struct HasAddress: WireMethod {
        /// The address, as a string or as `{address}` (both forms occur in dapps).
        package typealias Params = JSONValue
        package typealias Result = JSONValue
        package static let name = "icon(hasAddress)"
        package static let wireProtocol = WireProtocol.icon
        package static let needsConnectedSite = false
    }

    /// `REQUEST_ADDRESS` (and Connect `bind`): the person picks the ICON account for the site.
    package struct Address: WireMethod {
        package typealias Params = NoParams
        package typealias Result = JSONValue
        package static let name = "icon(address)"
        package static let wireProtocol = WireProtocol.icon
        package static let needsConnectedSite = false
    }

    /// `REQUEST_JSON-RPC`: an `icx_sendTransaction` JSON-RPC request to sign and send.
    package struct JsonRpc: WireMethod {
        package typealias Params = JSONValue
        package typealias Result = JSONValue
        package static let name = "icon(jsonRpc)"
        package static let wireProtocol = WireProtocol.icon
        package static let needsConnectedSite = false
    }

    /// `REQUEST_SIGNING` `{from, hash}`: blind signing of a bare hash (per-site opt-in only).
    package struct Signing: WireMethod {
        package typealias Params = JSONValue
        package typealias Result = JSONValue
        package static let name = "icon(signing)"
        package static let wireProtocol = WireProtocol.icon
        package static let needsConnectedSite = false
    }

    /// ICONex Connect v1 `{id, method, params}` → `{id, code, result}`.
    package struct Connect: WireMethod {
        package typealias Params = JSONValue
        package typealias Result = JSONValue
        package static let name = "icon(connect)"
        package static let wireProtocol = WireProtocol.icon
        package static let needsConnectedSite = false
    }
}

/// Every ICON message the gateway answers.
package enum IconMethod: String, Sendable, Hashable, CaseIterable {
    case hasAccount, hasAddress, address, jsonRpc, signing, connect

    package var type: any WireMethod.Type {
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
package struct IconConnectError: Error, Sendable, Equatable, CustomStringConvertible {
    package let code: Int
    package let message: String

    package init(_ code: Int, _ message: String) {
        self.code = code
        self.message = message
    }

    package static let cancelled = IconConnectError(-1000, "Operation canceled by user.")
    package static let parseError = IconConnectError(-1001, "Parse error (Invalid JSON type)")
    package static let invalidRequest = IconConnectError(-1002, "Invalid request. (missing required parameters)")
    package static let invalidMethod = IconConnectError(-1003, "Invalid method")
    package static let noCaller = IconConnectError(-1004, "Not found caller.")
    package static let noWallet = IconConnectError(-2001, "ICONex has no ICX wallet.")
    package static func missingParameter(_ key: String) -> IconConnectError {
        IconConnectError(-2002, "Not found parameter. ('\(key)')")
    }
    package static func noMatchedWallet(_ address: String) -> IconConnectError {
        IconConnectError(-3001, "Could not find matched wallet. ('\(address)')")
    }
    package static let sameAddress = IconConnectError(-3002, "Sending and receiving address are same.")
    package static func invalidParameter(_ key: String) -> IconConnectError {
        IconConnectError(-3005, "Invalid parameter. ('\(key)')")
    }
    package static let signFailed = IconConnectError(-4001, "Failed to sign.")
    package static func network(_ message: String) -> IconConnectError {
        IconConnectError(-9999, "Somethings wrong with network (\(message))")
    }
    package static let noNode = network("no ICON node configured")

    package var description: String { "\(code) \(message)" }

    /// The Connect answer for any failure on an ICON path. Names fields, never echoes values other
    /// than the public keys (`field` is a dotted path of ASCII keys from IconCodec).
    package static func from(_ error: any Error) -> IconConnectError {
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
package struct IconErrorMapper: WireErrorMapper {
    package init() {}
    package func body(for error: any Error, source: String) -> WireReply.Body {
        let e = IconConnectError.from(error)
        return .response(["code": .integer(e.code), "result": .string(e.message)])
    }
}
