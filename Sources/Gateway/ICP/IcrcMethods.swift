import Primitives
import SignerCore

/// The ICRC signer standards' methods (ICRC-25, -27, -29, -49; docs/protocol.md "Internet Computer"),
/// answered as JSON-RPC 2.0 at `POST /v1/icrc` and through the ICRC-29 page's relay, plus Sigil's own
/// offline-envelopes method. Every ICRC reply is a JSON-RPC 2.0 envelope; failures carry the ICRC-25
/// error codes (``IcrcErrorMapper``). The origin is always the transport's word, never a parameter.
package enum Icrc {
    /// `icrc25_request_permissions`: the site asks for scopes; the person answers once per origin.
    package struct RequestPermissions: WireMethod {
        package struct Params: Decodable, Sendable {
            package struct Scope: Decodable, Sendable {
                package var method: String
            }
            package var scopes: [Scope]
        }
        package typealias Result = ScopesResult
        package static let name = "icrc25_request_permissions"
        package static let wireProtocol = WireProtocol.icrc
        package static let needsConnectedSite = false
    }

    /// `icrc25_permissions`: the scopes the origin holds (no person asked).
    package struct Permissions: WireMethod {
        package typealias Params = NoParams
        package typealias Result = ScopesResult
        package static let name = "icrc25_permissions"
        package static let wireProtocol = WireProtocol.icrc
        package static let needsConnectedSite = false
    }

    /// `icrc25_supported_standards`: the standards Sigil implements, with their specifications.
    package struct SupportedStandards: WireMethod {
        package typealias Params = NoParams
        package typealias Result = SupportedStandardsResult
        package static let name = "icrc25_supported_standards"
        package static let wireProtocol = WireProtocol.icrc
        package static let needsConnectedSite = false
    }

    /// `icrc27_accounts`: the principals (needs the `icrc27_accounts` scope).
    package struct Accounts: WireMethod {
        package typealias Params = NoParams
        package typealias Result = AccountsResult
        package static let name = "icrc27_accounts"
        package static let wireProtocol = WireProtocol.icrc
        package static let needsConnectedSite = false
    }

    /// `icrc49_call_canister`: one approved, signed and submitted call (needs its scope and `--ic-url`).
    package struct CallCanister: WireMethod {
        /// `{canisterId, sender, method, arg (Base64 Candid), nonce?}`.
        package typealias Params = IcpCallParams
        package typealias Result = CallResult
        package static let name = "icrc49_call_canister"
        package static let wireProtocol = WireProtocol.icrc
        package static let needsConnectedSite = false
    }

    /// `icrc29_status`: the ICRC-29 readiness probe (`"ready"`).
    package struct Status: WireMethod {
        package typealias Params = NoParams
        package typealias Result = String
        package static let name = "icrc29_status"
        package static let wireProtocol = WireProtocol.icrc
        package static let needsConnectedSite = false
    }

    /// Sigil's own: signed envelopes for tools that submit themselves (offline; optionally a
    /// Rosetta-style series over `windowSeconds`, at most a day). Needs the `icrc49_call_canister` scope.
    package struct SignEnvelopes: WireMethod {
        package struct Params: Decodable, Sendable {
            package var call: IcpCallParams
            package var windowSeconds: UInt64?

            enum CodingKeys: String, CodingKey { case windowSeconds }

            package init(from decoder: any Decoder) throws {
                call = try IcpCallParams(from: decoder)
                windowSeconds = try decoder.container(keyedBy: CodingKeys.self)
                    .decodeIfPresent(UInt64.self, forKey: .windowSeconds)
            }
        }
        package typealias Result = EnvelopesResult
        package static let name = "sigil_icp_sign_envelopes"
        package static let wireProtocol = WireProtocol.icrc
        package static let needsConnectedSite = false
    }

    /// `{scopes: [{scope: {method}, state}]}` of ICRC-25.
    package struct ScopesResult: Encodable, Sendable, Equatable {
        package struct Scope: Encodable, Sendable, Equatable {
            package var method: String
        }
        package struct Entry: Encodable, Sendable, Equatable {
            package var scope: Scope
            /// `granted`, `denied` or `ask_on_use`.
            package var state: String
        }
        package var scopes: [Entry]
    }

    /// `{supportedStandards: [{name, url}]}`.
    package struct SupportedStandardsResult: Encodable, Sendable, Equatable {
        package struct Standard: Encodable, Sendable, Equatable {
            package var name: String
            package var url: String
        }
        package var supportedStandards: [Standard]
    }

    /// `{accounts: [{owner}]}` of ICRC-27 (default subaccounts, so `subaccount` is absent).
    package struct AccountsResult: Encodable, Sendable, Equatable {
        package struct Account: Encodable, Sendable, Equatable {
            package var owner: String
        }
        package var accounts: [Account]
    }

    /// `{contentMap, certificate}` of ICRC-49, both Base64 CBOR.
    package struct CallResult: Encodable, Sendable, Equatable {
        package var contentMap: String
        package var certificate: String
    }

    /// `{envelopes: [{requestId, ingressExpiry, contentMap, envelope, readStateEnvelope}]}`; the
    /// expiry is a decimal string (nanoseconds exceed JSON's safe integers), the bytes Base64.
    package struct EnvelopesResult: Encodable, Sendable, Equatable {
        package struct Envelope: Encodable, Sendable, Equatable {
            package var requestId: String
            package var ingressExpiry: String
            package var contentMap: String
            package var envelope: String
            package var readStateEnvelope: String
        }
        package var envelopes: [Envelope]
    }
}

