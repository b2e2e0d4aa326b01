import Primitives
import SignerCore

/// The polkadot-js extension protocol's messages (`handlers/Tabs.ts`, docs/reference/polkadot-extension.md
/// §1.3): a closed set, each with typed parameters and result. ``PolkadotMethod`` lists them for the
/// registry and for exhaustive dispatch.
package enum Polkadot {
    package struct PhishingRedirectIfDenied: WireMethod {
        package typealias Params = NoParams
        package typealias Result = Bool
        package static let name = "pub(phishing.redirectIfDenied)"
        package static let wireProtocol = WireProtocol.polkadot
        package static let needsConnectedSite = false
    }

    package struct AuthorizeTab: WireMethod {
        package struct Params: Decodable, Sendable {
            /// The name the dapp gives itself (`web3Enable(name)`); shown as the site's claim only.
            package var origin: String?
        }
        package typealias Result = AuthorizeResult
        package static let name = "pub(authorize.tab)"
        package static let wireProtocol = WireProtocol.polkadot
        package static let needsConnectedSite = false
    }

    package struct Ping: WireMethod {
        package typealias Params = NoParams
        package typealias Result = Bool
        package static let name = "pub(ping)"
        package static let wireProtocol = WireProtocol.polkadot
        package static let needsConnectedSite = true
    }

    package struct AccountsList: WireMethod {
        package struct Params: Decodable, Sendable {
            package var anyType: Bool?
        }
        package typealias Result = [InjectedAccount]
        package static let name = "pub(accounts.list)"
        package static let wireProtocol = WireProtocol.polkadot
        package static let needsConnectedSite = true
    }

    package struct AccountsSubscribe: WireMethod {
        package typealias Params = NoParams
        /// The subscription id (the request id); updates arrive as `{id, subscription}`.
        package typealias Result = String
        package static let name = "pub(accounts.subscribe)"
        package static let wireProtocol = WireProtocol.polkadot
        package static let needsConnectedSite = true
    }

    package struct AccountsUnsubscribe: WireMethod {
        package struct Params: Decodable, Sendable {
            package var id: String
        }
        package typealias Result = Bool
        package static let name = "pub(accounts.unsubscribe)"
        package static let wireProtocol = WireProtocol.polkadot
        package static let needsConnectedSite = true
    }

    package struct MetadataList: WireMethod {
        package typealias Params = NoParams
        package typealias Result = [KnownMetadata]
        package static let name = "pub(metadata.list)"
        package static let wireProtocol = WireProtocol.polkadot
        package static let needsConnectedSite = true
    }

    package struct MetadataProvide: WireMethod {
        /// The `MetadataDef` object, checked by the gateway before it is queued.
        package typealias Params = JSONValue
        package typealias Result = Bool
        package static let name = "pub(metadata.provide)"
        package static let wireProtocol = WireProtocol.polkadot
        package static let needsConnectedSite = true
    }

    package struct BytesSign: WireMethod {
        package struct Params: Decodable, Sendable {
            package var address: String
            package var data: String
            package var type: String?
        }
        package typealias Result = SignerResult
        package static let name = "pub(bytes.sign)"
        package static let wireProtocol = WireProtocol.polkadot
        package static let needsConnectedSite = true
    }

    package struct ExtrinsicSign: WireMethod {
        /// The `SignerPayloadJSON`, validated by SignerCore (`SignerPayload`) with its numbers exact.
        package typealias Params = JSONValue
        package typealias Result = SignerResult
        package static let name = "pub(extrinsic.sign)"
        package static let wireProtocol = WireProtocol.polkadot
        package static let needsConnectedSite = true
    }

    package struct RpcListProviders: WireMethod {
        package typealias Params = NoParams
        package typealias Result = [String: String]
        package static let name = "pub(rpc.listProviders)"
        package static let wireProtocol = WireProtocol.polkadot
        package static let needsConnectedSite = true
    }

    /// `{result, authorizedAccounts}` of `authorize.tab`.
    package struct AuthorizeResult: Encodable, Sendable, Equatable {
        package var result: Bool
        package var authorizedAccounts: [String]
    }

    /// polkadot-js `InjectedAccount` (`genesisHash` and `name` written as `null` when absent).
    package struct InjectedAccount: Encodable, Sendable, Equatable {
        package var address: String
        package var genesisHash: String?
        package var name: String?
        package var type: String

        package init(_ account: SignerAccount) {
            address = account.address
            genesisHash = account.genesisHash
            name = account.name
            type = account.type
        }

        enum CodingKeys: String, CodingKey { case address, genesisHash, name, type }

        package func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(address, forKey: .address)
            try c.encode(genesisHash, forKey: .genesisHash)
            try c.encode(name, forKey: .name)
            try c.encode(type, forKey: .type)
        }
    }

    /// One `metadata.list` entry.
    package struct KnownMetadata: Encodable, Sendable, Equatable {
        package var genesisHash: String
        package var specVersion: UInt32
    }

    /// polkadot-js `SignerResult`: `{id, signature}` and `signedTransaction` when it was asked for.
    package struct SignerResult: Encodable, Sendable, Equatable {
        package var id: String
        package var signature: String
        package var signedTransaction: String?

        package init(id: String, signature: String, signedTransaction: String?) {
            self.id = id
            self.signature = signature
            self.signedTransaction = signedTransaction
        }
    }
}

/// Every polkadot-js message the gateway answers: the closed set the registry holds and the gateway
/// dispatches with an exhaustive `switch`.
package enum PolkadotMethod: String, Sendable, Hashable, CaseIterable {
    case phishingRedirectIfDenied, authorizeTab, ping, accountsList, accountsSubscribe, accountsUnsubscribe
    case metadataList, metadataProvide, bytesSign, extrinsicSign, rpcListProviders

    /// The method's type (name, parameters, result).
    package var type: any WireMethod.Type {
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
