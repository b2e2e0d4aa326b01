import Primitives
import Testing

@testable import SigningKeys

@Suite struct SignatureTests {
    static func scheme(_ v: [String: Any]) throws -> KeyScheme {
        try #require(KeyScheme(rawValue: try v.string("scheme")))
    }

    static let deterministicIds = Vectors.ids("signatures.json") {
        $0["deterministic"] as? Bool == true && $0["kind"] == nil
    }

    @Test(arguments: deterministicIds)
    func deterministicSignaturesMatchByteForByte(id: String) throws {
        let v = try Vectors.entry("signatures.json", id)
        let scheme = try Self.scheme(v)
        let signer = try v.dict("signer")
        let pair: KeyPair
        if let suri = signer["suri"] as? String {
            pair = try KeyPair(uri: suri, scheme: scheme)
        } else {
            pair = try KeyPair(seed: SecretBytes(try signer.hex("seed")), scheme: scheme)
        }
        #expect(pair.publicKey == (try signer.hex("public_key")))
        let message = try v.hex("message")
        let signature = try pair.sign(message)
        #expect(signature == (try v.hex("signature")))
        #expect(try pair.signMultiSignature(message) == (try v.hex("multisignature")))
        if let digest = v["message_hash"] as? String {
            #expect(Blake2b.hash256(message) == (try Hex.decode(digest, prefix: .optional)))
        }
        #expect(scheme.verify(signature: signature, message: message, signer: pair.publicKey))
        #expect(scheme.verify(signature: signature, message: message, signer: pair.accountId))
    }

