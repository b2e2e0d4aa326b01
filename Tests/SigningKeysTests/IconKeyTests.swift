import Foundation
import Primitives
import Testing

@testable import SigningKeys

/// ICON keys (docs/reference/icon.md §4–§6) against V-ICON-1/2/4 (Resources/icon-keys.json).
@Suite struct IconKeyTests {
    static var keyIds: [String] {
        (Vectors.file("icon-keys.json")["keys"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
    }

    static func entry(_ list: String, _ id: String) throws -> [String: Any] {
        try #require((Vectors.file("icon-keys.json")[list] as? [[String: Any]])?.first { $0["id"] as? String == id })
    }

    @Test func vectorsLoaded() { #expect(IconKeyTests.keyIds.count == 3) }

    @Test(arguments: IconKeyTests.keyIds)
    func address(_ id: String) throws {
        let v = try IconKeyTests.entry("keys", id)
        let key = try IconKeyPair(secretKey: SecretBytes(v.hex("secret")))
        #expect(key.address == (try v.string("address")))
        if let xy = v["publicXY"] as? String {
            #expect(key.publicKeyXY == (try Hex.decode(xy, prefix: .forbidden)))
            #expect(IconKeyPair.addressText(try IconKeyPair.addressBytes(ofPublicKey: key.publicKeyXY)) == key.address)
        }
        #expect(IconKeyPair.addressText(try IconKeyPair.addressBytes(ofPublicKey: key.publicKey)) == key.address)
        #expect(key.description.contains(key.address))
        #expect(!key.description.contains(try v.string("secret").prefix(12)))
    }

    @Test func hashSignature() throws {
        let v = try IconKeyTests.entry("hashSignatures", "V-ICON-2")
        let key = try IconKeyPair(secretKey: SecretBytes(v.hex("secret")))
        let hash = try v.hex("hash")
        #expect(try key.signHashBase64(hash) == v.string("signature"))
        let sig = try IconKeyPair.decodeSignature(base64: v.string("signature"))
        #expect(try IconKeyPair.recoverAddress(signature: sig, hash: hash) == key.address)
        #expect(IconKeyPair.verify(signature: sig, hash: hash, address: key.address))
        var other = hash
        other[0] ^= 1
        #expect(!IconKeyPair.verify(signature: sig, hash: other, address: key.address))
        var bad = sig
        bad[64] = 27
        #expect(throws: KeyError(.invalidSignature, "")) { try IconKeyPair.recoverAddress(signature: bad, hash: hash) }
    }

    @Test(arguments: ["empty", "abc"])
    func sha3(_ id: String) throws {
        let v = try IconKeyTests.entry("sha3", id)
        #expect(SHA3_256.hash(try v.hex("input")) == (try v.hex("digest")))
        #expect(SHA3_256.hash(try v.hex("input")) != Keccak256.hash(try v.hex("input")))
    }

    @Test(arguments: ["", "YV3e", String(repeating: "A", count: 88), String(repeating: "=", count: 88)])
    func malformedSignatureText(_ text: String) {
        #expect(throws: KeyError(.invalidSignature, "")) { try IconKeyPair.decodeSignature(base64: text) }
    }

    @Test func invalidSecretsAreRefused() {
        #expect(throws: KeyError(.invalidSeed, "")) { try IconKeyPair(secretKey: SecretBytes(zeros: 32)) }
        #expect(throws: KeyError(.badLength, "")) { try IconKeyPair(secretKey: SecretBytes(zeros: 31)) }
        #expect(throws: KeyError(.invalidSeed, "")) {
            try IconKeyPair(secretKey: SecretBytes([UInt8](repeating: 0xff, count: 32)))
        }
    }

    /// The mnemonic path is m/44'/74'/0'/0/n over the standard BIP39 seed.
    @Test func mnemonicDerivation() throws {
        let m = try Mnemonic(
            phrase: "abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about")
        let k0 = try IconKeyPair(mnemonic: m, index: 0)
        let viaPath = try IconKeyPair(mnemonic: m, path: BIP32Path("m/44'/74'/0'/0/0"))
        let manual = try IconKeyPair(
            secretKey: BIP32ExtendedKey(seed: m.bip39Seed()).derive(BIP32Path("m/44'/74'/0'/0/0")).secretKey)
        #expect(k0.address == viaPath.address && k0.address == manual.address)
        #expect(try IconKeyPair(mnemonic: m, index: 1).address != k0.address)
        #expect(try IconKeyPair(mnemonic: m, passphrase: "x", index: 0).address != k0.address)
    }
}

/// Mnemonic → ICON address at m/44'/74'/0'/0/n, regression vectors computed with bip-utils and
/// checked with iconsdk (Resources/icon-keys.json "mnemonics").
@Suite struct IconMnemonicVectorTests {
    static var ids: [String] {
        (Vectors.file("icon-keys.json")["mnemonics"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
    }

    @Test func vectorsLoaded() { #expect(IconMnemonicVectorTests.ids.count == 4) }

    @Test(arguments: IconMnemonicVectorTests.ids)
    func address(_ id: String) throws {
        let v = try IconKeyTests.entry("mnemonics", id)
        let key = try IconKeyPair(
            mnemonic: Mnemonic(phrase: v.string("phrase")), passphrase: v.string("passphrase"),
            path: BIP32Path(v.string("path")))
        #expect(key.address == (try v.string("address")))
    }
}
