import Primitives
import Testing

@testable import SigningKeys

@Suite struct KeystoreSecretTests {
    @Test(
        arguments: Vectors.ids("keys.json") {
            $0["kind"] as? String == "suri" && $0["secret_key"] != nil && $0["expect_error"] == nil
        })
    func polkadotJsSecretLayoutsLoadAndRoundTrip(id: String) throws {
        let v = try Vectors.entry("keys.json", id)
        let scheme = try #require(KeyScheme(rawValue: try v.string("scheme")))
        let secret = SecretBytes(try v.hex("secret_key"))
        let pair = try KeyPair(keystoreSecret: secret, scheme: scheme, publicKey: try v.hex("public_key"))
        #expect(pair.publicKey == (try v.hex("public_key")))
        #expect(pair.keystoreSecret == secret)
        // A signature made by the loaded pair verifies under the stored public key.
        let sig = try pair.sign([1, 2, 3])
        #expect(scheme.verify(signature: sig, message: [1, 2, 3], signer: try v.hex("public_key")))
    }

    @Test func aMismatchedStoredPublicKeyIsRejected() throws {
        let alice = try KeyPair(uri: "//Alice", scheme: .sr25519)
        let bob = try KeyPair(uri: "//Bob", scheme: .sr25519)
        let secret = try #require(alice.keystoreSecret)
        #expect(throws: KeyError(.invalidSeed, "")) {
            try KeyPair(keystoreSecret: secret, scheme: .sr25519, publicKey: bob.publicKey)
        }
        #expect(throws: KeyError(.badLength, "")) {
            try KeyPair(keystoreSecret: SecretBytes([UInt8](repeating: 1, count: 32)), scheme: .sr25519)
        }
    }
}