    @Test(arguments: Vectors.ids("signatures.json") { $0["scheme"] as? String == "sr25519" && $0["kind"] == nil })
    func sr25519PayloadSignaturesVerify(id: String) throws {
        let v = try Vectors.entry("signatures.json", id)
        let signer = try v.dict("signer")
        #expect(
            Sr25519KeyPair.verify(
                signature: try v.hex("signature"), message: try v.hex("message"),
                publicKey: try signer.hex("public_key")))
        #expect(try v.hex("multisignature").first == 1)
    }

    @Test(arguments: Vectors.ids("signatures.json") { $0["kind"] as? String == "verify" })
    func verificationVectorsGiveTheExpectedVerdict(id: String) throws {
        let v = try Vectors.entry("signatures.json", id)
        let verdict = try Self.scheme(v).verify(
            signature: try v.hex("signature"), message: try v.hex("message"), signer: try v.hex("public_key"))
        #expect(verdict == (try v.bool("expect_valid")))
    }

    @Test(arguments: Vectors.ids("signatures.json") { $0["kind"] as? String == "sign_with_rng" })
    func sr25519WithInjectedRandomnessReproducesTheVector(id: String) throws {
        let v = try Vectors.entry("signatures.json", id)
        let pair = try Sr25519KeyPair(secretKey64: try v.hex("signing_key"), layout: .ed25519)
        #expect(pair.publicKey == (try v.hex("public_key")))
        let rng = try v.hex("rng")
        let message = try v.hex("message")
        let sig = try rng.withUnsafeBytes { r in try message.withUnsafeBytes { try pair.sign($0, random32: r) } }
        #expect(sig == (try v.hex("signature")))
        #expect(Sr25519KeyPair.verify(signature: sig, message: message, publicKey: pair.publicKey))
    }

    @Test(arguments: KeyScheme.allCases)
    func signThenVerifyRoundTripsAndRejectsTampering(scheme: KeyScheme) throws {
        let pair = try KeyPair(seed: SecretBytes.random(count: 32), scheme: scheme)
        for length in [0, 1, 32, 255, 256, 1000] {
            let message = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 31) }
            let sig = try pair.sign(message)
            #expect(sig.count == scheme.signatureLength)
            #expect(scheme.verify(signature: sig, message: message, signer: pair.publicKey))
            var bad = sig
            bad[5] ^= 0x01
            #expect(!scheme.verify(signature: bad, message: message, signer: pair.publicKey))
            #expect(!scheme.verify(signature: sig, message: message + [0], signer: pair.publicKey))
            #expect(!scheme.verify(signature: Array(sig.dropLast()), message: message, signer: pair.publicKey))
            #expect(!scheme.verify(signature: sig + [0], message: message, signer: pair.publicKey))
        }
    }

    @Test func sr25519SignaturesAreRandomizedAndMarked() throws {
        let pair = try Sr25519KeyPair(seed: SecretBytes.random(count: 32))
        let a = try pair.sign([1, 2, 3])
        let b = try pair.sign([1, 2, 3])
        #expect(a != b)
        #expect(a[63] & 0x80 != 0 && b[63] & 0x80 != 0)
    }

    @Test func sr25519RejectsNonCanonicalScalarsAndPoints() throws {
        let pair = try KeyPair(uri: "//Alice", scheme: .sr25519)
        let message = Array("non-canonical".utf8)
        let sig = try pair.sign(message)
        // s + l: same value mod l, non-canonical encoding. Must be rejected (schnorrkel ScalarFormatError).
        var s = Array(sig[32..<64])
        s[31] &= 0x7f
        var carry = 0
        for i in 0..<32 {
            let sum = Int(s[i]) + Int(Ristretto255.order[i]) + carry
            s[i] = UInt8(sum & 0xff)
            carry = sum >> 8
        }
        #expect(carry == 0 && s[31] & 0x80 == 0)
        var high = Array(sig[0..<32]) + s
        high[63] |= 0x80
        #expect(!Sr25519KeyPair.verify(signature: high, message: message, publicKey: pair.publicKey))
        // Public key with bit 255 set (libsodium 1.0.18 alone would accept it).
        var pk = pair.publicKey
        pk[31] |= 0x80
        #expect(!Sr25519KeyPair.verify(signature: sig, message: message, publicKey: pk))
        // The unmodified signature verifies.
        #expect(Sr25519KeyPair.verify(signature: sig, message: message, publicKey: pair.publicKey))
        // Unmarked signature.
        var unmarked = sig
        unmarked[63] &= 0x7f
        #expect(throws: KeyError(.invalidSignature, "")) {
            try Sr25519KeyPair.check(signature: unmarked, message: message, publicKey: pair.publicKey)
        }
        // Identity / garbage public keys.
        #expect(!Sr25519KeyPair.verify(signature: sig, message: message, publicKey: [UInt8](repeating: 0, count: 32)))
        #expect(
            !Sr25519KeyPair.verify(signature: sig, message: message, publicKey: [UInt8](repeating: 0xff, count: 32)))
    }

    @Test func sr25519SecretKeyLayoutsAreValidated() throws {
        #expect(throws: KeyError(.badLength, "")) { try Sr25519KeyPair(secretKey64: [UInt8](repeating: 1, count: 63)) }
        // Scalar ≥ l in the canonical layout.
        #expect(throws: KeyError(.invalidSeed, "")) {
            try Sr25519KeyPair(secretKey64: [UInt8](repeating: 0xff, count: 64), layout: .schnorrkel)
        }
        // ed25519 form must be a multiple of 8.
        var odd = [UInt8](repeating: 0, count: 64)
        odd[0] = 9
        #expect(throws: KeyError(.invalidSeed, "")) { try Sr25519KeyPair(secretKey64: odd, layout: .ed25519) }
        // Zero scalar.
        #expect(throws: KeyError(.invalidSeed, "")) {
            try Sr25519KeyPair(secretKey64: [UInt8](repeating: 0, count: 64))
        }
    }

    @Test func ecdsaAcceptsLegacyRecoveryIdsAndRejectsOthers() throws {
        let pair = try KeyPair(uri: "//Alice", scheme: .ecdsa)
        let message = Array("v".utf8)
        var sig = try pair.sign(message)
        #expect(sig[64] <= 1)
        sig[64] += 27
        #expect(KeyScheme.ecdsa.verify(signature: sig, message: message, signer: pair.publicKey))
        sig[64] = 4
        #expect(!KeyScheme.ecdsa.verify(signature: sig, message: message, signer: pair.publicKey))
        #expect(!KeyScheme.ecdsa.verify(signature: sig, message: message, signer: [1, 2, 3]))
    }
}
