import Primitives
import SignerCore

/// The polkadot-js extension protocol's messages (`handlers/Tabs.ts`, docs/reference/polkadot-extension.md
/// §1.3): a closed set, each with typed parameters and result. ``PolkadotMethod`` lists them for the
/// registry and for exhaustive dispatch.
public enum Polkadot {
    public struct PhishingRedirectIfDenied: WireMethod {
        public typealias Params = NoParams
        public typealias Result = Bool
        public static let name = "pub(phishing.redirectIfDenied)"
        public static let wireProtocol = WireProtocol.polkadot
        public static let needsConnectedSite = false
    }

    public struct AuthorizeTab: WireMethod {
        public struct Params: Decodable, Sendable {
            /// The name the dapp gives itself (`web3Enable(name)`); shown as the site's claim only.
            public var origin: String?
        }
        public typealias Result = AuthorizeResult
        public static let name = "pub(authorize.tab)"
        public static let wireProtocol = WireProtocol.polkadot
        public static let needsConnectedSite = false
    }

    public struct Ping: WireMethod {
        public typealias Params = NoParams
        public typealias Result = Bool
        public static let name = "pub(ping)"
        public static let wireProtocol = WireProtocol.polkadot
        public static let needsConnectedSite = true
    }

    public struct AccountsList: WireMethod {
        public struct Params: Decodable, Sendable {
            public var anyType: Bool?
        }
        public typealias Result = [InjectedAccount]
        public static let name = "pub(accounts.list)"
        public static let wireProtocol = WireProtocol.polkadot
        public static let needsConnectedSite = true
    }

    public struct AccountsSubscribe: WireMethod {
        public typealias Params = NoParams
        /// The subscription id (the request id); updates arrive as `{id, subscription}`.
        public typealias Result = String
        public static let name = "pub(accounts.subscribe)"
        public static let wireProtocol = WireProtocol.polkadot
        public static let needsConnectedSite = true
    }

    public struct AccountsUnsubscribe: WireMethod {
        public struct Params: Decodable, Sendable {
            public var id: String
        }
        public typealias Result = Bool
        public static let name = "pub(accounts.unsubscribe)"
        public static let wireProtocol = WireProtocol.polkadot
        public static let needsConnectedSite = true
    }

    public struct MetadataList: WireMethod {
        public typealias Params = NoParams
        public typealias Result = [KnownMetadata]
        public static let name = "pub(metadata.list)"
        public static let wireProtocol = WireProtocol.polkadot
        public static let needsConnectedSite = true
    }

    public struct MetadataProvide: WireMethod {
        /// The `MetadataDef` object, checked by the gateway before it is queued.
        public typealias Params = JSONValue
        public typealias Result = Bool
        public static let name = "pub(metadata.provide)"
        public static let wireProtocol = WireProtocol.polkadot
        public static let needsConnectedSite = true
    }

    public struct BytesSign: WireMethod {
        public struct Params: Decodable, Sendable {
            public var address: String
            public var data: String
            public var type: String?
        }
        public typealias Result = SignerResult
        public static let name = "pub(bytes.sign)"
        public static let wireProtocol = WireProtocol.polkadot
        public static let needsConnectedSite = true
    }

    public struct ExtrinsicSign: WireMethod {
        /// The `SignerPayloadJSON`, validated by SignerCore (`SignerPayload`) with its numbers exact.
        public typealias Params = JSONValue
        public typealias Result = SignerResult
        public static let name = "pub(extrinsic.sign)"
        public static let wireProtocol = WireProtocol.polkadot
        public static let needsConnectedSite = true
    }

    public struct RpcListProviders: WireMethod {
        public typealias Params = NoParams
        public typealias Result = [String: String]
        public static let name = "pub(rpc.listProviders)"
        public static let wireProtocol = WireProtocol.polkadot
        public static let needsConnectedSite = true
    }

    /// `{result, authorizedAccounts}` of `authorize.tab`.
    public struct AuthorizeResult: Encodable, Sendable, Equatable {
        public var result: Bool
        public var authorizedAccounts: [String]
    }

    /// polkadot-js `InjectedAccount` (`genesisHash` and `name` written as `null` when absent).
    public struct InjectedAccount: Encodable, Sendable, Equatable {
        public var address: String
        public var genesisHash: String?
        public var name: String?
        public var type: String

        public init(_ account: SignerAccount) {
            address = account.address
            genesisHash = account.genesisHash
            name = account.name
            type = account.type
        }

        enum CodingKeys: String, CodingKey { case address, genesisHash, name, type }

        public func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(address, forKey: .address)
            try c.encode(genesisHash, forKey: .genesisHash)
            try c.encode(name, forKey: .name)
            try c.encode(type, forKey: .type)
        }
    }

    /// One `metadata.list` entry.
    public struct KnownMetadata: Encodable, Sendable, Equatable {
        public var genesisHash: String
        public var specVersion: UInt32
    }

    /// polkadot-js `SignerResult`: `{id, signature}` and `signedTransaction` when it was asked for.
    public struct SignerResult: Encodable, Sendable, Equatable {
        public var id: String
        public var signature: String
        public var signedTransaction: String?

        public init(id: String, signature: String, signedTransaction: String?) {
            self.id = id
            self.signature = signature
            self.signedTransaction = signedTransaction
        }
    }
}

/// Every polkadot-js message the gateway answers: the closed set the registry holds and the gateway
/// dispatches with an exhaustive `switch`.
public enum PolkadotMethod: String, Sendable, Hashable, CaseIterable {
    case phishingRedirectIfDenied, authorizeTab, ping, accountsList, accountsSubscribe, accountsUnsubscribe
    case metadataList, metadataProvide, bytesSign, extrinsicSign, rpcListProviders

    /// The method's type (name, parameters, result).
    public var type: any WireMethod.Type {
        switch self {
        case .phishingRedirectIfDenied: Polkadot.PhishingRedirectIfDenied.self
        case .authorizeTab: Polkadot.AuthorizeTab.self
        case .ping: Polkadot.Ping.self
        case .accountsList: Polkadot.AccountsList.self
        case .accountsSubscribe: Polkadot.AccountsSubscribe.self
        case .accountsUnsubscribe: Polkadot.AccountsUnsubscribe.self
        case .metadataList: Polkadot.MetadataList.self
        case .metadataProvide: Polkadot.MetadataProvide.self
        case .bytesSign: Polkadot.BytesSign.self
        case .extrinsicSign: Polkadot.ExtrinsicSign.self
        case .rpcListProviders: Polkadot.RpcListProviders.self
        }
    }
}
