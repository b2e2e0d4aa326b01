import Foundation
import Primitives
import Testing

@testable import Keystore

@Suite struct KeyringCipherTests {
    @Test func theVectorFileLoads() {
        #expect(KeystoreVector.all.count >= 16)
        #expect(KeystoreVector.encryptedValid.count >= 9)
    }

    @Test(arguments: KeystoreVector.encryptedValid)
    func everyEncryptedExportDecryptsWithParametersSaltAndKeyReadFromTheFile(_ v: KeystoreVector) throws {
        let file = try KeyringJSON.parse(v.json)
        let parts = try KeyringCipher.parts(of: try file.encodedBytes(), usesScrypt: true)
        #expect(parts.parameters == v.scrypt, "\(v.id)")
        #expect(parts.salt == v.salt, "\(v.id)")
        #expect(Array(parts.nonce) == v.nonce, "\(v.id)")
        let key = try KeyringCipher.deriveKey(
            password: Passphrase(try #require(v.password)), salt: parts.salt, parameters: parts.parameters)
        #expect(key.unsafeExposedBytes() == v.scryptKey, "\(v.id)")
        let plain = try Sodium.secretboxOpen(parts.box, nonce: parts.nonce, key: key)
        #expect(plain.unsafeExposedBytes() == v.decryptedPkcs8, "\(v.id)")
    }

    @Test(arguments: KeystoreVector.encryptedValid.filter { $0.id.hasPrefix("deterministic") })
    func reEncryptingWithTheVectorSaltAndNonceReproducesEncodedExactly(_ v: KeystoreVector) throws {
        let file = try KeyringJSON.parse(v.json)
        let encoded = try KeyringCipher.encrypt(
            SecretBytes(try #require(v.decryptedPkcs8)), password: Passphrase(try #require(v.password)),
            parameters: try #require(v.scrypt), salt: v.salt, nonce: v.nonce)
        #expect(Data(encoded).base64EncodedString() == file.encoded)
    }

    @Test(arguments: KeystoreVector.failing)
    func failingVectorsGiveTheExpectedError(_ v: KeystoreVector) throws {
        let file = try KeyringJSON.parse(v.json)
        let expected: KeystoreError.Code =
            switch v.expectError {
            case "InvalidScryptParams": .invalidScryptParameters
            default: .decryptFailed
            }
        #expect(throws: KeystoreError(expected, "")) {
            try KeyringCipher.decrypt(
                try file.encodedBytes(), password: Passphrase(v.password ?? ""), usesScrypt: file.usesScrypt)
        }
    }

    @Test func encryptThenDecryptRoundTripsWithFreshSaltAndNonce() throws {
        let plain = SecretBytes((0..<117).map { UInt8($0) })
        let password = Passphrase("correct horse")
        let a = try KeyringCipher.encrypt(plain, password: password, parameters: .interoperable)
        let b = try KeyringCipher.encrypt(plain, password: password, parameters: .interoperable)
        #expect(a.count == 44 + 24 + 16 + 117)
        #expect(a != b, "salt and nonce must be random")
        #expect(Array(a[32..<44]) == [0, 0x80, 0, 0, 1, 0, 0, 0, 8, 0, 0, 0], "N, p, r little-endian in that order")
        #expect(
            try KeyringCipher.decrypt(a, password: password, usesScrypt: true).unsafeExposedBytes()
                == plain.unsafeExposedBytes())
    }

    @Test func anEmptyPasswordIsRefusedForEncryption() {
        #expect(throws: KeystoreError(.passwordRequired, "")) {
            try KeyringCipher.encrypt(SecretBytes(zeros: 4), password: Passphrase(""), parameters: .interoperable)
        }
    }

    @Test(arguments: [0, 10, 43, 44, 67, 68, 83])
    func truncatedBlobsAreMalformedNotCrashes(_ length: Int) throws {
        let v = try #require(KeystoreVector.all.first { $0.id == "subxt-real-export-sr25519-alice" })
        let bytes = try KeyringJSON.parse(v.json).encodedBytes()
        #expect(throws: KeystoreError(.malformedFile, "")) {
            try KeyringCipher.decrypt(Array(bytes.prefix(length)), password: Passphrase("whoisalice"), usesScrypt: true)
        }
    }

    @Test func aTruncatedCiphertextFailsAuthentication() throws {
        let v = try #require(KeystoreVector.all.first { $0.id == "subxt-real-export-sr25519-alice" })
        let bytes = try KeyringJSON.parse(v.json).encodedBytes()
        #expect(throws: KeystoreError(.decryptFailed, "")) {
            try KeyringCipher.decrypt(Array(bytes.dropLast()), password: Passphrase("whoisalice"), usesScrypt: true)
        }
    }

    @Test(arguments: [0, 33, 50, 100, 200])
    func flippingAnyBitOfSaltNonceOrCiphertextFailsDecryption(_ offset: Int) throws {
        let v = try #require(KeystoreVector.all.first { $0.id == "subxt-real-export-sr25519-alice" })
        var bytes = try KeyringJSON.parse(v.json).encodedBytes()
        bytes[offset] ^= 0x01
        let expected: KeystoreError.Code = (32..<44).contains(offset) ? .invalidScryptParameters : .decryptFailed
        #expect(throws: KeystoreError(expected, "")) {
            try KeyringCipher.decrypt(bytes, password: Passphrase("whoisalice"), usesScrypt: true)
        }
    }

    @Test(arguments: [
        ScryptParameters(n: 1 << 14, p: 1, r: 8), ScryptParameters(n: 1 << 20, p: 1, r: 8),
        ScryptParameters(n: 1 << 13, p: 10, r: 8), ScryptParameters(n: 1 << 15, p: 1, r: 16),
        ScryptParameters(n: 0, p: 0, r: 0), ScryptParameters(n: .max, p: .max, r: .max),
    ])
    func parametersOutsideTheAllowListAreRejectedBeforeDeriving(_ params: ScryptParameters) {
        #expect(throws: KeystoreError(.invalidScryptParameters, "")) { try params.validate() }
    }

    @Test func preScryptFilesUseThePasswordPaddedToThirtyTwoBytes() throws {
        let key = try KeyringCipher.deriveKey(password: Passphrase("abc"), salt: nil, parameters: nil)
        #expect(key.unsafeExposedBytes() == Array("abc".utf8) + [UInt8](repeating: 0, count: 29))
        let long = try KeyringCipher.deriveKey(
            password: Passphrase(String(repeating: "x", count: 40)), salt: nil, parameters: nil)
        #expect(long.unsafeExposedBytes() == [UInt8](repeating: UInt8(ascii: "x"), count: 32))
        // A nonce ‖ box blob made with that key decrypts.
        let nonce = [UInt8](repeating: 7, count: 24)
        let box = try Sodium.secretbox(SecretBytes([1, 2, 3]), nonce: nonce, key: key)
        #expect(
            try KeyringCipher.decrypt(nonce + box, password: Passphrase("abc"), usesScrypt: false).unsafeExposedBytes()
                == [1, 2, 3])
    }

    @Test func secretsAreRedactedInDescriptions() {
        let p = Passphrase("hunter2")
        #expect(!"\(p)".contains("hunter2"))
        #expect(!String(reflecting: p).contains("hunter2"))
        let s = SecretBytes(Array("hunter2".utf8))
        #expect(!"\(s)".contains("104"))
    }
}
