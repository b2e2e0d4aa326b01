import Primitives
import Testing

@testable import SigningKeys

/// No secret (phrase words, seed hex, password, secret key) appears in any description, debug
/// description, reflection dump or error text.
@Suite struct SecretHygieneTests {
    static let phrase = "legal winner thank year wave sausage worth useful legal winner thank yellow"
    static let password = "hunter2-secret-pw"

    func render(_ value: Any) -> [String] {
        var dumped = ""
        dump(value, to: &dumped)
        return [String(describing: value), String(reflecting: value), dumped]
    }

    func assertClean(_ texts: [String], secrets: [String], sourceLocation: SourceLocation = #_sourceLocation) {
        for text in texts {
            for secret in secrets where !secret.isEmpty {
                #expect(
                    !text.lowercased().contains(secret.lowercased()), "leaked in: \(text.prefix(200))",
                    sourceLocation: sourceLocation)
            }
        }
    }

    @Test(arguments: KeyScheme.allCases)
    func keyPairsAndURIsNeverShowSecrets(scheme: KeyScheme) throws {
        let uri =
            scheme == .ethereum
            ? "0x" + String(repeating: "5a", count: 32)
            : Self.phrase + "//hard" + "///" + Self.password
        let parsed = try SecretURI(uri)
        let pair = try KeyPair(uri: parsed, scheme: scheme)
        let seedHex = try #require(pair.seed).withUnsafeBytes { Hex.encode($0, prefix: false) }
        var secrets = ["winner", "sausage", Self.password, seedHex, String(seedHex.prefix(16)), "5a5a5a5a"]
        if case .sr25519(let p) = pair {
            secrets.append(Hex.encode(p.ed25519FormSecretKey.unsafeExposedBytes(), prefix: false))
            secrets.append(String(Hex.encode(p.schnorrkelSecretKey.unsafeExposedBytes(), prefix: false).prefix(16)))
        }
        var texts = render(parsed) + render(pair) + render(pair.pair)
        if let seed = pair.seed { texts += render(seed) }
        if case .mnemonic(let m) = parsed.root { texts += render(m) }
        assertClean(texts, secrets: secrets)
    }

    @Test func errorsAboutSecretInputsNeverEchoThem() {
        let badInputs = [
            "legal winner thank year wave sausage worth useful legal winner thank wrong",  // checksum
            "legal winner thank year wave sausage worth useful legal winner thank zzzzz",  // unknown word
            "legal winner thank year wave sausage",  // word count
            "legal  winner thank year wave sausage worth useful legal winner thank yellow",  // double space
            "0xdeadbeefcafe",  // short seed
            "0x" + String(repeating: "g1", count: 32),  // bad hex seed
            Self.phrase + "//",  // empty junction
            Self.phrase + "///" + "/" + Self.password,  // ambiguous password
            "sécret phrase",
        ]
        for input in badInputs {
            do {
                _ = try KeyPair(uri: input, scheme: .sr25519)
                Issue.record("accepted invalid URI")
            } catch let error as KeyError {
                let secrets = ["winner", "sausage", "zzzzz", "deadbeef", "g1g1", Self.password, "sécret"]
                assertClean([error.description, error.reason, String(reflecting: error)], secrets: secrets)
            } catch {
                Issue.record("unexpected error type")
            }
        }
    }

    @Test func secretBytesCompareInConstantTimeAndRedact() {
        let a = SecretBytes([1, 2, 3, 4])
        let b = SecretBytes([1, 2, 3, 4])
        let c = SecretBytes([1, 2, 3, 5])
        #expect(a == b && a != c && a != SecretBytes([1, 2, 3]))
        #expect(a.description == "SecretBytes(4 bytes, redacted)")
        #expect(ConstantTime.equals([1, 2], [1, 2]) && !ConstantTime.equals([1, 2], [1, 3]))
        var wiped: [UInt8] = [9, 9, 9]
        ConstantTime.wipe(&wiped)
        #expect(wiped == [0, 0, 0])
    }

    @Test func constantTimeEqualityWorksForContiguousAndOtherCollectionsAlike() {
        let bytes: [UInt8] = [7, 7, 7]
        let lazy = bytes.lazy.map { $0 }  // not contiguous: compared through wiped copies
        #expect(ConstantTime.equals(bytes, repeatElement(UInt8(7), count: 3)))
        #expect(ConstantTime.equals(lazy, bytes[...]))
        #expect(!ConstantTime.equals(lazy, [7, 7, 8]))
        #expect(!ConstantTime.equals(lazy, [7, 7]))
        #expect(ConstantTime.equals([UInt8](), EmptyCollection<UInt8>()))
    }
}
