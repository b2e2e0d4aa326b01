import Primitives
import Testing

@testable import SigningKeys

@Suite struct KeyDerivationTests {
    static func code(_ name: String) -> KeyError.Code? {
        switch name {
        case "InvalidPhrase": .invalidPhrase
        case "InvalidFormat": .invalidFormat
        case "SoftKeyInPath": .softKeyInPath
        case "InvalidSeed": .invalidSeed
        default: nil
        }
    }

    static func scheme(_ v: [String: Any]) throws -> KeyScheme {
        try #require(KeyScheme(rawValue: try v.string("scheme")))
    }

    @Test(arguments: Vectors.ids("keys.json") { $0["kind"] as? String == "mnemonic" && $0["expect_error"] == nil })
    func mnemonicGivesEntropySeedAndMiniSecret(id: String) throws {
        let v = try Vectors.entry("keys.json", id)
        let m = try Mnemonic(phrase: try v.string("phrase"))
        #expect(m.entropy.unsafeExposedBytes() == (try v.hex("entropy")))
        let password = try v.string("password")
        #expect(try m.seed64(password: password).unsafeExposedBytes() == (try v.hex("seed64")))
        #expect(try m.miniSecret(password: password).unsafeExposedBytes() == (try v.hex("mini_secret")))
        // Entropy → phrase reproduces the words.
        #expect(try Mnemonic(entropy: m.entropy).exposedPhrase() == (try v.string("phrase")))
    }

    @Test(arguments: Vectors.ids("keys.json") { $0["kind"] as? String == "mnemonic" && $0["expect_error"] != nil })
    func invalidMnemonicsAreRejected(id: String) throws {
        let v = try Vectors.entry("keys.json", id)
        #expect(throws: KeyError(.invalidPhrase, "")) { try Mnemonic(phrase: try v.string("phrase")) }
    }

    @Test(arguments: Vectors.ids("keys.json") { $0["kind"] as? String == "suri" && $0["expect_error"] == nil })
    func secretURIGivesThePublicKeyAccountAndAddresses(id: String) throws {
        let v = try Vectors.entry("keys.json", id)
        let scheme = try Self.scheme(v)
        var uris = [try v.string("suri")]
        if let short = v["suri_short"] as? String { uris.append(short) }
        for uri in uris {
            let pair = try KeyPair(uri: uri, scheme: scheme)
            #expect(pair.publicKey == (try v.hex("public_key")), "\(uri)")
            #expect(pair.accountId == (try v.hex("account_id")))
            for (prefix, address) in try v.dict("ss58") {
                let p = try #require(UInt16(prefix))
                #expect(try SS58.encode(pair.accountId, prefix: p) == address as? String)
            }
            switch pair {
            case .sr25519(let p):
                if v["secret_key"] != nil {
                    #expect(p.ed25519FormSecretKey.unsafeExposedBytes() == (try v.hex("secret_key")))
                    #expect(p.schnorrkelSecretKey.unsafeExposedBytes() == (try v.hex("secret_key_schnorrkel")))
                    #expect(p.seed?.unsafeExposedBytes() == (try v.hex("mini_secret")))
                } else {
                    #expect(p.seed == nil)  // soft junction: nonce random, seed dropped
                }
            case .ed25519(let p):
                #expect(p.seed?.unsafeExposedBytes() == (try v.hex("seed")))
                #expect(p.libsodiumSecretKey.unsafeExposedBytes() == (try v.hex("secret_key")))
            case .ecdsa(let p):
                #expect(p.seed?.unsafeExposedBytes() == (try v.hex("secret_key")))
            case .ethereum: Issue.record("no ethereum vectors expected")
            }
        }
    }

    @Test(arguments: Vectors.ids("keys.json") { $0["kind"] as? String == "suri" && $0["expect_error"] != nil })
    func invalidSecretURIsAreRejected(id: String) throws {
        let v = try Vectors.entry("keys.json", id)
        let expected = try #require(Self.code(try v.string("expect_error")))
        #expect(throws: KeyError(expected, "")) { try KeyPair(uri: try v.string("suri"), scheme: try Self.scheme(v)) }
    }

    @Test(
        arguments: Vectors.ids("keys.json") {
            $0["kind"] as? String == "suri" && ($0["path"] as? [Any])?.isEmpty == false
        })
    func junctionChainCodesMatch(id: String) throws {
        let v = try Vectors.entry("keys.json", id)
        let uri = try SecretURI(try v.string("suri"))
        let path = try #require(v["path"] as? [[String: Any]])
        #expect(uri.junctions.count == path.count)
        for (j, p) in zip(uri.junctions, path) {
            #expect(j.chainCode == (try p.hex("chain_code")))
            #expect(j.isHard == (try p.bool("hard")))
        }
    }

