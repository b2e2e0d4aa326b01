import Primitives
import SignerCore

/// The ICRC signer standards' methods (ICRC-25, -27, -29, -49; docs/protocol.md "Internet Computer"),
/// answered as JSON-RPC 2.0 at `POST /v1/icrc` and through the ICRC-29 page's relay, plus Sigil's own
/// offline-envelopes method. Every ICRC reply is a JSON-RPC 2.0 envelope; failures carry the ICRC-25
/// error codes (``IcrcErrorMapper``). The origin is always the transport's word, never a parameter.
public enum Icrc {
    /// `icrc25_request_permissions`: the site asks for scopes; the person answers once per origin.
    public struct RequestPermissions: WireMethod {
        public struct Params: Decodable, Sendable {
            public struct Scope: Decodable, Sendable {
                public var method: String
            }
            public var scopes: [Scope]
        }
        public typealias Result = ScopesResult
        public static let name = "icrc25_request_permissions"
        public static let wireProtocol = WireProtocol.icrc
        public static let needsConnectedSite = false
    }

    /// `icrc25_permissions`: the scopes the origin holds (no person asked).
    public struct Permissions: WireMethod {
        public typealias Params = NoParams
        public typealias Result = ScopesResult
        public static let name = "icrc25_permissions"
        public static let wireProtocol = WireProtocol.icrc
        public static let needsConnectedSite = false
    }

    /// `icrc25_supported_standards`: the standards Sigil implements, with their specifications.
    public struct SupportedStandards: WireMethod {
        public typealias Params = NoParams
        public typealias Result = SupportedStandardsResult
        public static let name = "icrc25_supported_standards"
        public static let wireProtocol = WireProtocol.icrc
        public static let needsConnectedSite = false
    }

    /// `icrc27_accounts`: the principals (needs the `icrc27_accounts` scope).
    public struct Accounts: WireMethod {
        public typealias Params = NoParams
        public typealias Result = AccountsResult
        public static let name = "icrc27_accounts"
        public static let wireProtocol = WireProtocol.icrc
        public static let needsConnectedSite = false
    }

    /// `icrc49_call_canister`: one approved, signed and submitted call (needs its scope and `--ic-url`).
    public struct CallCanister: WireMethod {
        /// `{canisterId, sender, method, arg (Base64 Candid), nonce?}`.
        public typealias Params = IcpCallParams
        public typealias Result = CallResult
        public static let name = "icrc49_call_canister"
        public static let wireProtocol = WireProtocol.icrc
        public static let needsConnectedSite = false
    }

    /// `icrc29_status`: the ICRC-29 readiness probe (`"ready"`).
    public struct Status: WireMethod {
        public typealias Params = NoParams
        public typealias Result = String
        public static let name = "icrc29_status"
        public static let wireProtocol = WireProtocol.icrc
        public static let needsConnectedSite = false
    }

    /// Sigil's own: signed envelopes for tools that submit themselves (offline; optionally a
    /// Rosetta-style series over `windowSeconds`, at most a day). Needs the `icrc49_call_canister` scope.
    public struct SignEnvelopes: WireMethod {
        public struct Params: Decodable, Sendable {
            public var call: IcpCallParams
            public var windowSeconds: UInt64?

            enum CodingKeys: String, CodingKey { case windowSeconds }

            public init(from decoder: any Decoder) throws {
                call = try IcpCallParams(from: decoder)
                windowSeconds = try decoder.container(keyedBy: CodingKeys.self)
                    .decodeIfPresent(UInt64.self, forKey: .windowSeconds)
            }
        }
        public typealias Result = EnvelopesResult
        public static let name = "sigil_icp_sign_envelopes"
        public static let wireProtocol = WireProtocol.icrc
        public static let needsConnectedSite = false
    }

    /// `{scopes: [{scope: {method}, state}]}` of ICRC-25.
    public struct ScopesResult: Encodable, Sendable, Equatable {
        public struct Scope: Encodable, Sendable, Equatable {
            public var method: String
        }
        public struct Entry: Encodable, Sendable, Equatable {
            public var scope: Scope
            /// `granted`, `denied` or `ask_on_use`.
            public var state: String
        }
        public var scopes: [Entry]
    }

