import Foundation
import Primitives
import SigningKeys
import Testing

@testable import Keystore

/// Ethereum accounts in the data directory (docs/reference/ethereum.md §10): keystore v3 files
/// `accounts/eth-<address>.json`, imported from eth-keyfile files (both KDFs), exported so that
/// eth-keyfile reads them, listed apart from the polkadot-js and ICON accounts, and the `--dev` keys.
@Suite struct EthereumAccountStoreTests {
    /// Hardhat account 0 (`test … junk` at m/44'/60'/0'/0/0), public.
    static let account0 = "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266"
    static let secret0 = "ac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80"

    /// Files written by eth-keyfile `create_keyfile_json` (fixed salt, IV and id; password
    /// `testpassword`), pbkdf2 then scrypt: Resources/ethereum-keystore.json (see the README there).
    static let ethKeyfileFiles: [String] = {
        guard let url = Bundle.module.url(forResource: "Resources/ethereum-keystore", withExtension: "json"),
            let bytes = try? Array(Data(contentsOf: url)), let root = try? JSONValue.parse(bytes),
            root["password"]?.stringValue == "testpassword", root["secretKey"]?.stringValue == secret0,
            root["address"]?.stringValue == account0, let pbkdf2 = root["files"]?["pbkdf2"],
            let scrypt = root["files"]?["scrypt"]
        else { return [] }
        return [pbkdf2, scrypt].map { String(decoding: $0.encoded(), as: UTF8.self) }
    }()

    /// File `i` of ``ethKeyfileFiles`` (empty when the resource is missing: the tests then fail, never trap).
    static func file(_ i: Int) -> String { i < ethKeyfileFiles.count ? ethKeyfileFiles[i] : "" }

    @Test func theEthKeyfileFilesAreThere() {
        #expect(Self.ethKeyfileFiles.count == 2)
    }

    static let cheap = EthereumKeystoreFile.KDF.scrypt(n: 1 << 10, r: 8, p: 1)

    @Test(arguments: ethKeyfileFiles)
    func anEthKeyfileFileImportsWithItsPasswordAndUnlocksToItsKey(_ text: String) throws {
        let f = try StoreFixture()
        defer { f.remove() }
        let outcome = try f.store.importEthereumFile(
            Array(text.utf8), password: Passphrase("testpassword"), name: "imp")
        #expect(outcome.imported)
        #expect(outcome.account.address == Self.account0)
        #expect(outcome.account.name == "imp")
        #expect(outcome.account.fileName == "eth-f39fd6e51aad88f6f4ce6ab8827279cfffb92266.json")
        let pair = try f.store.unlockEthereum(outcome.account, password: Passphrase("testpassword"))
        #expect(pair.seed?.unsafeExposedBytes() == (try Hex.decode(Self.secret0, prefix: .forbidden)))
        // The stored file keeps the imported encryption (the same ciphertext) and reads as a keystore file.
        let stored = try Data(
            contentsOf: URL(fileURLWithPath: f.directory.accountsPath + "/" + outcome.account.fileName))
        let original = try EthereumKeystoreFile.parse(Array(text.utf8))
        #expect(try EthereumKeystoreFile.parse([UInt8](stored)).crypto == original.crypto)
        // A second import changes nothing.
        let again = try f.store.importEthereumFile(Array(text.utf8), password: Passphrase("testpassword"), name: "x")
        #expect(!again.imported && again.account.name == "imp")
    }

    struct Refusal: Sendable, CustomTestStringConvertible {
        let name: String
        let text: String
        let password: String
        let code: KeystoreError.Code
        var testDescription: String { name }
    }