    @Test(arguments: Vectors.ids("keys.json") { $0["kind"] as? String == "seed" && $0["expect_error"] == nil })
    func rawSeedsGiveTheVectorKeys(id: String) throws {
        let v = try Vectors.entry("keys.json", id)
        let pair = try KeyPair(seed: SecretBytes(try v.hex("seed")), scheme: try Self.scheme(v))
        #expect(pair.publicKey == (try v.hex("public_key")))
        #expect(pair.accountId == (try v.hex("account_id")))
        #expect(try SS58.encode(pair.accountId, prefix: 42) == (try v.dict("ss58"))["42"] as? String)
        switch pair {
        case .sr25519(let p):
            #expect(p.ed25519FormSecretKey.unsafeExposedBytes() == (try v.hex("secret_key")))
            #expect(p.schnorrkelSecretKey.unsafeExposedBytes() == (try v.hex("secret_key_schnorrkel")))
            // Both 64-byte layouts load back to the same pair.
            let a = try Sr25519KeyPair(secretKey64: try v.hex("secret_key"), layout: .ed25519)
            let b = try Sr25519KeyPair(secretKey64: try v.hex("secret_key_schnorrkel"), layout: .schnorrkel)
            #expect(a.publicKey == p.publicKey && b.publicKey == p.publicKey)
        case .ed25519(let p):
            #expect(p.libsodiumSecretKey.unsafeExposedBytes() == (try v.hex("secret_key")))
            #expect(try Ed25519KeyPair(secretKey64: SecretBytes(try v.hex("secret_key"))).publicKey == p.publicKey)
        case .ecdsa(let p):
            #expect(p.uncompressedPublicKey.dropFirst().elementsEqual(try v.hex("public_key_uncompressed")))
        case .ethereum: Issue.record("no ethereum vectors expected")
        }
    }

    @Test(arguments: Vectors.ids("keys.json") { $0["kind"] as? String == "seed" && $0["expect_error"] != nil })
    func invalidSeedsAreRejected(id: String) throws {
        let v = try Vectors.entry("keys.json", id)
        #expect(throws: KeyError(.invalidSeed, "")) {
            try KeyPair(seed: SecretBytes(try v.hex("seed")), scheme: try Self.scheme(v))
        }
    }

    @Test(arguments: Vectors.ids("keys.json") { $0["kind"] as? String == "hdkd" })
    func rawHardDerivationMatches(id: String) throws {
        let v = try Vectors.entry("keys.json", id)
        let root = try KeyPair(seed: SecretBytes(try v.hex("seed")), scheme: try Self.scheme(v))
        let derived = try root.derive(try DeriveJunction(chainCode: try v.hex("chain_code"), hard: true))
        #expect(derived.publicKey == (try v.hex("public_key")))
        let expectedSeed = try v.hex(v["derived_seed"] != nil ? "derived_seed" : "derived_mini_secret")
        #expect(derived.seed?.unsafeExposedBytes() == expectedSeed)
    }

    @Test func urisWhereSpCoreAndPolkadotJsDisagreeAreRefused() throws {
        let skipped = try #require(Vectors.file("keys.json")["skipped"] as? [[String: Any]])
        #expect(skipped.count >= 5)
        for entry in skipped {
            let uri = try entry.string("suri")
            let id = try entry.string("id")
            #expect(throws: KeyError.self, "\(id)") { try KeyPair(uri: uri, scheme: .sr25519) }
        }
        #expect(throws: KeyError(.ambiguousURI, "")) { try SecretURI("") }
        #expect(throws: KeyError(.ambiguousURI, "")) { try SecretURI("//Alice///\n") }
        #expect(throws: KeyError(.ambiguousURI, "")) { try SecretURI("//Alice////x") }
    }

    @Test func secretURIGrammarEdgeCases() throws {
        #expect(throws: KeyError(.invalidFormat, "")) { try SecretURI("//Alice/") }
        #expect(throws: KeyError(.invalidFormat, "")) { try SecretURI("//") }
        #expect(throws: KeyError(.invalidSeed, "")) { try SecretURI("0x1234") }
        #expect(throws: KeyError(.invalidSeed, "")) { try SecretURI("0x" + String(repeating: "ab", count: 33)) }
        #expect(throws: KeyError(.invalidPhrase, "")) { try SecretURI("Alice") }
        #expect(throws: KeyError(.invalidFormat, "")) { try SecretURI("bottöm drive") }
        // Numbers with leading zeros are numbers in both implementations.
        let a = try SecretURI("//042")
        let b = try SecretURI("//42")
        #expect(a.junctions == b.junctions)
        // Password-only dev URI.
        let p = try KeyPair(uri: "///password", scheme: .sr25519)
        #expect(hex(p.publicKey) == "0xb69355deefa7a8f33e9297f5af22e680f03597a99d4f4b1c44be47e7a2275802")
        // Ethereum: raw seeds only.
        #expect(throws: KeyError(.unsupported, "")) { try KeyPair(uri: "//Alice", scheme: .ethereum) }
    }

    @Test(arguments: [12, 15, 18, 21, 24])
    func generatedMnemonicsValidateAndDiffer(words: Int) throws {
        let a = try Mnemonic.generate(wordCount: words)
        let b = try Mnemonic.generate(wordCount: words)
        #expect(a.wordCount == words)
        #expect(try Mnemonic(phrase: a.exposedPhrase()).entropy == a.entropy)
        #expect(a.entropy != b.entropy)
    }

    @Test func ethereumAddressesFollowKeccak() throws {
        // Private key 1 → the well-known address of the generator point.
        var seed = [UInt8](repeating: 0, count: 32)
        seed[31] = 1
        let pair = try EthereumKeyPair(seed: SecretBytes(seed))
        #expect(EthereumKeyPair.checksumAddress(pair.accountId) == "0x7E5F4552091A69125d5DfCb7b8C2659029395Bdf")
        let sig = try pair.sign(Array("hello".utf8))
        #expect(KeyScheme.ethereum.verify(signature: sig, message: Array("hello".utf8), signer: pair.accountId))
        #expect(!KeyScheme.ethereum.verify(signature: sig, message: Array("hellp".utf8), signer: pair.accountId))
    }
}
