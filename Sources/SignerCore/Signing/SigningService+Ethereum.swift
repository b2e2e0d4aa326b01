import Keystore
import Primitives
import SigningKeys

/// Ethereum accounts (docs/reference/ethereum.md §10): the keyring's `EthereumKeyring` accounts are
/// listed beside the Substrate and ICON ones with `type` `ethereum` and `key` = `address` = the EIP-55
/// address. They are Ethereum (EIP-1193) accounts only: never offered to polkadot-js dapps
/// (``SignerAccount/isPolkadotAccount``), and a `.ethereum` `KeyPair` is never a polkadot-js account
/// here (the keystore refuses polkadot-js `ethereum` keyring files; `SigningService` drops such pairs).
extension SigningService {
    /// The unlocked Ethereum accounts as sites see them (`type` `ethereum`, key = EIP-55 address).
    func ethereumAccounts() -> [SignerAccount] {
        ethereum.unlockedAccounts.map {
            SignerAccount(key: $0.address, address: $0.address, name: $0.name, type: "ethereum", genesisHash: nil)
        }
    }

    /// `0x` + 40 hex digits in any case → the EIP-55 address (the key of the account it names, if
    /// any); nil for anything else. The checksum is not required: dapps send lower-case addresses.
    /// Untrusted input: never traps.
    func ethereumAccountKey(forAddress address: String) -> String? {
        AccountStore.ethereumAddressBytes(address).map(EthereumKeyPair.checksumAddress)
    }

    /// Signs a 32-byte hash with the unlocked key of an `ethereum` account: r ‖ s ‖ yParity, low-S,
    /// deterministic (RFC 6979). The hash must be what the caller built from the request the person
    /// approved (EthereumCodec: EIP-191, EIP-712, a transaction's signing hash), never a site's hash
    /// taken as is.
    /// - Throws: `SignerError.badLength` for a hash that is not 32 bytes, `.unknownAccount` for an
    ///   account that is not an unlocked Ethereum account of this service.
    package func signEthereumHash(_ hash: [UInt8], account: SignerAccount) throws -> [UInt8] {
        guard account.type == "ethereum", let pair = ethereum.keyPair(for: account.key) else {
            throw SignerError(.unknownAccount, "not an unlocked Ethereum account")
        }
        guard hash.count == 32 else { throw SignerError(.badLength, "an Ethereum hash is 32 bytes") }
        do {
            return try pair.signHash(hash)
        } catch {
            throw SignerError(.invalidInput, "the hash cannot be signed")
        }
    }
}