    static let refusals: [Refusal] = [
        Refusal(name: "wrong password", text: file(0), password: "wrong", code: .decryptFailed),
        Refusal(
            name: "another address",
            text: file(0).replacingOccurrences(
                of: "f39Fd6e51aad88F6F4ce6aB8827279cffFb92266", with: "70997970C51812dc3A010C7d01b50e0d17dc79C8"),
            password: "testpassword", code: .keyMismatch),
        Refusal(
            name: "altered ciphertext", text: file(1).replacingOccurrences(of: "2dc500c7", with: "2dc500c8"),
            password: "testpassword", code: .decryptFailed),
        Refusal(name: "truncated", text: String(file(1).prefix(120)), password: "testpassword", code: .malformedFile),
        Refusal(name: "not JSON", text: "0xac0974bec39a17e3", password: "testpassword", code: .malformedFile),
        Refusal(
            name: "scrypt beyond the bounds",
            text: file(1).replacingOccurrences(of: #""n":4096"#, with: #""n":4194304"#),
            password: "testpassword", code: .invalidScryptParameters),
    ]

    @Test(arguments: refusals)
    func aBadImportIsRefusedAndWritesNothing(_ r: Refusal) throws {
        let f = try StoreFixture()
        defer { f.remove() }
        let before = try f.snapshot()
        #expect(throws: KeystoreError(r.code, "")) {
            try f.store.importEthereumFile(Array(r.text.utf8), password: Passphrase(r.password), name: nil)
        }
        #expect(try f.snapshot() == before)
        #expect(try f.store.listEthereum().accounts.isEmpty)
    }