/// Every ICRC method Sigil answers: a closed set, dispatched exhaustively by `IcrcService`.
package enum IcrcMethod: String, Sendable, Hashable, CaseIterable {
    case requestPermissions, permissions, supportedStandards, accounts, callCanister, status, signEnvelopes

    package var type: any WireMethod.Type {
        switch self {
        case .requestPermissions: Icrc.RequestPermissions.self
        case .permissions: Icrc.Permissions.self
        case .supportedStandards: Icrc.SupportedStandards.self
        case .accounts: Icrc.Accounts.self
        case .callCanister: Icrc.CallCanister.self
        case .status: Icrc.Status.self
        case .signEnvelopes: Icrc.SignEnvelopes.self
        }
    }

    /// The wire name (also the ICRC-25 scope name, and the key permissions are stored under).
    package var name: String { type.name }

    /// The ICRC-25 scope the method needs, if any (the offline method is a canister call too).
    package var scope: IcrcMethod? {
        switch self {
        case .accounts: .accounts
        case .callCanister, .signEnvelopes: .callCanister
        case .requestPermissions, .permissions, .supportedStandards, .status: nil
        }
    }

    /// The methods a site asks permission for (ICRC-25 scopes).
    package static let scoped: [IcrcMethod] = [.accounts, .callCanister]

    /// `icrc25_supported_standards`: name and specification of each standard Sigil implements.
    package static let standards: [Icrc.SupportedStandardsResult.Standard] = [
        .init(name: "ICRC-25", url: "https://github.com/dfinity/ICRC/blob/main/ICRCs/ICRC-25/ICRC-25.md"),
        .init(name: "ICRC-27", url: "https://github.com/dfinity/ICRC/blob/main/ICRCs/ICRC-27/ICRC-27.md"),
        .init(name: "ICRC-29", url: "https://github.com/dfinity/ICRC/blob/main/ICRCs/ICRC-29/ICRC-29.md"),
        .init(name: "ICRC-49", url: "https://github.com/dfinity/ICRC/blob/main/ICRCs/ICRC-49/ICRC-49.md"),
    ]
}

/// ICRC-25 error codes (dfinity/wg-identity-authentication `icrc_25_signer_interaction_standard.md`,
/// ICRC-49 adds 2001) and the JSON-RPC 2.0 codes for malformed envelopes. An unknown method is 2000,
/// as the reference signer library (`@dfinity/oisy-wallet-signer`, `REQUEST_NOT_SUPPORTED`) answers.
package enum IcrcErrorCode: Int, Sendable, Hashable, CaseIterable {
    case genericError = 1000
    case notSupported = 2000
    case noConsentMessage = 2001
    case permissionNotGranted = 3000
    case actionAborted = 3001
    case networkError = 4000
    case invalidRequest = -32600
    case parseError = -32700

    package var message: String {
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
package struct IcrcError: Error, Sendable, Hashable {
    package let code: IcrcErrorCode
    package let description: String
    /// For ``IcrcErrorCode/networkError``: the HTTP status the Internet Computer endpoint answered.
    package let httpStatus: Int?

    package init(_ code: IcrcErrorCode, _ description: String, httpStatus: Int? = nil) {
        self.code = code
        self.description = description
        self.httpStatus = httpStatus
    }

    /// The JSON-RPC `error` object, `data` shaped as ICRC-25's error table says: the description
    /// as text for 1000, 2000 (and 2001, and the JSON-RPC codes); no `data` for 3000 and 3001; for
    /// 4000 `{status, message}` with the HTTP status when an HTTP answer came, else no `data`.
    package var json: JSONValue {
        var error: [(String, JSONValue)] = [("code", .integer(code.rawValue)), ("message", .string(code.message))]
        switch code {
        case .permissionNotGranted, .actionAborted: break
        case .networkError:
            if let httpStatus {
                error.append(
                    (
                        "data",
                        .object(JSONObject([("status", .integer(httpStatus)), ("message", .string(description))]))
                    ))
            }
        case .genericError, .notSupported, .noConsentMessage, .invalidRequest, .parseError:
            error.append(("data", .string(description)))
        }
        return .object(JSONObject(error))
    }
}

/// Any failure on an ICRC path as its ICRC-25 error: the one table (docs/protocol.md, ICP errors).
package struct IcrcErrorMapper: WireErrorMapper {
    package init() {}

    /// The JSON-RPC `error` object, carried as the reply's response (ICRC transports wrap it in
    /// `{jsonrpc, id, error}`).
    package func body(for error: any Error, source: String) -> WireReply.Body {
        .response(Self.error(for: error).json)
    }

    package static func error(for error: any Error) -> IcrcError {
        switch error {
        case let e as IcrcError: return e
        case let e as SignerError:
            switch e.code {
            case .unknownAccount: return IcrcError(.permissionNotGranted, "the sender is not one of Sigil's identities")
            case .blindSigningOff:
                return IcrcError(
                    .noConsentMessage,
                    "Sigil cannot describe this call and blind signing is off for this site (turn it on in Sigil)")
            case .cancelled, .rejected, .expired: return IcrcError(.actionAborted, "the request was not approved")
            default: return IcrcError(.genericError, "the call was refused: \(e.code)")
            }
        case let e as GatewayError where e.code == .unknownMessage:
            return IcrcError(.notSupported, "Sigil does not implement this method")
        default: return IcrcError(.genericError, "the request failed")
        }
    }
}
