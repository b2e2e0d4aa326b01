import Foundation
import Primitives
import Testing

@testable import ICPCodec
@testable import SigningKeys

/// dfx/quill PEM identity files (docs/reference/icp.md §3.3): OpenSSL-written SEC1 and PKCS#8 files
/// load to the key and principal icp-py-core reads from them; Sigil's own PEM loads back.
@Suite struct PEMTests {
    static let files: [JSONValue] = {
        guard let url = Bundle.module.url(forResource: "Resources/pem-files", withExtension: "json"),
            let data = try? Data(contentsOf: url), let value = try? JSONValue.parse(Array(data))
        else { return [] }
        return value["files"]?.arrayValue ?? []
    }()

    @Test func loaded() { #expect(PEMTests.files.count == 3) }

    @Test(arguments: PEMTests.files.compactMap { $0["file"]?.stringValue })
    func opensslFiles(_ name: String) throws {
        let f = try #require(PEMTests.files.first { $0["file"]?.stringValue == name })
        let key = try IcpKeyPair(pem: try #require(f["pem"]?.stringValue))
        #expect(key.algorithm.rawValue == f["algorithm"]?.stringValue)
        #expect(key.secretKey.unsafeExposedBytes() == (try Vectors.hex(f["secret"])))
        #expect(Principal(selfAuthenticating: key.derPublicKey).text == f["principal"]?.stringValue)
        // Round trip through Sigil's own PEM.
        let again = try IcpKeyPair(pem: key.pem())
        #expect(again.derPublicKey == key.derPublicKey)
        #expect(again.secretKey == key.secretKey)
    }

    @Test func ownFormat() throws {
        let key = try IcpKeyPair(secretKey: SecretBytes([UInt8](repeating: 3, count: 32)), algorithm: .secp256k1)
        let pem = key.pem()
        #expect(pem.hasPrefix("-----BEGIN EC PRIVATE KEY-----\n"))
        let ed = try IcpKeyPair(secretKey: SecretBytes([UInt8](repeating: 3, count: 32)), algorithm: .ed25519)
        #expect(ed.pem().hasPrefix("-----BEGIN PRIVATE KEY-----\nMC4CAQAwBQYDK2VwBCIEI"))
        #expect(!key.description.contains("0303"))
    }

    @Test(arguments: [
        "", "-----BEGIN PRIVATE KEY-----\n!!!\n-----END PRIVATE KEY-----\n",
        "-----BEGIN EC PRIVATE KEY-----\nMAA=\n-----END EC PRIVATE KEY-----\n",
        "-----BEGIN EC PRIVATE KEY-----\nMAA=\n-----END PRIVATE KEY-----\n",
        // P-256 (prime256v1) SEC1 key: not an IC secp256k1 identity.
        "-----BEGIN EC PRIVATE KEY-----\nMHcCAQEEIBYvCAF3yR3XxwNb1Fs3hUz7vyHtp1f9Mq8y1nQwQm2CoAoGCCqGSM49\nAwEHoUQDQgAEAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA\nAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA==\n-----END EC PRIVATE KEY-----\n",
    ])
    func refused(_ pem: String) {
        #expect(throws: KeyError.self) { try IcpKeyPair(pem: pem) }
    }

    /// A SEC1 file whose embedded public key is not its private key's is refused.
    @Test func mismatchedPublicKey() throws {
        let a = try IcpKeyPair(secretKey: SecretBytes([UInt8](repeating: 5, count: 32)), algorithm: .secp256k1)
        let b = try IcpKeyPair(secretKey: SecretBytes([UInt8](repeating: 6, count: 32)), algorithm: .secp256k1)
        let der = DER.sequence(
            DER.tlv(0x02, [1]) + DER.tlv(0x04, a.secretKey.unsafeExposedBytes())
                + DER.tlv(0xa1, DER.tlv(0x03, [0] + b.rawPublicKey)))
        let pem = "-----BEGIN EC PRIVATE KEY-----\n\(Data(der).base64EncodedString())\n-----END EC PRIVATE KEY-----\n"
        #expect(throws: KeyError.self) { try IcpKeyPair(pem: pem) }
    }
}
