import Foundation
import Logging
import Primitives
import SigilTesting
import SigningKeys
import Testing

@testable import Keystore

/// A store in a fresh temporary data directory.
struct StoreFixture {
    let tmp = TemporaryDirectory()
    let directory: DataDirectory
    let store: AccountStore

    init(logger: Logger? = nil) throws {
        let directory = try DataDirectory.open(tmp.path)
        self.directory = directory
        if let logger {
            store = AccountStore(directory: directory, logger: logger)
        } else {
            store = AccountStore(directory: directory)
        }
    }

    /// Every file under the data directory with its bytes (to prove "nothing changed").
    func snapshot() throws -> [String: Data] {
        var out: [String: Data] = [:]
        let root = URL(fileURLWithPath: tmp.path)
        guard let e = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil) else { return out }
        for case let url as URL in e {
            var isDir: ObjCBool = false
            if FileManager.default.fileExists(atPath: url.path, isDirectory: &isDir), !isDir.boolValue,
                !url.lastPathComponent.hasSuffix(".lock")
            {
                out[url.path] = try Data(contentsOf: url)
            }
        }
        return out
    }

    func remove() { tmp.remove() }
}

@Suite struct AccountStoreTests {
    static let genesis = "0x91b171bb158e2d3848fa23a9f1c25182fb8e20313b2c1eb49219da7a70ce90c3"
    @Test(arguments: KeystoreVector.valid)
    func everyVectorExportDecryptsWithItsPasswordToTheExpectedAddressAndImports(_ v: KeystoreVector) throws {
        let f = try StoreFixture()
        defer { f.remove() }
        let password = Passphrase(v.password ?? "new password for an unencrypted file")
        let outcomes = try f.store.importJSON(v.json, password: password)
        #expect(outcomes.count == 1 && outcomes[0].imported)
        let listed = try f.store.list()
        #expect(listed.problems.isEmpty)
        #expect(listed.accounts.map(\.address) == [v.address42], "\(v.id)")
        let pair = try f.store.unlock(listed.accounts[0], password: password)
        #expect(pair.publicKey == v.publicKey, "\(v.id)")
        #expect(try SS58.encode(pair.accountId, prefix: 42) == v.address42, "\(v.id)")
        // The stored file keeps polkadot-js's shape and metadata.
        let stored = try KeyringJSON.parse(
            Data(contentsOf: URL(fileURLWithPath: f.directory.accountsPath + "/" + listed.accounts[0].fileName)))
        #expect(stored.type == ["scrypt", "xsalsa20-poly1305"])
        #expect(stored.content == ["pkcs8", v.keyType ?? "sr25519"])
        let original = try KeyringJSON.parse(v.json)
        if original.isEncrypted { #expect(stored.encoded == original.encoded, "ciphertext kept as imported") }
        for (key, value) in original.meta { #expect(stored.meta[key] == value, "meta.\(key) kept") }
        #expect(stored.meta["whenCreated"]?.integer(as: Int64.self) != nil)
    }

    @Test func addedAccountsExportToAFileThatDecryptsWithPolkadotJsParameters() throws {
        let f = try StoreFixture()
        defer { f.remove() }
        let pair = try KeyPair(uri: "//Alice", scheme: .sr25519)
        let info = try f.store.add(pair, name: "Alice", password: Passphrase("pw"))
        #expect(info.address == "5GrwvaEF5zXb26Fz9rcQpDWS57CtERHpNehXCPcNoHGKutQY")
        let exported = try f.store.export(info.address, password: Passphrase("pw"))
        let file = try KeyringJSON.parse(exported)
        #expect(file.address == info.address)
        #expect(file.meta["name"] == .string("Alice"))
        let bytes = try file.encodedBytes()
        #expect(bytes.count == 201, "polkadot-js sr25519 files are 201 bytes")
        let parts = try KeyringCipher.parts(of: bytes, usesScrypt: true)
        #expect(parts.parameters == ScryptParameters(n: 32768, p: 1, r: 8))
        let plain = try KeyringCipher.decrypt(bytes, password: Passphrase("pw"), usesScrypt: true)
        let v = try #require(KeystoreVector.all.first { $0.id == "pjs-sr25519-alice-default" })
        #expect(plain.unsafeExposedBytes() == v.decryptedPkcs8, "same PKCS8 bytes polkadot-js writes for //Alice")
    }

    @Test(arguments: [KeyScheme.sr25519, .ed25519, .ecdsa])
    func exportThenImportIntoAnotherStoreRoundTrips(_ scheme: KeyScheme) throws {
        let a = try StoreFixture()
        let b = try StoreFixture()
        defer { a.remove(); b.remove() }
        let info = try a.store.importSecretURI(
            "//Bob//stash", scheme: scheme, name: "Bob stash", password: Passphrase("x1"))
        let exported = try a.store.export(info.address, password: Passphrase("x1"))
        let outcomes = try b.store.importJSON(exported, password: Passphrase("x1"))
        #expect(outcomes.map(\.account.address) == [info.address])
        let imported = try b.store.find(info.address)
        #expect(imported.name == "Bob stash")
        #expect(imported.scheme == scheme)
        let pair = try b.store.unlock(imported, password: Passphrase("x1"))
        let message = Array("round trip".utf8)
        #expect(
            scheme.verify(
                signature: try pair.sign(message), message: message,
                signer: scheme == .ecdsa ? pair.accountId : pair.publicKey))
    }

    @Test func aWrongPasswordATruncatedFileAndAlteredCiphertextFailClearlyAndChangeNothing() throws {
        let f = try StoreFixture()
        defer { f.remove() }
        try f.store.importSecretURI("//Charlie", scheme: .sr25519, name: "C", password: Passphrase("pw"))
        let v = try #require(KeystoreVector.all.first { $0.id == "subxt-real-export-sr25519-alice" })
        var file = try KeyringJSON.parse(v.json)
        let before = try f.snapshot()

        #expect(throws: KeystoreError(.decryptFailed, "")) {
            try f.store.importJSON(v.json, password: Passphrase("nope"))
        }

        let truncated = v.json.prefix(v.json.count / 2)
        #expect(throws: KeystoreError(.malformedFile, "")) {
            try f.store.importJSON(truncated, password: Passphrase("whoisalice"))
        }

