import Foundation
import Logging
import Primitives
import SigningKeys
import Synchronization

/// The well-known development accounts (`//Alice` … `//Ferdie` sr25519, plus `//Alice` ed25519 and
/// ecdsa) from Substrate's public dev phrase, for `sigil serve --dev` and tests.
///
/// Security: these keys are public knowledge. Never use them for real funds. Their files are
/// encrypted with the public password `DevAccounts.password` only so that they have the same format
/// as every other account.
package enum DevAccounts {
    /// The password dev account files are encrypted with (public).
    package static let password = "sigil-dev"

    /// One development account.
    package struct Account: Sendable, Hashable {
        /// Secret URI, e.g. `//Alice`.
        package var uri: String
        /// Key scheme.
        package var scheme: KeyScheme
        /// Display name, e.g. `Alice` or `Alice (ed25519)`.
        package var name: String
    }

    /// The list, in the order they are shown.
    package static let accounts: [Account] =
        ["Alice", "Bob", "Charlie", "Dave", "Eve", "Ferdie"].map { Account(uri: "//\($0)", scheme: .sr25519, name: $0) }
        + [
            Account(uri: "//Alice", scheme: .ed25519, name: "Alice (ed25519)"),
            Account(uri: "//Alice", scheme: .ecdsa, name: "Alice (ecdsa)"),
        ]

    /// The data directory, accounts and unlocked keyring of a `--dev` run.
    package struct Environment: Sendable {
        /// The data directory (a fresh temporary one unless the caller gave one).
        package let directory: DataDirectory
        /// The account store of that directory.
        package let store: AccountStore
        /// Every account in the directory; the dev accounts are unlocked.
        package let keyring: UnlockedKeyring
        /// True when `directory` is a throw-away directory that `removeIfTemporary()` deletes.
        package let isTemporary: Bool

        /// Deletes the directory when it is the throw-away one (call on shutdown).
        package func removeIfTemporary() {
            guard isTemporary else { return }
            try? FileManager.default.removeItem(atPath: directory.path)
        }
    }

    /// Prepares a `--dev` run: opens `dataDirectory` (or creates a throw-away directory under the
    /// system temporary directory), stores any dev account not yet there, and returns a keyring in
    /// which the dev accounts are unlocked. Other accounts in a given directory stay locked.
    /// - Throws: `.fileSystem`, `.permissions`.
    package static func prepare(
        dataDirectory: String?, logger: Logger = Logger(label: "sigil.keystore")
    ) throws(KeystoreError) -> Environment {
        let isTemporary = dataDirectory == nil
        let root: String
        if let dataDirectory {
            root = dataDirectory
        } else {
            root = try makeTemporaryDirectory()
        }
        let directory = try DataDirectory.open(root)
        let store = AccountStore(directory: directory, logger: logger)
        let password = Passphrase(Self.password)
        var pairs: [[UInt8]: KeyPair] = [:]
        var missing: [(Account, KeyPair)] = []
        let existing = Set(try store.list().accounts.map(\.accountId))
        var rank: [[UInt8]: Int] = [:]
        for (index, account) in accounts.enumerated() {
            let pair = try keyPair(account)
            pairs[pair.accountId] = pair
            rank[pair.accountId] = index
            if !existing.contains(pair.accountId) { missing.append((account, pair)) }
        }
        // One scrypt per file: encrypt on every core (the store serialises only the final writes).
        let failures = Mutex<[KeystoreError]>([])
        let toAdd = missing
        DispatchQueue.concurrentPerform(iterations: toAdd.count) { i in
            let (account, pair) = toAdd[i]
            do throws(KeystoreError) {
                try store.add(pair, name: account.name, password: password, extraMeta: ["isTesting": .bool(true)])
            } catch  where error.code == .accountExists {
                // Another process added it meanwhile.
            } catch {
                failures.withLock { $0.append(error) }
            }
        }
        if let failure = failures.withLock({ $0.first }) { throw failure }
        let (listed, problems) = try store.list()
        // Shown in `accounts` order (Alice first), then any other account of the directory as listed;
        // the files were written concurrently, so their creation times do not give that order.
        let all = listed.enumerated().sorted {
            (rank[$0.element.accountId] ?? accounts.count, $0.offset)
                < (rank[$1.element.accountId] ?? accounts.count, $1.offset)
        }.map(\.element)
        let keyring = UnlockedKeyring(
            accounts: all, pairs: pairs, store: store, problems: problems, icon: try prepareIcon(store: store),
            ethereum: try prepareEthereum(store: store))
        return Environment(directory: directory, store: store, keyring: keyring, isTemporary: isTemporary)
    }

    /// The development ICON account: the public Substrate dev phrase at ICON's path
    /// `m/44'/74'/0'/0/0` (standard BIP39 seed), labelled as such. Public knowledge: never for funds.
    package static let iconName = "ICON dev (public test seed)"

    /// The ICON dev key pair (docs/reference/icon.md §6).
    package static func iconKeyPair() throws(KeystoreError) -> IconKeyPair {
        do {
            return try IconKeyPair(mnemonic: try Mnemonic(phrase: SecretURI.devPhrase), index: 0)
        } catch {
            throw KeystoreError(.invalidInput, "cannot derive the ICON dev account")
        }
    }

    /// Stores the ICON dev account if missing; returns the ICON keyring with it unlocked (other ICON
    /// accounts of the directory stay locked).
    static func prepareIcon(store: AccountStore) throws(KeystoreError) -> IconKeyring {
        let pair = try iconKeyPair()
        do {
            try store.addIcon(pair, name: iconName, password: Passphrase(password), isTesting: true)
        } catch  where error.code == .accountExists {
            // Already there (a given data directory, or another process).
        }
        let (accounts, problems) = try store.listIcon()
        let ordered = accounts.filter { $0.address == pair.address } + accounts.filter { $0.address != pair.address }
        return IconKeyring(accounts: ordered, pairs: [pair.address: pair], problems: problems)
    }

    /// How many Ethereum development accounts `--dev` adds: accounts 0, 1, 2 of the public
    /// `test … junk` mnemonic at `m/44'/60'/0'/0/n` (Hardhat's and Anvil's first accounts:
    /// 0xf39F…2266, 0x7099…79C8, 0x3C44…93BC). Public knowledge: never for funds.
    package static let ethereumCount: UInt32 = 3

    /// The name of Ethereum development account `index`, saying what it is.
    package static func ethereumName(_ index: UInt32) -> String { "Ethereum dev \(index) (public test key)" }

    /// Their files use a cheap KDF (scrypt N = 2^12): the keys are public, the file is only there so
    /// that they are listed like every other account in a given data directory.
    static let ethereumDevKDF = EthereumKeystoreFile.KDF.scrypt(n: 1 << 12, r: 8, p: 1)

    /// The Ethereum development key pairs, in order.
    package static func ethereumKeyPairs() throws(KeystoreError) -> [EthereumKeyPair] {
        do {
            return try (0..<ethereumCount).map { try EthereumKeyPair.devAccount(index: $0) }
        } catch {
            throw KeystoreError(.invalidInput, "cannot derive the Ethereum dev accounts")
        }
    }

    /// Stores the Ethereum dev accounts that are missing; returns the Ethereum keyring with them
    /// unlocked, first and in order (other Ethereum accounts of the directory stay locked).
    static func prepareEthereum(store: AccountStore) throws(KeystoreError) -> EthereumKeyring {
        let pairs = try ethereumKeyPairs()
        for (index, pair) in pairs.enumerated() {
            do {
                try store.addEthereum(
                    pair, name: ethereumName(UInt32(index)), password: Passphrase(password), isTesting: true,
                    kdf: ethereumDevKDF)
            } catch  where error.code == .accountExists {
                // Already there (a given data directory, or another process).
            }
        }
        let (accounts, problems) = try store.listEthereum()
        let order = pairs.map(\.address)
        let ordered =
            order.compactMap { address in accounts.first { $0.address == address } }
            + accounts.filter { !order.contains($0.address) }
        var unlocked: [String: EthereumKeyPair] = [:]
        for pair in pairs { unlocked[pair.address] = pair }
        return EthereumKeyring(accounts: ordered, pairs: unlocked, problems: problems)
    }

    /// The key pair of a dev account (derived from the public dev phrase).
    package static func keyPair(_ account: Account) throws(KeystoreError) -> KeyPair {
        do {
            return try KeyPair(uri: account.uri, scheme: account.scheme)
        } catch {
            throw KeystoreError(.invalidInput, "cannot derive dev account \(account.name)")
        }
    }

    private static func makeTemporaryDirectory() throws(KeystoreError) -> String {
        var template = Array((FileManager.default.temporaryDirectory.path + "/sigil-dev-XXXXXX").utf8CString)
        let made = template.withUnsafeMutableBufferPointer { buffer -> Bool in
            guard let base = buffer.baseAddress else { return false }
            return mkdtemp(base) != nil  // mkdtemp creates it with mode 0700
        }
        guard made else { throw POSIX.error("mkdtemp", FileManager.default.temporaryDirectory.path) }
        return String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
