import Primitives
import Testing

@testable import SigningKeys

/// Malformed, truncated, over-long and wrong-variant inputs to every parser of the module.
@Suite struct ParserNegativeTests {

    @Test func junctionNumbersFollowSpCoreAtTheU64Boundary() throws {
        let max = try DeriveJunction(code: "18446744073709551615", hard: true)
        #expect(max.chainCode == [UInt8](repeating: 0xff, count: 8) + [UInt8](repeating: 0, count: 24))
        #expect(throws: KeyError(.ambiguousURI, "")) { try DeriveJunction(code: "18446744073709551616", hard: true) }
        #expect(throws: KeyError(.ambiguousURI, "")) { try DeriveJunction(code: "+1", hard: false) }
        #expect(throws: KeyError(.ambiguousURI, "")) { try DeriveJunction(code: "0x", hard: true) }
        #expect(throws: KeyError(.ambiguousURI, "")) { try DeriveJunction(code: "0xabCD", hard: true) }
        #expect(throws: KeyError(.invalidFormat, "")) { try DeriveJunction(code: "", hard: true) }
        // Not hex for polkadot-js either (odd length, non-hex digit): a string in both.
        let odd = try DeriveJunction(code: "0xabc", hard: true)
        #expect(odd.chainCode.prefix(6) == [0x14, 0x30, 0x78, 0x61, 0x62, 0x63])
        _ = try DeriveJunction(code: "0xzz", hard: true)
        #expect(throws: KeyError(.badLength, "")) { try DeriveJunction(chainCode: [1, 2], hard: true) }
    }

    @Test func longJunctionsAreHashedWithTheirCompactPrefix() throws {
        // docs/reference/crypto.md §3.3: 40 digits is a string (≥ 2^64) → but refused as ambiguous; a
        // 64-letter code has a two-byte compact prefix and is hashed.
        let code = String(repeating: "a", count: 64)
        let j = try DeriveJunction(code: code, hard: true)
        #expect(j.chainCode == Blake2b.hash256([0x01, 0x01] + Array(code.utf8)))
        let huge = try DeriveJunction(code: String(repeating: "é", count: 10_000), hard: false)
        #expect(huge.chainCode.count == 32)
    }

    @Test(arguments: [
        "bottom drive obey lake curtain smoke basket hold race lonely fit walk walk",  // 13 words
        "bottom drive obey lake curtain smoke basket hold race lonely fit",  // truncated
        "bottom drive obey lake curtain smoke basket hold race lonely fit walk\t",
        "bottom-drive obey lake curtain smoke basket hold race lonely fit walk",
    ])
    func malformedPhrasesAreRejected(uri: String) {
        #expect(throws: KeyError.self) { try SecretURI(uri) }
    }

    @Test func overlongURIsAreHandledWithoutTrapping() throws {
        let manyJunctions = String(repeating: "//x", count: 2000)
        let uri = try SecretURI(manyJunctions)
        #expect(uri.junctions.count == 2000)
        #expect(throws: KeyError.self) { try SecretURI(String(repeating: "abandon ", count: 5000)) }
        #expect(throws: KeyError(.invalidSeed, "")) { try SecretURI("0x" + String(repeating: "0", count: 10_000)) }
        let longPassword = try SecretURI("//a///" + String(repeating: "p", count: 100_000))
        #expect(longPassword.password?.count == 100_000)
    }

    @Test func mnemonicEntropyAndWordCountsAreChecked() {
        #expect(throws: KeyError(.badLength, "")) {
            try Mnemonic(entropy: SecretBytes([UInt8](repeating: 0, count: 17)))
        }
        #expect(throws: KeyError(.invalidInput, "")) { try Mnemonic.generate(wordCount: 13) }
        #expect(throws: KeyError(.invalidPhrase, "")) { try Mnemonic(phrase: "") }
    }

    @Test func keyConstructorsRejectWrongLengthsAndMismatches() throws {
        #expect(throws: KeyError(.badLength, "")) { try Sr25519KeyPair(seed: [UInt8](repeating: 1, count: 31)) }
        #expect(throws: KeyError(.badLength, "")) { try Ed25519KeyPair(seed: [UInt8](repeating: 1, count: 33)) }
        #expect(throws: KeyError(.badLength, "")) { try EcdsaKeyPair(seed: [UInt8]()) }
        // ed25519 64-byte secret whose public half belongs to another seed.
        let a = try Ed25519KeyPair(seed: [UInt8](repeating: 1, count: 32))
        let b = try Ed25519KeyPair(seed: [UInt8](repeating: 2, count: 32))
        let mixed = a.libsodiumSecretKey.unsafeExposedBytes().prefix(32) + b.publicKey
        #expect(throws: KeyError(.invalidSeed, "")) { try Ed25519KeyPair(secretKey64: SecretBytes(mixed)) }
        #expect(throws: KeyError(.badLength, "")) {
            try KeyScheme.ecdsa.accountId(forPublicKey: [UInt8](repeating: 2, count: 32))
        }
        #expect(throws: KeyError(.invalidPublicKey, "")) {
            try KeyScheme.ethereum.accountId(forPublicKey: [0x05] + [UInt8](repeating: 2, count: 32))
        }
        #expect(throws: KeyError(.badLength, "")) { try a.deriveHard(chainCode: [1]) }
    }

    @Test(arguments: KeyScheme.allCases)
    func verifiersRejectGarbageWithoutTrapping(scheme: KeyScheme) {
        let inputs: [[UInt8]] = [
            [], [0], [UInt8](repeating: 0xff, count: 64), [UInt8](repeating: 0, count: 65),
            [UInt8](repeating: 0x80, count: 200),
        ]
        for sig in inputs {
            for signer in inputs {
                #expect(!scheme.verify(signature: sig, message: [1, 2, 3], signer: signer))
            }
        }
    }
}