        var bytes = try file.encodedBytes()
        bytes[bytes.count - 3] ^= 0x40
        file.encoded = Data(bytes).base64EncodedString()
        #expect(throws: KeystoreError(.decryptFailed, "")) {
            try f.store.importJSON(try file.serialized(), password: Passphrase("whoisalice"))
        }
        var short = try KeyringJSON.parse(v.json)
        short.encoded = Data(try short.encodedBytes().prefix(60)).base64EncodedString()
        #expect(throws: KeystoreError(.malformedFile, "")) {
            try f.store.importJSON(try short.serialized(), password: Passphrase("whoisalice"))
        }
        #expect(try f.snapshot() == before)
    }

    @Test func aFileWhoseAddressDoesNotMatchItsKeyIsRefused() throws {
        let f = try StoreFixture()
        defer { f.remove() }
        let v = try #require(KeystoreVector.all.first { $0.id == "subxt-real-export-sr25519-alice" })
        var file = try KeyringJSON.parse(v.json)
        file.address = "5FHneW46xGXgs5mUiveU4sbTyGBzmstUspZC92UhjJM694ty"  // Bob
        #expect(throws: KeystoreError(.keyMismatch, "")) {
            try f.store.importJSON(try file.serialized(), password: Passphrase("whoisalice"))
        }
        #expect(try f.store.list().accounts.isEmpty)
    }

    @Test func anEmbeddedPublicKeyThatDoesNotMatchTheSecretIsRefused() throws {
        let pair = try KeyPair(uri: "//Alice", scheme: .ed25519)
        var plain = try KeyringPairCodec.plaintext(for: pair).unsafeExposedBytes()
        plain[plain.count - 1] ^= 1
        #expect(throws: KeystoreError(.keyMismatch, "")) {
            try KeyringPairCodec.keyPair(fromPlaintext: SecretBytes(plain), scheme: .ed25519)
        }
        var sr = try KeyringPairCodec.plaintext(for: try KeyPair(uri: "//Alice", scheme: .sr25519)).unsafeExposedBytes()
        sr[sr.count - 1] ^= 1
        #expect(throws: KeystoreError(.keyMismatch, "")) {
            try KeyringPairCodec.keyPair(fromPlaintext: SecretBytes(sr), scheme: .sr25519)
        }
    }

    @Test func ethereumFilesAreRefusedAsUnsupported() throws {
        let text =
            #"{"encoded":"AA","encoding":{"content":["pkcs8","ethereum"],"type":["none"],"version":"3"},"address":"0x00"}"#
        let f = try StoreFixture()
        defer { f.remove() }
        #expect(throws: KeystoreError(.unsupportedFormat, "")) {
            try f.store.importJSON(Data(text.utf8), password: Passphrase("p"))
        }
    }

    @Test func batchExportsImportAllAccountsAndReimportReportsThemPresent() throws {
        let a = try StoreFixture()
        let b = try StoreFixture()
        defer { a.remove(); b.remove() }
        let pw = Passphrase("batch")
        let uris = ["//Dave", "//Eve"]
        var addresses: [String] = []
        for uri in uris {
            addresses.append(try a.store.importSecretURI(uri, scheme: .sr25519, name: uri, password: pw).address)
        }
        addresses.append(try a.store.importSecretURI("//Eve", scheme: .ed25519, name: "Eve ed", password: pw).address)
        let batch = try a.store.exportBatch(addresses, password: pw)
        let parsed = try KeyringJSON.parse(batch)
        #expect(parsed.isBatch)
        #expect(parsed.content == ["batch-pkcs8"])
        #expect(parsed.batchAccounts?.count == 3)
        let first = try b.store.importJSON(batch, password: pw)
        #expect(first.allSatisfy { $0.imported })
        #expect(Set(try b.store.list().accounts.map(\.address)) == Set(addresses))
        let again = try b.store.importJSON(batch, password: pw)
        #expect(again.count == 3 && again.allSatisfy { !$0.imported })
    }

    @Test func batchEntriesWithTheirOwnPasswordAskForItAndAbortCleanlyWithoutIt() throws {
        let a = try StoreFixture()
        let b = try StoreFixture()
        defer { a.remove(); b.remove() }
        let one = try a.store.importSecretURI("//One", scheme: .sr25519, name: "one", password: Passphrase("outer"))
        let two = try a.store.importSecretURI("//Two", scheme: .sr25519, name: "two", password: Passphrase("inner"))
        // polkadot-js backupAccounts: stored files as they are, array encrypted with the outer password.
        let entries: [JSONValue] = try [one, two].map { info in
            try KeyringJSON.parse(
                Data(contentsOf: URL(fileURLWithPath: a.directory.accountsPath + "/" + info.fileName))
            ).jsonValue
        }
        let payload = try JSONEncoder().encode(JSONValue.array(entries))
        let encoded = try KeyringCipher.encrypt(
            SecretBytes(payload), password: Passphrase("outer"), parameters: .interoperable)
        let batch = try KeyringJSON(
            encoded: Data(encoded).base64EncodedString(), content: ["batch-pkcs8"],
            type: ["scrypt", "xsalsa20-poly1305"], address: "", meta: [:], batchAccounts: []
        ).serialized()

        let before = try b.snapshot()
        var asked: [String] = []
        #expect(throws: KeystoreError(.decryptFailed, "")) {
            try b.store.importJSON(batch, password: Passphrase("outer")) { info in
                asked.append(info.address)
                return nil
            }
        }
        #expect(asked == [two.address])
        #expect(try b.snapshot() == before, "nothing written when one entry cannot be opened")

        let outcomes = try b.store.importJSON(batch, password: Passphrase("outer")) { _ in Passphrase("inner") }
        #expect(outcomes.count == 2 && outcomes.allSatisfy { $0.imported })
        #expect(throws: KeystoreError(.decryptFailed, "")) {
            try b.store.unlock(try b.store.find(two.address), password: Passphrase("outer"))
        }
        #expect(throws: Never.self) { try b.store.unlock(try b.store.find(two.address), password: Passphrase("inner")) }
    }

    @Test func aBatchWithTheWrongPasswordOrGarbagePayloadIsRefused() throws {
        let f = try StoreFixture()
        defer { f.remove() }
        let pw = Passphrase("pw")
        let garbage = try KeyringCipher.encrypt(
            SecretBytes(Array("{\"not\":1}".utf8)), password: pw, parameters: .interoperable)
        let batch = try KeyringJSON(
            encoded: Data(garbage).base64EncodedString(), content: ["batch-pkcs8"],
            type: ["scrypt", "xsalsa20-poly1305"], address: "", meta: [:], batchAccounts: []
        ).serialized()
        #expect(throws: KeystoreError(.malformedFile, "")) { try f.store.importJSON(batch, password: pw) }
        #expect(throws: KeystoreError(.decryptFailed, "")) {
            try f.store.importJSON(batch, password: Passphrase("other"))
        }
    }

    @Test func accountFilesAreOwnerOnlyAndNamedByPublicKey() throws {
        let f = try StoreFixture()
        defer { f.remove() }
        let info = try f.store.importSecretURI("//Alice", scheme: .ecdsa, name: "E", password: Passphrase("pw"))
        #expect(info.fileName == "0x020a1091341fe5664bfa1782d5e04779689068c916b04cb365ec3153755684d9a1.json")
        #expect(info.address == "5C7C2Z5sWbytvHpuLTvzKunnnRwQxft1jiqrLD5rhucQ5S9X")
        #expect(try DataDirectory.permissions(of: f.directory.path) == 0o700)
        #expect(try DataDirectory.permissions(of: f.directory.accountsPath) == 0o700)
        #expect(try DataDirectory.permissions(of: f.directory.accountsPath + "/" + info.fileName) == 0o600)
        let file = try KeyringJSON.parse(
            Data(contentsOf: URL(fileURLWithPath: f.directory.accountsPath + "/" + info.fileName)))
        #expect(
            file.address == "0x020a1091341fe5664bfa1782d5e04779689068c916b04cb365ec3153755684d9a1",
            "ecdsa: hex public key")
    }

    @Test func renameHideFindAndRemoveWork() throws {
        let f = try StoreFixture()
        defer { f.remove() }
        let info = try f.store.importSecretURI(
            "//Ferdie", scheme: .sr25519, name: "F", genesisHash: Self.genesis,
            password: Passphrase("pw"))
        #expect(info.genesisHash == Self.genesis)
        #expect(try f.store.rename(info.address, to: "Ferdie").name == "Ferdie")
        #expect(try f.store.setHidden("Ferdie", true).isHidden)
        // Any SS58 prefix and the hex key find it.
        let polkadot = try SS58.encode(info.publicKey, prefix: 0)
        #expect(try f.store.find(polkadot).fileName == info.fileName)
        #expect(try f.store.find(info.publicKeyHex).fileName == info.fileName)
        #expect(
            try f.store.unlock(try f.store.find("Ferdie"), password: Passphrase("pw")).publicKey == info.publicKey,
            "meta changes keep the key intact")
        #expect(try f.store.remove("Ferdie").address == info.address)
        #expect(throws: KeystoreError(.accountNotFound, "")) { try f.store.find(info.address) }
        #expect(throws: KeystoreError(.accountNotFound, "")) { try f.store.remove(info.address) }
    }

    @Test func addingTheSameKeyTwiceIsRefused() throws {
        let f = try StoreFixture()
        defer { f.remove() }
        try f.store.importSecretURI("//Alice", scheme: .sr25519, name: "A", password: Passphrase("pw"))
        #expect(throws: KeystoreError(.accountExists, "")) {
            try f.store.importSecretURI("//Alice", scheme: .sr25519, name: "B", password: Passphrase("pw2"))
        }
    }

    @Test func anInvalidSecretURIIsRefusedWithoutEchoingIt() throws {
        let f = try StoreFixture()
        defer { f.remove() }
        do {
            try f.store.importSecretURI(
                "bottom drive obey lake curtain smoke basket hold race lonely fit wa1k",
                scheme: .sr25519, name: nil, password: Passphrase("pw"))
            Issue.record("accepted an invalid mnemonic")
        } catch {
            #expect(error.code == .invalidInput)
            #expect(!error.description.contains("curtain"))
        }
    }

    @Test func unreadableFilesAreListedAsProblemsNotCrashes() throws {
        let f = try StoreFixture()
        defer { f.remove() }
        try f.store.importSecretURI("//Alice", scheme: .sr25519, name: "A", password: Passphrase("pw"))
        try Data("{garbage".utf8).write(to: URL(fileURLWithPath: f.directory.accountsPath + "/0xdead.json"))
        let listed = try f.store.list()
        #expect(listed.accounts.count == 1)
        #expect(listed.problems.map(\.fileName) == ["0xdead.json"])
    }

    @Test func concurrentAddsFromManyThreadsAllLand() throws {
        let f = try StoreFixture()
        defer { f.remove() }
        let pairs = try (0..<8).map { try KeyPair(uri: "//concurrent/\($0)", scheme: .sr25519) }
        DispatchQueue.concurrentPerform(iterations: pairs.count) { i in
            _ = try? f.store.add(pairs[i], name: "c\(i)", password: Passphrase("pw"))
        }
        #expect(try f.store.list().accounts.count == pairs.count)
    }
}