    @Test(arguments: [EthereumKeystoreFile.KDF.scrypt(n: 1 << 10, r: 8, p: 1), .pbkdf2(iterations: 1000)])
    func anAddedAccountExportsAFileWithoutSigilMetaThatDecryptsToTheKey(_ kdf: EthereumKeystoreFile.KDF) throws {
        let f = try StoreFixture()
        defer { f.remove() }
        let pair = try EthereumKeyPair.devAccount(index: 1)
        let info = try f.store.addEthereum(pair, name: "mine", password: Passphrase("pw"), kdf: Self.cheap)
        #expect(info.address == "0x70997970C51812dc3A010C7d01b50e0d17dc79C8")
        let exported = try f.store.exportEthereum(info.address.lowercased(), password: Passphrase("pw"), kdf: kdf)
        let root = try JSONValue.parse(exported)
        #expect(root["sigil"] == nil)
        #expect(root["address"]?.stringValue == "70997970c51812dc3a010c7d01b50e0d17dc79c8")
        let text = String(decoding: exported, as: UTF8.self)
        #expect(!text.contains(Hex.encode(try #require(pair.seed).unsafeExposedBytes(), prefix: false)))
        let back = try EthereumKeystoreFile.parse(exported).decrypt(password: Passphrase("pw"))
        #expect(back.address == pair.address)
        #expect(throws: KeystoreError(.decryptFailed, "")) {
            try f.store.exportEthereum(info.address, password: Passphrase("other"), kdf: kdf)
        }
    }

    @Test func ethereumFilesAreTheirOwnListAndFindIgnoresCaseButNotDigits() throws {
        let f = try StoreFixture()
        defer { f.remove() }
        try f.store.addEthereum(
            try EthereumKeyPair.devAccount(index: 0), name: "a", password: Passphrase("pw"), kdf: Self.cheap)
        try f.store.add(try KeyPair(uri: "//Alice", scheme: .sr25519), name: "Alice", password: Passphrase("pw"))
        #expect(try f.store.list().accounts.map(\.name) == ["Alice"])
        #expect(try f.store.listIcon().accounts.isEmpty)
        #expect(try f.store.listEthereum().accounts.map(\.address) == [Self.account0])
        for query in [Self.account0, Self.account0.lowercased(), "0x" + Self.account0.dropFirst(2).uppercased(), "a"] {
            #expect(try f.store.findEthereum(query).address == Self.account0, "\(query)")
        }
        for query in ["0xf39fd6e51aad88f6f4ce6ab8827279cfffb9226", "f39fd6e51aad88f6f4ce6ab8827279cfffb92266", "b", ""]
        {
            #expect(throws: KeystoreError(.accountNotFound, "")) { try f.store.findEthereum(query) }
        }
        #expect(throws: KeystoreError(.accountExists, "")) {
            try f.store.addEthereum(
                try EthereumKeyPair.devAccount(index: 0), name: nil, password: Passphrase("pw"), kdf: Self.cheap)
        }
        try f.store.removeEthereum(Self.account0.lowercased())
        #expect(try f.store.listEthereum().accounts.isEmpty)
    }

    @Test func renamingKeepsTheKeyAndItsEncryption() throws {
        let f = try StoreFixture()
        defer { f.remove() }
        let text = Self.file(0)
        let info = try f.store.importEthereumFile(Array(text.utf8), password: Passphrase("testpassword"), name: "old")
            .account
        let renamed = try f.store.renameEthereum(Self.account0.lowercased(), to: "new")
        #expect(renamed.name == "new" && renamed.address == Self.account0 && renamed.whenCreated == info.whenCreated)
        #expect(try f.store.findEthereum("new").address == Self.account0)
        let pair = try f.store.unlockEthereum(renamed, password: Passphrase("testpassword"))
        #expect(pair.address == Self.account0)
        let stored = try EthereumKeystoreFile.parse(
            [UInt8](try Data(contentsOf: URL(fileURLWithPath: f.directory.accountsPath + "/" + renamed.fileName))))
        #expect(stored.crypto == (try EthereumKeystoreFile.parse(Array(text.utf8))).crypto)
        #expect(throws: KeystoreError(.accountNotFound, "")) { try f.store.renameEthereum("old", to: "x") }
    }

    @Test func unlockAllOpensTheAccountsOfThePasswordAndKeepsTheOthersLocked() throws {
        let f = try StoreFixture()
        defer { f.remove() }
        try f.store.addEthereum(
            try EthereumKeyPair.devAccount(index: 0), name: nil, password: Passphrase("pw"), kdf: Self.cheap)
        try f.store.addEthereum(
            try EthereumKeyPair.devAccount(index: 1), name: nil, password: Passphrase("other"), kdf: Self.cheap)
        let keyring = try f.store.unlockAll(password: Passphrase("pw"))
        #expect(keyring.ethereum.accounts.count == 2)
        #expect(keyring.ethereum.unlockedAccounts.map(\.address) == [Self.account0])
        #expect(keyring.ethereum.keyPair(for: Self.account0.lowercased())?.address == Self.account0)
        #expect(keyring.ethereum.keyPair(for: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8") == nil)
        #expect(try f.store.lockedKeyring().ethereum.unlockedAccounts.isEmpty)
    }

    @Test func aFileRenamedToAnotherAddressIsAProblemNotAnAccount() throws {
        let f = try StoreFixture()
        defer { f.remove() }
        let info = try f.store.addEthereum(
            try EthereumKeyPair.devAccount(index: 0), name: nil, password: Passphrase("pw"), kdf: Self.cheap)
        let other = "eth-70997970c51812dc3a010c7d01b50e0d17dc79c8.json"
        try FileManager.default.moveItem(
            atPath: f.directory.accountsPath + "/" + info.fileName, toPath: f.directory.accountsPath + "/" + other)
        let (accounts, problems) = try f.store.listEthereum()
        #expect(accounts.isEmpty)
        #expect(problems.map(\.fileName) == [other])
    }

    @Test func devAccountsAreThePublicTestKeysLabelledAsSuch() throws {
        let env = try DevAccounts.prepare(dataDirectory: nil)
        defer { env.removeIfTemporary() }
        let accounts = env.keyring.ethereum.unlockedAccounts
        #expect(
            accounts.map(\.address) == [
                "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266", "0x70997970C51812dc3A010C7d01b50e0d17dc79C8",
                "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC",
            ])
        #expect(accounts.map(\.name) == (0..<3).map { Optional("Ethereum dev \($0) (public test key)") })
        #expect(accounts.allSatisfy { $0.isTesting })
        // Public test keys: the keyring's pairs are the mnemonic's.
        #expect(
            env.keyring.ethereum.keyPair(for: Self.account0)?.seed?.unsafeExposedBytes()
                == (try Hex.decode(Self.secret0, prefix: .forbidden)))
    }
}
