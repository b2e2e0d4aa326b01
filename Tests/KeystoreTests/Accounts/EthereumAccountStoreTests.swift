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
    /// `testpassword`): the vectors keystore-acct0-pbkdf2-fast and keystore-acct0-scrypt-fast of
    /// Tests/EthereumCodecTests/Resources/ethereum.json.
    static let ethKeyfileFiles: [String] = [
        #"{"address":"f39Fd6e51aad88F6F4ce6aB8827279cffFb92266","crypto":{"cipher":"aes-128-ctr","cipherparams":{"iv":"101112131415161718191a1b1c1d1e1f"},"ciphertext":"d691999508a5923341096ad3ee220fa2f8f761348afdd6d428dec251d68c2ea3","kdf":"pbkdf2","kdfparams":{"c":4096,"dklen":32,"prf":"hmac-sha256","salt":"000102030405060708090a0b0c0d0e0f"},"mac":"4a9e1cf741c8742025036a8e5281306d90c903b815a0d4b9735440fa752caa5f"},"id":"b1f2a0c4-6f1e-4c8e-9a57-000000000001","version":3}"#,
        #"{"address":"f39Fd6e51aad88F6F4ce6aB8827279cffFb92266","crypto":{"cipher":"aes-128-ctr","cipherparams":{"iv":"303132333435363738393a3b3c3d3e3f"},"ciphertext":"2dc500c7b671de45c106013cab54f7e9170b08762973f496f829e86cdab9a8e5","kdf":"scrypt","kdfparams":{"dklen":32,"n":4096,"r":8,"p":1,"salt":"202122232425262728292a2b2c2d2e2f"},"mac":"9c5c99b0319202c1bf69eb81e18dce71b991f48ebb384059b2ce04111d2fee84"},"id":"b1f2a0c4-6f1e-4c8e-9a57-000000000002","version":3}"#,
    ]

    static let cheap = EthereumKeystoreFile.KDF.scrypt(n: 1 << 10, r: 8, p: 1)

    @Test(arguments: ethKeyfileFiles)
    func anEthKeyfileFileImportsWithItsPasswordAndUnlocksToItsKey(_ text: String) throws {
        let f = try StoreFixture()
        defer { f.remove() }
        let outcome = try f.store.importEthereumFile(Array(text.utf8), password: Passphrase("testpassword"), name: "imp")
        #expect(outcome.imported)
        #expect(outcome.account.address == Self.account0)
        #expect(outcome.account.name == "imp")
        #expect(outcome.account.fileName == "eth-f39fd6e51aad88f6f4ce6ab8827279cfffb92266.json")
        let pair = try f.store.unlockEthereum(outcome.account, password: Passphrase("testpassword"))
        #expect(pair.seed?.unsafeExposedBytes() == (try Hex.decode(Self.secret0, prefix: .forbidden)))
        // The stored file keeps the imported encryption (the same ciphertext) and reads as a keystore file.
        let stored = try Data(contentsOf: URL(fileURLWithPath: f.directory.accountsPath + "/" + outcome.account.fileName))
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
        Refusal(name: "wrong password", text: ethKeyfileFiles[0], password: "wrong", code: .decryptFailed),
        Refusal(
            name: "another address",
            text: ethKeyfileFiles[0].replacingOccurrences(
                of: "f39Fd6e51aad88F6F4ce6aB8827279cffFb92266", with: "70997970C51812dc3A010C7d01b50e0d17dc79C8"),
            password: "testpassword", code: .keyMismatch),
        Refusal(
            name: "altered ciphertext", text: ethKeyfileFiles[1].replacingOccurrences(of: "2dc500c7", with: "2dc500c8"),
            password: "testpassword", code: .decryptFailed),
        Refusal(name: "truncated", text: String(ethKeyfileFiles[1].prefix(120)), password: "testpassword", code: .malformedFile),
        Refusal(name: "not JSON", text: "0xac0974bec39a17e3", password: "testpassword", code: .malformedFile),
        Refusal(
            name: "scrypt beyond the bounds",
            text: ethKeyfileFiles[1].replacingOccurrences(of: #""n":4096"#, with: #""n":4194304"#),
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
        try f.store.addEthereum(try EthereumKeyPair.devAccount(index: 0), name: "a", password: Passphrase("pw"), kdf: Self.cheap)
        try f.store.add(try KeyPair(uri: "//Alice", scheme: .sr25519), name: "Alice", password: Passphrase("pw"))
        #expect(try f.store.list().accounts.map(\.name) == ["Alice"])
        #expect(try f.store.listIcon().accounts.isEmpty)
        #expect(try f.store.listEthereum().accounts.map(\.address) == [Self.account0])
        for query in [Self.account0, Self.account0.lowercased(), "0x" + Self.account0.dropFirst(2).uppercased(), "a"] {
            #expect(try f.store.findEthereum(query).address == Self.account0, "\(query)")
        }
        for query in ["0xf39fd6e51aad88f6f4ce6ab8827279cfffb9226", "f39fd6e51aad88f6f4ce6ab8827279cfffb92266", "b", ""] {
            #expect(throws: KeystoreError(.accountNotFound, "")) { try f.store.findEthereum(query) }
        }
        #expect(throws: KeystoreError(.accountExists, "")) {
            try f.store.addEthereum(try EthereumKeyPair.devAccount(index: 0), name: nil, password: Passphrase("pw"), kdf: Self.cheap)
        }
        try f.store.removeEthereum(Self.account0.lowercased())
        #expect(try f.store.listEthereum().accounts.isEmpty)
    }

    @Test func renamingKeepsTheKeyAndItsEncryption() throws {
        let f = try StoreFixture()
        defer { f.remove() }
        let text = Self.ethKeyfileFiles[0]
        let info = try f.store.importEthereumFile(Array(text.utf8), password: Passphrase("testpassword"), name: "old").account
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
        try f.store.addEthereum(try EthereumKeyPair.devAccount(index: 0), name: nil, password: Passphrase("pw"), kdf: Self.cheap)
        try f.store.addEthereum(try EthereumKeyPair.devAccount(index: 1), name: nil, password: Passphrase("other"), kdf: Self.cheap)
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
        let info = try f.store.addEthereum(try EthereumKeyPair.devAccount(index: 0), name: nil, password: Passphrase("pw"), kdf: Self.cheap)
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