@Suite struct AccountStoreFileTests {
    @Test func temporaryAndForeignFilesInTheAccountsFolderAreIgnored() throws {
        let f = try StoreFixture()
        defer { f.remove() }
        try f.store.importSecretURI("//Alice", scheme: .sr25519, name: "A", password: Passphrase("pw"))
        for name in [".0xabc.json.tmp-\(getpid())-00", "notes.txt", "0xabc.json~"] {
            #expect(
                FileManager.default.createFile(atPath: f.directory.accountsPath + "/" + name, contents: Data("x".utf8)))
        }
        let listed = try f.store.list()
        #expect(listed.accounts.count == 1)
        #expect(listed.problems.isEmpty)
    }

    @Test func aFileRenamedToAnotherKeysNameIsReportedNotTrusted() throws {
        let f = try StoreFixture()
        defer { f.remove() }
        let info = try f.store.importSecretURI("//Alice", scheme: .sr25519, name: "A", password: Passphrase("pw"))
        let fake = f.directory.accountsPath + "/0x" + String(repeating: "11", count: 32) + ".json"
        try FileManager.default.moveItem(atPath: f.directory.accountsPath + "/" + info.fileName, toPath: fake)
        let listed = try f.store.list()
        #expect(listed.accounts.isEmpty)
        #expect(listed.problems.count == 1)
    }
}

