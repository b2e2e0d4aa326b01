import Foundation
import Primitives
import SigningKeys

/// What is stored about an Internet Computer identity (nothing secret).
package struct IcpIdentityInfo: Sendable, Hashable {
    /// `icp/<this>.json`: the raw public key in hex (no prefix).
    package let publicKeyHex: String
    package let algorithm: IcpKeyPair.Algorithm
    package let name: String?
    /// `m/44'/223'/0'/0/n` when derived from a mnemonic.
    package let derivationPath: String?
    /// The DER public key (for the principal, computed by ICPCodec).
    package let derPublicKey: [UInt8]
}

/// Internet Computer identities (docs/reference/icp.md §3) in the data directory, one file per
/// identity in `icp/` (0700, files 0600), separate from the polkadot-js keyring files that other
/// wallets import: `{"version": 1, "algorithm", "publicKey", "der", "name", "derivationPath",
/// "encoded"}` where `encoded` is the same scrypt + XSalsa20-Poly1305 envelope as the keyring files
/// (Base64; scrypt N = 2^15, r = 8, p = 1) around the 32-byte secret.
///
/// Invariants: writes are atomic and hold `accounts.lock`; an identity is stored only after its
/// secret re-derives the stored public key; reading checks it again after decryption; errors and
/// logs hold public keys and file names only.
package struct IcpIdentityStore: Sendable {
    package let directory: DataDirectory
    static let maxFileBytes = 64 * 1024

    package init(directory: DataDirectory) { self.directory = directory }

    package var path: String { directory.path + "/icp" }

    private func file(_ publicKeyHex: String) -> String { path + "/" + publicKeyHex + ".json" }

    /// Every stored identity (files that do not parse are skipped and reported by name).
    package func list() throws(KeystoreError) -> (identities: [IcpIdentityInfo], problems: [String]) {
        guard FileManager.default.fileExists(atPath: path) else { return ([], []) }
        var out: [IcpIdentityInfo] = []
        var problems: [String] = []
        for name in try POSIX.listDirectory(path) where name.hasSuffix(".json") {
            do throws(KeystoreError) {
                out.append(try read(String(name.dropLast(5))).info)
            } catch {
                problems.append(name)
            }
        }
        return (out.sorted { $0.publicKeyHex < $1.publicKeyHex }, problems)
    }

    /// Stores `key` encrypted with `password`. Refuses a second copy of the same key.
    @discardableResult
    package func add(_ key: IcpKeyPair, name: String?, derivationPath: String?, password: Passphrase)
        throws(KeystoreError) -> IcpIdentityInfo
    {
        try DataDirectory.ensurePrivateDirectory(path)
        let lock = try DirectoryLock.acquire(directory.accountsLockPath, waitingUpTo: AccountStore.lockTimeout)
        defer { lock.unlock() }
        let hex = Hex.encode(key.rawPublicKey, prefix: false)
        guard !FileManager.default.fileExists(atPath: file(hex)) else {
            throw KeystoreError(.accountExists, "this ICP identity is already stored (\(hex.prefix(16))…)")
        }
        let sealed = try KeyringCipher.encrypt(key.secretKey, password: password, parameters: .interoperable)
        var object: [String: JSONValue] = [
            "version": 1, "algorithm": .string(key.algorithm.rawValue), "publicKey": .string(hex),
            "der": .string(Hex.encode(key.derPublicKey, prefix: false)),
            "encoded": .string(Data(sealed).base64EncodedString()),
        ]
        if let name { object["name"] = .string(name) }
        if let derivationPath { object["derivationPath"] = .string(derivationPath) }
        try AtomicFile.write(Array(JSONValue.object(object).serialized([.sortedKeys]).utf8), to: file(hex))
        return IcpIdentityInfo(
            publicKeyHex: hex, algorithm: key.algorithm, name: name, derivationPath: derivationPath,
            derPublicKey: key.derPublicKey)
    }

    /// Decrypts one identity; `decryptFailed` for a wrong password, `keyMismatch` when the secret
    /// does not give the stored public key.
    package func unlock(_ publicKeyHex: String, password: Passphrase) throws(KeystoreError) -> IcpKeyPair {
        let (info, sealed) = try read(publicKeyHex)
        let secret = try KeyringCipher.decrypt(sealed, password: password, usesScrypt: true)
        guard let key = try? IcpKeyPair(secretKey: secret, algorithm: info.algorithm),
            key.derPublicKey == info.derPublicKey
        else { throw KeystoreError(.keyMismatch, "the stored secret does not give the stored public key") }
        return key
    }

    /// Every identity that opens with `password` (the others are left locked).
    package func unlockAll(password: Passphrase) throws(KeystoreError) -> [IcpKeyPair] {
        var keys: [IcpKeyPair] = []
        for info in try list().identities {
            if let key = try? unlock(info.publicKeyHex, password: password) { keys.append(key) }
        }
        return keys
    }

    /// Removes an identity; false when there was none.
    package func remove(_ publicKeyHex: String) throws(KeystoreError) -> Bool {
        guard Hex.isValid(publicKeyHex, prefix: .forbidden) else { return false }
        let lock = try DirectoryLock.acquire(directory.accountsLockPath, waitingUpTo: AccountStore.lockTimeout)
        defer { lock.unlock() }
        return try AtomicFile.remove(file(publicKeyHex))
    }

    private func read(_ publicKeyHex: String) throws(KeystoreError) -> (info: IcpIdentityInfo, sealed: [UInt8]) {
        guard Hex.isValid(publicKeyHex, prefix: .forbidden) else {
            throw KeystoreError(.accountNotFound, "not an ICP identity file name")
        }
        let bytes = try POSIX.readFile(file(publicKeyHex), limit: Self.maxFileBytes)
        guard let value = try? JSONValue.parse(bytes), value["version"]?.integer(as: Int.self) == 1,
            let algorithm = value["algorithm"]?.stringValue.flatMap(IcpKeyPair.Algorithm.init(rawValue:)),
            value["publicKey"]?.stringValue == publicKeyHex,
            let der = value["der"]?.stringValue.flatMap({ try? Hex.decode($0, prefix: .forbidden) }),
            let sealed = value["encoded"]?.stringValue.flatMap({ Data(base64Encoded: $0) })
        else { throw KeystoreError(.malformedFile, "ICP identity file \(publicKeyHex.prefix(16))… is malformed") }
        let info = IcpIdentityInfo(
            publicKeyHex: publicKeyHex, algorithm: algorithm, name: value["name"]?.stringValue,
            derivationPath: value["derivationPath"]?.stringValue, derPublicKey: der)
        return (info, Array(sealed))
    }
}

/// The development identity of `--dev`: keysmith's published test mnemonic (docs/reference/icp.md
/// §7, V-ICP-7) at m/44'/223'/0'/0/0. Public knowledge: never hold anything of value with it.
package enum IcpDevIdentity {
    package static let phrase = "verb bottom twelve symptom plastic believe beach cargo inherit viable dice loop"
    package static let label = "ICP development identity (public test mnemonic; never use for real funds)"

    package static func key() throws -> IcpKeyPair {
        try IcpKeyPair(mnemonic: Mnemonic(phrase: phrase), index: 0)
    }
}