    /// `{supportedStandards: [{name, url}]}`.
    public struct SupportedStandardsResult: Encodable, Sendable, Equatable {
        public struct Standard: Encodable, Sendable, Equatable {
            public var name: String
            public var url: String
        }
        public var supportedStandards: [Standard]
    }

    /// `{accounts: [{owner}]}` of ICRC-27 (default subaccounts, so `subaccount` is absent).
    public struct AccountsResult: Encodable, Sendable, Equatable {
        public struct Account: Encodable, Sendable, Equatable {
            public var owner: String
        }
        public var accounts: [Account]
    }

    /// `{contentMap, certificate}` of ICRC-49, both Base64 CBOR.
    public struct CallResult: Encodable, Sendable, Equatable {
        public var contentMap: String
        public var certificate: String
    }

    /// `{envelopes: [{requestId, ingressExpiry, contentMap, envelope, readStateEnvelope}]}`; the
    /// expiry is a decimal string (nanoseconds exceed JSON's safe integers), the bytes Base64.
    public struct EnvelopesResult: Encodable, Sendable, Equatable {
        public struct Envelope: Encodable, Sendable, Equatable {
            public var requestId: String
            public var ingressExpiry: String
            public var contentMap: String
            public var envelope: String
            public var readStateEnvelope: String
        }
        public var envelopes: [Envelope]
    }
}

/// Every ICRC method Sigil answers: a closed set, dispatched exhaustively by `IcrcService`.
public enum IcrcMethod: String, Sendable, Hashable, CaseIterable {
    case requestPermissions, permissions, supportedStandards, accounts, callCanister, status, signEnvelopes

    public var type: any WireMethod.Type {
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
    public var name: String { type.name }

    /// The ICRC-25 scope the method needs, if any (the offline method is a canister call too).
    public var scope: IcrcMethod? {
        switch self {
        case .accounts: .accounts
        case .callCanister, .signEnvelopes: .callCanister
        case .requestPermissions, .permissions, .supportedStandards, .status: nil
        }
    }

    /// The methods a site asks permission for (ICRC-25 scopes).
    public static let scoped: [IcrcMethod] = [.accounts, .callCanister]

    /// `icrc25_supported_standards`: name and specification of each standard Sigil implements.
    public static let standards: [Icrc.SupportedStandardsResult.Standard] = [
        .init(name: "ICRC-25", url: "https://github.com/dfinity/ICRC/blob/main/ICRCs/ICRC-25/ICRC-25.md"),
        .init(name: "ICRC-27", url: "https://github.com/dfinity/ICRC/blob/main/ICRCs/ICRC-27/ICRC-27.md"),
        .init(name: "ICRC-29", url: "https://github.com/dfinity/ICRC/blob/main/ICRCs/ICRC-29/ICRC-29.md"),
        .init(name: "ICRC-49", url: "https://github.com/dfinity/ICRC/blob/main/ICRCs/ICRC-49/ICRC-49.md"),
    ]
}

/// ICRC-25 error codes (dfinity/wg-identity-authentication `icrc_25_signer_interaction_standard.md`,
/// ICRC-49 adds 2001) and the JSON-RPC 2.0 codes for malformed envelopes. An unknown method is 2000,
/// as the reference signer library (`@dfinity/oisy-wallet-signer`, `REQUEST_NOT_SUPPORTED`) answers.
public enum IcrcErrorCode: Int, Sendable, Hashable, CaseIterable {
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
    /// For ``IcrcErrorCode/networkError``: the HTTP status the Internet Computer endpoint answered.
    public let httpStatus: Int?

    public init(_ code: IcrcErrorCode, _ description: String, httpStatus: Int? = nil) {
        self.code = code
        self.description = description
        self.httpStatus = httpStatus
    }

    /// The JSON-RPC `error` object, `data` shaped as ICRC-25's error table says: the description
    /// as text for 1000, 2000 (and 2001, and the JSON-RPC codes); no `data` for 3000 and 3001; for
    /// 4000 `{status, message}` with the HTTP status when an HTTP answer came, else no `data`.
    public var json: JSONValue {
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
public struct IcrcErrorMapper: WireErrorMapper {
    public init() {}

    /// The JSON-RPC `error` object, carried as the reply's response (ICRC transports wrap it in
    /// `{jsonrpc, id, error}`).
    public func body(for error: any Error, source: String) -> WireReply.Body {
        .response(Self.error(for: error).json)
    }

    public static func error(for error: any Error) -> IcrcError {
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
