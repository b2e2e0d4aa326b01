import Foundation
import Primitives
import SigilTesting
import SigningKeys
import Testing

@testable import Keystore

/// Random damage to real files and blobs must give a `KeystoreError`, never a crash.
@Suite struct MalformedInputTests {
    typealias Generator = SplitMix64

    @Test func randomlyDamagedKeyringFilesParseOrThrowKeystoreErrors() throws {
        var rng = Generator(state: 42)
        let originals = KeystoreVector.all.map { [UInt8]($0.json) }
        var parsed = 0
        for i in 0..<3000 {
            var bytes = originals[i % originals.count]
            for _ in 0..<Int.random(in: 1...4, using: &rng) {
                let at = Int.random(in: 0..<bytes.count, using: &rng)
                switch Int.random(in: 0..<3, using: &rng) {
                case 0: bytes[at] = UInt8.random(in: 0...255, using: &rng)
                case 1: bytes.remove(at: at)
                default: bytes.insert(UInt8.random(in: 0...255, using: &rng), at: at)
                }
            }
            do {
                let file = try KeyringJSON.parse(Data(bytes))
                parsed += 1
                if let data = try? file.encodedBytes() {
                    _ = try? KeyringCipher.parts(of: data, usesScrypt: file.usesScrypt)
                    _ = try? KeyringPairCodec.scheme(forKeyType: file.keyType)
                }
            } catch {
                // Typed throws: every failure is a KeystoreError with a reason.
                #expect(!error.reason.isEmpty)
            }
        }
        #expect(parsed > 0, "some mutations keep the file valid JSON")
    }

    @Test func randomBlobsNeverCrashTheBlobOrPlaintextParsers() {
        var rng = Generator(state: 7)
        for _ in 0..<3000 {
            let count = Int.random(in: 0...200, using: &rng)
            var bytes = (0..<count).map { _ in UInt8.random(in: 0...255, using: &rng) }
            if count >= 16, Bool.random(using: &rng) { bytes.replaceSubrange(0..<16, with: KeyringPkcs8.header) }
            _ = try? KeyringCipher.parts(of: bytes, usesScrypt: Bool.random(using: &rng))
            _ = try? KeyringPkcs8.decode(
                SecretBytes(bytes), publicKeyLength: Bool.random(using: &rng) ? 32 : 33)
            _ = try? KeyringPairCodec.keyPair(fromPlaintext: SecretBytes(bytes), scheme: .ed25519)
        }
    }
}