@Suite struct KeyringPairCodecTests {
    @Test(arguments: [KeyScheme.sr25519, .ed25519])
    func olderSeedOnlyPlaintextsRebuildThePairFromTheSeed(_ scheme: KeyScheme) throws {
        let seed = (0..<32).map { UInt8($0 * 7 & 0xff) }
        let pair = try KeyPair(seed: SecretBytes(seed), scheme: scheme)
        let plain = KeyringPkcs8.header + seed + KeyringPkcs8.divider + pair.publicKey
        let rebuilt = try KeyringPairCodec.keyPair(fromPlaintext: SecretBytes(plain), scheme: scheme)
        #expect(rebuilt.publicKey == pair.publicKey)
        var wrong = plain
        wrong[wrong.count - 1] ^= 0x80
        #expect(throws: KeystoreError(.keyMismatch, "")) {
            try KeyringPairCodec.keyPair(fromPlaintext: SecretBytes(wrong), scheme: scheme)
        }
    }

    @Test func anEcdsaSecretOfZeroIsRefusedAsAnInvalidKey() {
        let plain =
            KeyringPkcs8.header + [UInt8](repeating: 0, count: 32) + KeyringPkcs8.divider
            + [UInt8](repeating: 2, count: 33)
        #expect(throws: KeystoreError(.keyMismatch, "")) {
            try KeyringPairCodec.keyPair(fromPlaintext: SecretBytes(plain), scheme: .ecdsa)
        }
    }
}
