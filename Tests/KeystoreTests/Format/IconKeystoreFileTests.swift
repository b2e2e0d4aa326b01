import Foundation
import Primitives
import SigningKeys
import Testing

@testable import Keystore

/// ICON keystore files (docs/reference/icon.md §8): files written by iconsdk (scrypt) and
/// eth-keyfile (pbkdf2) decrypt to the V-ICON-1 key; Sigil's files decrypt again; every refusal is
/// its own error; the account store keeps ICON accounts beside the polkadot-js ones.
@Suite struct IconKeystoreFileTests {
    struct Fixture {
        let password: String
        let secretKey: [UInt8]
        let address: String
        let files: [String: [UInt8]]

        static let shared: Fixture? = {
            guard let url = Bundle.module.url(forResource: "Resources/icon-keystore", withExtension: "json"),
                let bytes = try? Array(Data(contentsOf: url)), let root = try? JSONValue.parse(bytes),
                let password = root["password"]?.stringValue, let secret = root["secretKey"]?.stringValue,
                let key = try? Hex.decode(secret, prefix: .forbidden), let address = root["address"]?.stringValue,
                let files = root["files"]?.objectValue
            else { return nil }
            var encoded: [String: [UInt8]] = [:]
            for (name, file) in files { encoded[name] = file.encoded() }
            return Fixture(password: password, secretKey: key, address: address, files: encoded)
        }()
    }

    func fixture() throws -> Fixture { try #require(Fixture.shared) }

    @Test(arguments: ["scrypt", "pbkdf2"])
    func filesWrittenByTheIconSDKsDecrypt(kdf: String) throws {
        let f = try fixture()
        let file = try IconKeystoreFile.parse(try #require(f.files[kdf]))
        let pair = try file.decrypt(password: Passphrase(f.password))
        #expect(pair.address == f.address)
        #expect(pair.address == "hx902ecb51c109183ace539f247b4ea1347fbf23b5")  // V-ICON-1
        #expect(pair.secretKey.unsafeExposedBytes() == f.secretKey)
    }

    @Test(arguments: [IconKeystoreFile.KDF.scrypt(n: 1 << 10, r: 8, p: 1), .pbkdf2(iterations: 1000)])
    func sigilFilesRoundTrip(kdf: IconKeystoreFile.KDF) throws {
        let pair = try IconKeyPair(secretKey: SecretBytes(try fixture().secretKey))
        let file = try IconKeystoreFile.encrypt(pair, password: Passphrase("pw"), kdf: kdf)
        let parsed = try IconKeystoreFile.parse(file.json(includeSigilMeta: false).encoded())
        #expect(parsed == file)
        #expect(try parsed.decrypt(password: Passphrase("pw")).address == pair.address)
        #expect(file.json(includeSigilMeta: false)["coinType"] == "icx")
    }

    /// One change each; the error code names the rule.
    @Test func refusals() throws {
        let f = try fixture()
        let original = try JSONValue.parse(try #require(f.files["scrypt"]))
        func changed(_ change: (inout JSONObject, inout JSONObject, inout JSONObject) -> Void) -> [UInt8] {
            guard case .object(var root) = original, case .object(var crypto)? = root["crypto"],
                case .object(var params)? = crypto["kdfparams"]
            else { return [] }
            change(&root, &crypto, &params)
            crypto["kdfparams"] = .object(params)
            root["crypto"] = .object(crypto)
            return JSONValue.object(root).encoded()
        }
        let password = Passphrase(f.password)
        let cases: [(String, [UInt8], KeystoreError.Code)] = [
            ("not JSON", Array("{".utf8), .malformedFile),
            ("version 4", changed { r, _, _ in r["version"] = 4 }, .unsupportedFormat),
            ("another coin", changed { r, _, _ in r["coinType"] = "eth" }, .unsupportedFormat),
            (
                "upper-case address", changed { r, _, _ in r["address"] = .string(f.address.uppercased()) },
                .malformedFile
            ),
            ("cbc cipher", changed { _, c, _ in c["cipher"] = "aes-128-cbc" }, .unsupportedFormat),
            ("short IV", changed { _, c, _ in c["cipherparams"] = ["iv": "00"] }, .malformedFile),
            ("short ciphertext", changed { _, c, _ in c["ciphertext"] = "00" }, .malformedFile),
            ("unknown kdf", changed { _, c, _ in c["kdf"] = "argon2" }, .unsupportedFormat),
            ("scrypt N = 2^21", changed { _, _, p in p["n"] = .integer(1 << 21) }, .invalidScryptParameters),
            ("scrypt N not a power of two", changed { _, _, p in p["n"] = 1000 }, .invalidScryptParameters),
            ("scrypt p = 64", changed { _, _, p in p["p"] = 64 }, .invalidScryptParameters),
            ("dklen 64", changed { _, _, p in p["dklen"] = 64 }, .unsupportedFormat),
        ]
        for (what, bytes, code) in cases {
            #expect(throws: KeystoreError(code, "")) { try IconKeystoreFile.parse(bytes) }
            _ = what
        }
        // Parsed, then refused when decrypting.
        #expect(throws: KeystoreError(.decryptFailed, "")) {
            try IconKeystoreFile.parse(try #require(f.files["scrypt"])).decrypt(password: Passphrase("wrong"))
        }
        let mac = changed { _, c, _ in c["mac"] = .string(String(repeating: "0", count: 64)) }
        #expect(throws: KeystoreError(.decryptFailed, "")) {
            try IconKeystoreFile.parse(mac).decrypt(password: password)
        }
        let other = changed { r, _, _ in r["address"] = "hx7d3d4c743bb82b927ea8a0551a3b9288e722ac84" }
        #expect(throws: KeystoreError(.keyMismatch, "")) {
            try IconKeystoreFile.parse(other).decrypt(password: password)
        }
        let pair = try IconKeyPair(secretKey: SecretBytes(f.secretKey))
        #expect(throws: KeystoreError(.passwordRequired, "")) {
            try IconKeystoreFile.encrypt(pair, password: Passphrase(""))
        }
    }

