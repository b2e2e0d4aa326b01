import Primitives

/// An account as the gateway shows it to sites (`InjectedAccount` of polkadot-js
/// `extension-inject/src/types.ts`) plus the key it is matched on. Carries no secret.
public struct GatewayAccount: Sendable, Equatable {
    /// Lower-case `0x…` public key; what authorizations store.
    public var key: String
    /// The address shown to sites (SS58, or `0x…` 20 bytes for Ethereum accounts).
    public var address: String
    /// The account's name, if any.
    public var name: String?
    /// `sr25519`, `ed25519`, `ecdsa` or `ethereum`. Always present: polkadot-api's pjs-signer drops
    /// accounts without it.
    public var type: String
    /// The chain the account is restricted to, or `nil` for any chain.
    public var genesisHash: String?

    /// Creates an account record.
    public init(key: String, address: String, name: String?, type: String, genesisHash: String?) {
        self.key = key
        self.address = address
        self.name = name
        self.type = type
        self.genesisHash = genesisHash
    }

    /// The wire form `{address, genesisHash, name, type}`.
    public var json: JSONValue {
        [
            "address": .string(address), "genesisHash": genesisHash.map(JSONValue.string) ?? .null,
            "name": name.map(JSONValue.string) ?? .null, "type": .string(type),
        ]
    }
}
