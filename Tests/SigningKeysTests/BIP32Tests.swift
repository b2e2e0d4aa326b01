import Primitives
import Testing

@testable import SigningKeys

/// BIP32 over secp256k1 (docs/reference/icon.md §6) against the official BIP-0032 test vectors 1–3
/// and BIP39 seeds against the Trezor vectors (Resources/bip32.json).
@Suite struct BIP32Tests {
    struct Chain: CustomTestStringConvertible, Sendable {
        let vector: String
        let seed: String
        let path: String
        let xpub: String
        let xprv: String
        var testDescription: String { "\(vector) \(path)" }
    }

    static let chains: [Chain] =
        Vectors.file("bip32.json")["bip32"].flatMap { $0 as? [[String: Any]] }.map {
            $0.flatMap { v in
                (v["chains"] as? [[String: Any]] ?? []).map { c in
                    Chain(
                        vector: v["id"] as? String ?? "", seed: v["seed"] as? String ?? "",
                        path: c["chain"] as? String ?? "",
                        xpub: c["xpub"] as? String ?? "", xprv: c["xprv"] as? String ?? "")
                }
            }
        } ?? []

    @Test func allVectorsLoaded() { #expect(BIP32Tests.chains.count == 14) }

    @Test(arguments: BIP32Tests.chains)
    func officialVector(_ chain: Chain) throws {
        let master = try BIP32ExtendedKey(seed: SecretBytes(Hex.decode(chain.seed, prefix: .forbidden)))
        let key = try master.derive(BIP32Path(chain.path))
        #expect(key.extendedPublicKey == chain.xpub)
        #expect(key.exposedExtendedPrivateKey() == chain.xprv)
        #expect(key.depth == UInt8(try BIP32Path(chain.path).components.count))
    }

    /// Step by step equals the whole path at once.
    @Test func stepwiseEqualsPath() throws {
        let master = try BIP32ExtendedKey(
            seed: SecretBytes(Hex.decode("000102030405060708090a0b0c0d0e0f", prefix: .forbidden)))
        var key = master
        for c in try BIP32Path("m/0'/1/2'/2/1000000000").components { key = try key.child(c) }
        #expect(key.secretKey == (try master.derive(BIP32Path("m/0'/1/2'/2/1000000000"))).secretKey)
        #expect(key.parentFingerprint != [0, 0, 0, 0])
    }

    @Test(arguments: ["TREZOR-0", "TREZOR-80"])
    func bip39Seed(_ id: String) throws {
        let v = try #require(
            (Vectors.file("bip32.json")["bip39"] as? [[String: Any]])?.first { $0["id"] as? String == id })
        let m = try Mnemonic(phrase: v.string("phrase"))
        let seed = try m.bip39Seed(passphrase: v.string("passphrase"))
        #expect(seed.constantTimeEquals(try v.hex("seed")))
        // The substrate-bip39 seed (over the entropy) is a different function.
        #expect(!(try m.seed64(password: v.string("passphrase"))).constantTimeEquals(try v.hex("seed")))
    }

    /// A passphrase is NFKD-normalised: composed and decomposed forms give one seed.
    @Test func passphraseIsNormalised() throws {
        let m = try Mnemonic(
            phrase: "abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about")
        #expect(try m.bip39Seed(passphrase: "\u{e9}") == m.bip39Seed(passphrase: "e\u{301}"))
        #expect(try m.bip39Seed(passphrase: "") != m.bip39Seed(passphrase: "TREZOR"))
    }

    @Test(arguments: [
        ("m", "m"), ("m/0", "m/0"), ("m/44'/74'/0'/0/0", "m/44'/74'/0'/0/0"), ("m/44h/74H/0'/0/7", "m/44'/74'/0'/0/7"),
        ("m/2147483647'", "m/2147483647'"), ("m/2147483647", "m/2147483647"),
    ])
    func pathsParse(_ text: String, _ canonical: String) throws {
        #expect(try BIP32Path(text).description == canonical)
    }

    @Test(arguments: [
        "", "M/0", "m/", "m//0", "m/0/", "/0", "0", "m0", "m/2147483648", "m/2147483648'", "m/99999999999",
        "m/-1", "m/+1", "m/01", "m/0x1", "m/ 1", "m/1 ", " m/1", "m/1''", "m/1'h", "m/a", "m/1/\u{661}", "m\\0",
        "m/1'/", "m/٣",
    ])
    func malformedPathsAreRefused(_ text: String) {
        #expect(throws: KeyError(.invalidDerivationPath, "")) { try BIP32Path(text) }
    }

    @Test func depthIsBounded() throws {
        let path255 = "m" + String(repeating: "/0", count: 255)
        #expect(try BIP32Path(path255).components.count == 255)
        #expect(throws: KeyError(.invalidDerivationPath, "")) { try BIP32Path(path255 + "/0") }
        #expect(throws: KeyError(.invalidDerivationPath, "")) {
            try BIP32Path("m/" + String(repeating: "1", count: 5000))
        }
    }

    @Test func iconPath() throws {
        #expect(try BIP32Path.icon(index: 3).description == "m/44'/74'/0'/0/3")
        #expect(throws: KeyError(.invalidDerivationPath, "")) { try BIP32Path.icon(index: 0x8000_0000) }
    }

    @Test(arguments: [0, 15, 65, 100])
    func seedLengthIsChecked(_ length: Int) {
        #expect(throws: KeyError(.badLength, "")) { try BIP32ExtendedKey(seed: SecretBytes(zeros: length)) }
    }

    @Test func descriptionIsRedacted() throws {
        let key = try BIP32ExtendedKey(
            seed: SecretBytes(Hex.decode("000102030405060708090a0b0c0d0e0f", prefix: .forbidden)))
        let secret = Hex.encode(key.secretKey.unsafeExposedBytes(), prefix: false)
        #expect(!key.description.contains(secret))
        #expect(!String(describing: key).contains(secret.prefix(16)))
        #expect(!String(reflecting: key).contains(secret.prefix(16)))
    }
}
