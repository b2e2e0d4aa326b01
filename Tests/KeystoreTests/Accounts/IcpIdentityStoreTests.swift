import Foundation
import Primitives
import SigilTesting
import SigningKeys
import Testing

@testable import Keystore

/// ICP identities in the data directory: encrypted, checked on the way in and out, one file each.
@Suite struct IcpIdentityStoreTests {
    @Test(arguments: IcpKeyPair.Algorithm.allCases)
    func addListUnlockRemove(_ algorithm: IcpKeyPair.Algorithm) throws {
        let temp = TemporaryDirectory()
        defer { temp.remove() }
        let store = IcpIdentityStore(directory: try DataDirectory.open(temp.path))
        let key = try IcpKeyPair(secretKey: SecretBytes([UInt8](repeating: 0x31, count: 32)), algorithm: algorithm)
        let info = try store.add(key, name: "main", derivationPath: nil, password: Passphrase("pw"))
        #expect(try DataDirectory.permissions(of: store.path) == 0o700)
        #expect(try store.list().identities == [info])
        #expect(try store.unlock(info.publicKeyHex, password: Passphrase("pw")).derPublicKey == key.derPublicKey)
        #expect(throws: KeystoreError(.decryptFailed, "")) {
            try store.unlock(info.publicKeyHex, password: Passphrase("wrong"))
        }
        #expect(throws: KeystoreError(.accountExists, "")) {
            try store.add(key, name: nil, derivationPath: nil, password: Passphrase("pw"))
        }
        // The file holds no secret in clear.
        let text = try String(contentsOfFile: store.path + "/" + info.publicKeyHex + ".json", encoding: .utf8)
        #expect(!text.contains(String(repeating: "31", count: 8)))
        #expect(try store.unlockAll(password: Passphrase("pw")).count == 1)
        #expect(try store.remove(info.publicKeyHex))
        #expect(try store.list().identities.isEmpty)
    }

    @Test func devIdentityIsKeysmithsTestKey() throws {
        let key = try IcpDevIdentity.key()
        #expect(
            Hex.encode(key.secretKey.unsafeExposedBytes(), prefix: false)
                == "0832ee76447151e443867529da9bcbc4b0c808b2283426b5b1074c833e58d781")
        #expect(IcpDevIdentity.label.contains("never use"))
    }
}
