import Foundation
import Logging
import Primitives
import SigilTesting
import SigningKeys
import StateStore
import Testing

@testable import Keystore

@Suite struct UnlockedKeyringTests {
    @Test func unlockAllOpensAccountsWithThePasswordAndListsTheRestLocked() throws {
        let f = try StoreFixture()
        defer { f.remove() }
        let a = try f.store.importSecretURI("//A", scheme: .sr25519, name: "a", password: Passphrase("main"))
        let b = try f.store.importSecretURI("//B", scheme: .ed25519, name: "b", password: Passphrase("main"))
        let c = try f.store.importSecretURI("//C", scheme: .sr25519, name: "c", password: Passphrase("other"))
        let keyring = try f.store.unlockAll(password: Passphrase("main"))
        #expect(Set(keyring.accounts.map(\.address)) == [a.address, b.address, c.address])
        #expect(Set(keyring.unlockedAccounts.map(\.address)) == [a.address, b.address])
        #expect(keyring.keyPair(for: c.address) == nil)
        #expect(keyring.isUnlocked(try SS58.encode(a.publicKey, prefix: 0)), "any network prefix")
        #expect(throws: KeystoreError(.decryptFailed, "")) {
            try keyring.unlock(c.address, password: Passphrase("main"))
        }
        try keyring.unlock(c.address, password: Passphrase("other"))
        #expect(keyring.keyPair(for: c.address)?.publicKey == c.publicKey)
        keyring.lockAll()
        #expect(keyring.unlockedAccounts.isEmpty)
        #expect(keyring.accounts.count == 3)
    }

    @Test func anAccountWhoseSecretDoesNotMatchItsKeyIsReportedNotUnlocked() throws {
        let f = try StoreFixture()
        defer { f.remove() }
        let good = try f.store.importSecretURI("//Good", scheme: .sr25519, name: "good", password: Passphrase("pw"))
        // A file that lists and decrypts, but whose secret belongs to another key.
        let alice = try KeyPair(uri: "//Alice", scheme: .ed25519)
        let bob = try KeyPair(uri: "//Bob", scheme: .ed25519)
        let secret = try #require(bob.keystoreSecret)
        let plain = KeyringPkcs8.encode(secret: secret, publicKey: alice.publicKey)
        let encoded = try KeyringCipher.encrypt(plain, password: Passphrase("pw"), parameters: .interoperable)
        let file = KeyringJSON(
            encoded: Data(encoded).base64EncodedString(), content: ["pkcs8", "ed25519"],
            type: ["scrypt", "xsalsa20-poly1305"], address: try KeyringPairCodec.jsonAddress(for: alice),
            meta: ["name": .string("forged")])
        try f.store.write(file, fileName: AccountStore.fileName(for: alice.publicKey))
        let keyring = try f.store.unlockAll(password: Passphrase("pw"))
        #expect(keyring.accounts.count == 2)
        #expect(keyring.unlockedAccounts.map(\.address) == [good.address])
        #expect(keyring.problems.map(\.fileName) == [AccountStore.fileName(for: alice.publicKey)])
        #expect(keyring.keyPair(for: try KeyringPairCodec.jsonAddress(for: alice)) == nil)
    }

    @Test func devAccountsLiveInAThrowAwayDirectoryAndAreUnlocked() throws {
        let env = try DevAccounts.prepare(dataDirectory: nil)
        defer { env.removeIfTemporary() }
        #expect(env.isTemporary)
        #expect(try DataDirectory.permissions(of: env.directory.path) == 0o700)
        let accounts = env.keyring.accounts
        #expect(accounts.count == 8)
        #expect(env.keyring.unlockedAccounts.count == 8)
        // Shown in the declared order (the files are written concurrently, so not by creation time).
        #expect(accounts.map(\.name) == DevAccounts.accounts.map(\.name))
        #expect(accounts.first { $0.name == "Alice" }?.address == "5GrwvaEF5zXb26Fz9rcQpDWS57CtERHpNehXCPcNoHGKutQY")
        #expect(accounts.first { $0.name == "Bob" }?.address == "5FHneW46xGXgs5mUiveU4sbTyGBzmstUspZC92UhjJM694ty")
        #expect(
            accounts.first { $0.name == "Alice (ed25519)" }?.address
                == "5FA9nQDVg267DEd8m1ZypXLBnvN7SFxYwV7ndqSYGiN9TTpu")
        #expect(
            accounts.first { $0.name == "Alice (ecdsa)" }?.address == "5C7C2Z5sWbytvHpuLTvzKunnnRwQxft1jiqrLD5rhucQ5S9X"
        )
        let path = env.directory.path
        env.removeIfTemporary()
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    @Test func devAccountsInAGivenDirectoryAreWrittenOnceAndOtherAccountsStayLocked() throws {
        let tmp = TemporaryDirectory()
        defer { tmp.remove() }
        let first = try DevAccounts.prepare(dataDirectory: tmp.path)
        try first.store.importSecretURI("//Mine", scheme: .sr25519, name: "mine", password: Passphrase("secret"))
        let second = try DevAccounts.prepare(dataDirectory: tmp.path)
        #expect(!second.isTemporary)
        #expect(second.keyring.accounts.count == 9)
        #expect(second.keyring.unlockedAccounts.count == 8)
        second.removeIfTemporary()
        #expect(FileManager.default.fileExists(atPath: tmp.path), "a given directory is never deleted")
    }
}

