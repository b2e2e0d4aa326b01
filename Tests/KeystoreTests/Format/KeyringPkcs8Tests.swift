import Primitives
import Testing

@testable import Keystore

@Suite struct KeyringPkcs8Tests {
    @Test(arguments: KeystoreVector.valid)
    func everyVectorPlaintextSplitsIntoTheExpectedSecretAndPublicKey(_ v: KeystoreVector) throws {
        let plain = try #require(v.decryptedPkcs8)
        let publicLength = v.keyType == "ecdsa" ? 33 : 32
        let parsed = try KeyringPkcs8.decode(SecretBytes(plain), publicKeyLength: publicLength)
        #expect(parsed.secret.unsafeExposedBytes() == v.secretKey, "\(v.id)")
        #expect(parsed.publicKey == v.publicKey, "\(v.id)")
        let rebuilt = KeyringPkcs8.encode(secret: parsed.secret, publicKey: parsed.publicKey)
        #expect(rebuilt.unsafeExposedBytes() == plain, "\(v.id)")
    }

    @Test func generationOneAndTwoSeedLayoutIsAccepted() throws {
        let seed = [UInt8](repeating: 9, count: 32)
        let pub = [UInt8](repeating: 3, count: 32)
        let plain = KeyringPkcs8.header + seed + KeyringPkcs8.divider + pub
        let parsed = try KeyringPkcs8.decode(SecretBytes(plain), publicKeyLength: 32)
        #expect(parsed.secret.unsafeExposedBytes() == seed)
        #expect(parsed.publicKey == pub)
    }

    static let good: [UInt8] =
        KeyringPkcs8.header + [UInt8](repeating: 1, count: 64) + KeyringPkcs8.divider + [UInt8](repeating: 2, count: 32)

    @Test(
        arguments: [
            ("empty", [UInt8]()),
            ("header only", KeyringPkcs8.header),
            ("truncated by one", Array(good.dropLast())),
            ("trailing byte", good + [0]),
            ("wrong header", [0x31] + Array(good.dropFirst())),
            (
                "divider moved",
                KeyringPkcs8.header + [UInt8](repeating: 1, count: 63) + KeyringPkcs8.divider
                    + [UInt8](repeating: 2, count: 33)
            ),
            ("divider corrupted", Array(good[0..<80]) + [0xa1, 0x23, 0x03, 0x21, 0x01] + Array(good[85...])),
            ("oversized", [UInt8](repeating: 0x30, count: 4096)),
        ] as [(String, [UInt8])])
    func malformedPlaintextsAreRejectedWithAnOffset(_ label: String, _ bytes: [UInt8]) {
        #expect(throws: KeystoreError(.malformedFile, ""), "\(label)") {
            try KeyringPkcs8.decode(SecretBytes(bytes), publicKeyLength: 32)
        }
    }

    @Test func anEcdsaLengthPlaintextIsNotAcceptedAsSr25519() {
        let ecdsa =
            KeyringPkcs8.header + [UInt8](repeating: 1, count: 32) + KeyringPkcs8.divider
            + [UInt8](repeating: 2, count: 33)
        #expect(throws: KeystoreError(.malformedFile, "")) {
            try KeyringPkcs8.decode(SecretBytes(ecdsa), publicKeyLength: 32)
        }
        #expect(throws: Never.self) { try KeyringPkcs8.decode(SecretBytes(ecdsa), publicKeyLength: 33) }
    }
}
