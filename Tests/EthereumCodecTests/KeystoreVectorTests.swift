import Primitives
import SigningKeys
import Testing

@testable import Keystore

/// Keystore v3 files (docs/reference/ethereum.md §5): the Web3 Secret Storage vectors, eth-keyfile's
/// files, the broken ethereum.org scrypt vector; and the ICON files still read through the shared code.
@Suite struct KeystoreVectorTests {
    static func text(_ v: JSONValue) throws -> [UInt8] { try #require(v["json"]).encoded() }

    @Test(arguments: Vectors.ids(kind: "keystore_v3"))
    func vector(_ id: String) throws {
        let v = try Vectors.vector(id)
        let password = Passphrase(try #require(v["password"]?.stringValue))
        let file = try EthereumKeystoreFile.parse(try Self.text(v))
        if v["expect_error"] != nil {
            #expect(throws: KeystoreError(.decryptFailed, "")) { try file.decrypt(password: password) }
            return
        }
        let derived = try KeystoreV3Crypto.deriveKey(password, kdf: file.crypto.kdf, salt: file.crypto.salt)
        #expect(derived.unsafeExposedBytes() == (try Vectors.hex(v["derived_key"])), "\(id)")
        let pair = try file.decrypt(password: password)
        #expect(pair.seed?.unsafeExposedBytes() == (try Vectors.hex(v["private_key"])))
        #expect(pair.address == v["address"]?.stringValue)
        let wrong = Passphrase(try #require(v["wrong_password"]?["password"]?.stringValue))
        #expect(throws: KeystoreError(.decryptFailed, "")) { try file.decrypt(password: wrong) }
        // Written back and read again: the same file.
        #expect(try EthereumKeystoreFile.parse(file.json.encoded()) == file)
    }

    @Test(arguments: [EthereumKeystoreFile.KDF.scrypt(n: 1 << 10, r: 8, p: 1), .pbkdf2(iterations: 1000)])
    func encryptThenDecrypt(_ kdf: EthereumKeystoreFile.KDF) throws {
        let pair = try EthereumKeyPair.devAccount(index: 2)
        let file = try EthereumKeystoreFile.encrypt(pair, password: Passphrase("pw"), kdf: kdf)
        let text = file.json.encoded()
        #expect(
            !String(decoding: text, as: UTF8.self).contains(
                Hex.encode(try #require(pair.seed).unsafeExposedBytes(), prefix: false)))
        let back = try EthereumKeystoreFile.parse(text).decrypt(password: Passphrase("pw"))
        #expect(back.accountId == pair.accountId)
        #expect(throws: KeystoreError(.passwordRequired, "")) {
            try EthereumKeystoreFile.encrypt(pair, password: Passphrase(""), kdf: kdf)
        }
    }

    @Test func addressMismatchAndAlterationAreRefused() throws {
        let v = try Vectors.vector("keystore-acct0-pbkdf2-fast")
        var file = try EthereumKeystoreFile.parse(try Self.text(v))
        file.address = try EthereumKeyPair.devAccount(index: 1).accountId
        #expect(throws: KeystoreError(.keyMismatch, "")) { try file.decrypt(password: Passphrase("testpassword")) }
        var altered = try EthereumKeystoreFile.parse(try Self.text(v))
        altered.crypto.ciphertext[0] ^= 1
        #expect(throws: KeystoreError(.decryptFailed, "")) { try altered.decrypt(password: Passphrase("testpassword")) }
    }

    static let badFiles: [(String, KeystoreError.Code)] = [
        (#"{"version":4,"crypto":{}}"#, .unsupportedFormat),
        (#"{"version":3,"address":"12","crypto":{}}"#, .malformedFile),
        (#"{"version":3}"#, .malformedFile),
        (#"{"version":3,"crypto":{"cipher":"aes-128-cbc"}}"#, .unsupportedFormat),
        (
            #"{"version":3,"crypto":{"cipher":"aes-128-ctr","cipherparams":{"iv":"00"},"ciphertext":"","mac":"","kdf":"scrypt","kdfparams":{}}}"#,
            .malformedFile
        ),
        (
            #"{"version":3,"crypto":{"cipher":"aes-128-ctr","cipherparams":{"iv":"000102030405060708090a0b0c0d0e0f"},"ciphertext":"0000000000000000000000000000000000000000000000000000000000000000","mac":"0000000000000000000000000000000000000000000000000000000000000000","kdf":"scrypt","kdfparams":{"dklen":32,"n":1048576,"r":8,"p":1,"salt":"00"}}}"#,
            .invalidScryptParameters
        ),
        (
            #"{"version":3,"crypto":{"cipher":"aes-128-ctr","cipherparams":{"iv":"000102030405060708090a0b0c0d0e0f"},"ciphertext":"0000000000000000000000000000000000000000000000000000000000000000","mac":"0000000000000000000000000000000000000000000000000000000000000000","kdf":"pbkdf2","kdfparams":{"dklen":32,"c":10,"prf":"hmac-sha512","salt":"00"}}}"#,
            .unsupportedFormat
        ),
    ]

    @Test(arguments: KeystoreVectorTests.badFiles.indices)
    func badFilesAreRefused(_ i: Int) {
        let (text, code) = KeystoreVectorTests.badFiles[i]
        #expect(throws: KeystoreError(code, "")) { try EthereumKeystoreFile.parse(Array(text.utf8)) }
    }

    /// ICON files go through the same crypto object: written, read, decrypted.
    @Test func iconFilesStillRoundTrip() throws {
        let pair = try IconKeyPair(secretKey: SecretBytes([UInt8](repeating: 7, count: 32)))
        for kdf in [IconKeystoreFile.KDF.scrypt(n: 1 << 10, r: 8, p: 1), .pbkdf2(iterations: 1000)] {
            let file = try IconKeystoreFile.encrypt(pair, password: Passphrase("pw"), kdf: kdf)
            let back = try IconKeystoreFile.parse(file.json(includeSigilMeta: false).encoded())
            #expect(back == file)
            #expect(try back.decrypt(password: Passphrase("pw")).address == pair.address)
        }
    }
}