@Suite struct SecretHygieneTests {
    @Test func noSecretPasswordOrMnemonicReachesTheLogsErrorsOrAnyFileInTheDataDirectory() throws {
        let logs = CapturedLogs()
        let f = try StoreFixture(logger: logs.logger())
        defer { f.remove() }
        let phrase = "legal winner thank year wave sausage worth useful legal winner thank yellow"
        let password = "correct-horse-battery-staple-91"
        let pair = try KeyPair(uri: phrase, scheme: .sr25519)
        let info = try f.store.importSecretURI(phrase, scheme: .sr25519, name: "n", password: Passphrase(password))
        let exported = try f.store.export(info.address, password: Passphrase(password))
        let g = try StoreFixture(logger: logs.logger())
        defer { g.remove() }
        _ = try g.store.importJSON(exported, password: Passphrase(password))
        _ = try f.store.unlockAll(password: Passphrase(password))
        var errors: [String] = []
        do { _ = try f.store.export(info.address, password: Passphrase(password + "x")) } catch {
            errors.append("\(error)")
        }
        do { _ = try g.store.importJSON(exported, password: Passphrase(password + "x")) } catch {
            errors.append("\(error)")
        }
        // The state database lives in the same directory: use it, then scan every byte on disk.
        let state = try SQLiteStateStore(path: f.directory.databasePath)
        try state.authorize(origin: "https://a.example", name: "A", accounts: [info.address])

        guard case .sr25519(let sr) = pair, let seed = sr.seed else { Issue.record("no seed"); return }
        let secrets: [[UInt8]] = [
            Array(password.utf8), Array(phrase.utf8), Array("sausage".utf8),
            seed.unsafeExposedBytes(), sr.ed25519FormSecretKey.unsafeExposedBytes(),
            Array(sr.ed25519FormSecretKey.unsafeExposedBytes().prefix(16)),
        ]
        let secretHex = secrets.map { Hex.encode($0).dropFirst(2) }
        let text = logs.text + errors.joined(separator: "\n")
        #expect(!logs.text.isEmpty, "the store did log")
        for hex in secretHex { #expect(!text.contains(hex)) }
        #expect(!text.contains(password) && !text.contains("sausage"))
        for (path, data) in try f.snapshot().merging(try g.snapshot(), uniquingKeysWith: { a, _ in a }) {
            let bytes = [UInt8](data)
            for secret in secrets {
                #expect(bytes.firstRange(of: secret) == nil, "\(path) contains secret bytes")
            }
        }
    }
}
