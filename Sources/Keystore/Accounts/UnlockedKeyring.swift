import Logging
import Primitives
import SigningKeys
import Synchronization

/// The accounts a running gateway knows, and the key pairs of those it could unlock.
///
/// Built by `AccountStore.unlockAll(password:)` (or `DevAccounts`). Every stored account is listed;
/// only unlocked ones have a signer. Locked accounts (encrypted with another password) can be
/// unlocked later with `unlock(_:password:)`.
///
/// Security: holds decrypted key pairs in memory (SigningKeys keeps their secrets in wiped
/// buffers) until `lockAll()` or release. Never logs or prints them. Thread-safe.
package final class UnlockedKeyring: Sendable {
    private struct State {
        var accounts: [AccountInfo]
        var pairs: [[UInt8]: KeyPair]  // by account id
    }

    private let state: Mutex<State>
    private let store: AccountStore?
    /// Files that could not be read when the keyring was built.
    package let problems: [AccountStore.FileProblem]
    /// The ICON accounts (their own files and keys; docs/reference/icon.md §8).
    package let icon: IconKeyring
    /// The Ethereum accounts (their own keystore v3 files and keys; docs/reference/ethereum.md §10).
    package let ethereum: EthereumKeyring

    init(
        accounts: [AccountInfo], pairs: [[UInt8]: KeyPair], store: AccountStore?, problems: [AccountStore.FileProblem],
        icon: IconKeyring = .empty, ethereum: EthereumKeyring = .empty
    ) {
        state = Mutex(State(accounts: accounts, pairs: pairs))
        self.store = store
        self.problems = problems
        self.icon = icon
        self.ethereum = ethereum
    }

    /// Every account, unlocked or not, in store order.
    package var accounts: [AccountInfo] { state.withLock { $0.accounts } }

    /// The accounts that can sign.
    package var unlockedAccounts: [AccountInfo] {
        state.withLock { s in s.accounts.filter { s.pairs[$0.accountId] != nil } }
    }

    /// True when the account named by `address` (SS58 any prefix, or 0x hex) is unlocked.
    package func isUnlocked(_ address: String) -> Bool { keyPair(for: address) != nil }

    /// The account for an address (SS58 of any network prefix, or 0x-hex account id / public key).
    package func account(for address: String) -> AccountInfo? {
        guard let id = Self.accountKey(address) else { return nil }
        return state.withLock { s in s.accounts.first { $0.accountId == id || $0.publicKey == id } }
    }

    /// The signer for an address, or nil when the account is unknown or locked.
    package func keyPair(for address: String) -> KeyPair? {
        guard let info = account(for: address) else { return nil }
        return state.withLock { $0.pairs[info.accountId] }
    }

    /// Unlocks one locked account with its own password.
    /// - Throws: `.accountNotFound`, `.decryptFailed`, `.keyMismatch`.
    package func unlock(_ address: String, password: Passphrase) throws(KeystoreError) {
        guard let info = account(for: address) else {
            throw KeystoreError(.accountNotFound, "no account \(address.prefix(80))")
        }
        guard let store else { throw KeystoreError(.invalidInput, "this keyring has no account store") }
        let pair = try store.unlock(info, password: password)
        state.withLock { $0.pairs[info.accountId] = pair }
    }

    /// Forgets every decrypted key pair (accounts stay listed, locked).
    package func lockAll() {
        state.withLock { $0.pairs.removeAll() }
    }

    static func accountKey(_ address: String) -> [UInt8]? {
        if address.hasPrefix("0x") { return try? Hex.decode(address, prefix: .required) }
        return (try? SS58.decode(address, keyLength: 32))?.key
    }
}