    @Test func accountStoreKeepsIconAccountsBesideThePolkadotOnes() throws {
        let f = try fixture()
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("sigil-icon-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: root) }
        let store = AccountStore(directory: try DataDirectory.open(root))
        let imported = try store.importIconFile(
            try #require(f.files["pbkdf2"]), password: Passphrase(f.password), name: "k1")
        #expect(imported.imported && imported.account.address == f.address && imported.account.name == "k1")
        #expect(
            try store.importIconFile(try #require(f.files["scrypt"]), password: Passphrase(f.password), name: nil)
                .imported == false)
        let pair = try IconKeyPair(
            secretKey: SecretBytes(
                try Hex.decode("7271bcada70fda2890708655a249856222daa6a1df581478c9660b2012957245", prefix: .forbidden)))
        try store.addIcon(pair, name: "k2", password: Passphrase("pw2"))
        #expect(throws: KeystoreError(.accountExists, "")) {
            try store.addIcon(pair, name: nil, password: Passphrase("pw2"))
        }
        #expect(try store.listIcon().accounts.map(\.address).sorted() == [pair.address, f.address].sorted())
        #expect(try store.list().accounts.isEmpty)  // the polkadot-js list does not see hx files
        #expect(try store.findIcon("k2").address == pair.address)
        // Export: decrypts with the account's password, re-encrypts, loads again.
        let exported = try store.exportIcon(f.address, password: Passphrase(f.password))
        let file = try IconKeystoreFile.parse(exported)
        #expect(file.sigilMeta.isEmpty)
        #expect(try file.decrypt(password: Passphrase(f.password)).address == f.address)
        #expect(throws: KeystoreError(.decryptFailed, "")) { try store.exportIcon("k2", password: Passphrase("nope")) }
        // Unlocking: only the accounts that open with the password.
        let keyring = try store.unlockAllIcon(password: Passphrase("pw2"))
        #expect(keyring.unlockedAccounts.map(\.address) == [pair.address])
        #expect(keyring.accounts.count == 2)
        #expect(try store.unlockAll(password: Passphrase("pw2")).icon.unlockedAccounts.count == 1)
        try store.removeIcon("k2")
        #expect(try store.listIcon().accounts.map(\.address) == [f.address])
    }

    @Test func devAccountIsTheDevPhraseAtTheIconPathAndLabelled() throws {
        let env = try DevAccounts.prepare(dataDirectory: nil)
        defer { env.removeIfTemporary() }
        let pair = try DevAccounts.iconKeyPair()
        let expected = try IconKeyPair(mnemonic: Mnemonic(phrase: SecretURI.devPhrase), index: 0)
        #expect(pair.address == expected.address)
        let account = try #require(env.keyring.icon.unlockedAccounts.first)
        #expect(account.address == pair.address && account.isTesting && account.name == DevAccounts.iconName)
        #expect(DevAccounts.iconName.contains("public test seed"))
    }
}
