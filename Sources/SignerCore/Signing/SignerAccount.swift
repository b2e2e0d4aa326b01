import Primitives

/// An account as sites see it: never key material. `key` identifies it (`0x` + account id hex).
package struct SignerAccount: Sendable, Hashable {
    /// `0x` + the account id (the public key for sr25519/ed25519, BLAKE2b of it for ecdsa).
    package var key: String
    /// The address shown to sites (SS58 with the generic prefix, or `0x…` for Ethereum-style accounts).
    package var address: String
    /// The person's name for it, if any.
    package var name: String?
    /// Key type: `sr25519`, `ed25519`, `ecdsa` (Substrate accounts, as polkadot-js names them),
    /// `icon` (key = `hx` address) or `ethereum` (an Ethereum account: key = address = EIP-55 address).
    package var type: String
    /// The chain the account is restricted to, if any (`0x` genesis hash).
    package var genesisHash: String?

    package init(key: String, address: String, name: String?, type: String, genesisHash: String?) {
        self.key = key
        self.address = address
        self.name = name
        self.type = type
        self.genesisHash = genesisHash
    }

    /// polkadot-js `InjectedAccount` as sites receive it.
    package var json: JSONValue {
        [
            "address": .string(address), "genesisHash": genesisHash.map(JSONValue.string) ?? .null,
            "name": name.map(JSONValue.string) ?? .null, "type": .string(type),
        ]
    }

    /// The account types polkadot-js dapps are offered (account lists, authorization results):
    /// Substrate accounts only. ICON and Ethereum accounts have no Substrate address, and Sigil holds
    /// no polkadot-js `ethereum` keyring accounts (the keystore refuses them), so `ethereum` here is
    /// always an Ethereum (EIP-1193) account (SignerCore README, "Which sites see which accounts").
    package static let polkadotTypes: Set<String> = ["sr25519", "ed25519", "ecdsa"]

    /// Whether polkadot-js dapps may be offered this account (``polkadotTypes``).
    package var isPolkadotAccount: Bool { Self.polkadotTypes.contains(type) }

    /// Whether an account key is an Ethereum account's: `0x` + 40 hex digits (the EIP-55 address).
    /// Substrate keys are `0x` + 64 hex digits, ICON keys `hx` + 40. Never traps.
    package static func isEthereumKey(_ key: String) -> Bool {
        let u = Array(key.utf8)
        return u.count == 42 && u[0] == UInt8(ascii: "0") && u[1] == UInt8(ascii: "x")
            && u[2...].allSatisfy {
                ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x61 && $0 <= 0x66) || ($0 >= 0x41 && $0 <= 0x46)
            }
    }

    /// "Name (address)" or the address.
    package var label: String { name.map { "\($0) (\(address))" } ?? address }
}
