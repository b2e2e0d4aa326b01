import Primitives
import SigningKeys

/// An Ethereum keystore v3 file (Web3 Secret Storage) as geth, eth-keyfile and ethers write and
/// read it (docs/reference/ethereum.md §5):
///
/// ```json
/// { "version": 3, "id": "<uuid>", "address": "<40 hex, optional, no 0x>", "crypto": { … } }
/// ```
///
/// The `crypto` object (`KeystoreV3Crypto`) is the same as in ICON files. Reading accepts `Crypto`
/// as well as `crypto`, an address in any case (or none), scrypt with p up to 8 (the published
/// vector uses r = 1, p = 8). After the MAC check the secret's address must equal `address` when
/// the file names one (`.keyMismatch`), as ethers checks.
package struct EthereumKeystoreFile: Sendable, Hashable {
    package typealias KDF = KeystoreV3Crypto.KDF

    /// The 20 address bytes written in the file, if any.
    package var address: [UInt8]?
    package var id: String
    package var crypto: KeystoreV3Crypto

    /// Largest file read.
    package static let maxFileBytes = 64 * 1024
    /// Files Sigil writes: scrypt N = 2^17, r = 8, p = 1 (ethers v6's default; 128 MiB, under a second).
    package static let defaultKDF = KDF.scrypt(n: 1 << 17, r: 8, p: 1)
    static let maxParallelism: UInt32 = 8

    package init(address: [UInt8]?, id: String, crypto: KeystoreV3Crypto) {
        self.address = address
        self.id = id
        self.crypto = crypto
    }

    /// Parses a file. - Throws: `.malformedFile` naming the field, `.unsupportedFormat` (version,
    /// cipher, KDF, PRF), `.invalidScryptParameters` for costs beyond the bounds.
    package static func parse(_ bytes: [UInt8]) throws(KeystoreError) -> EthereumKeystoreFile {
        guard bytes.count <= maxFileBytes else { throw KeystoreError(.malformedFile, "larger than 64 KiB") }
        let root: JSONValue
        do { root = try JSONValue.parse(bytes) } catch {
            throw KeystoreError(.malformedFile, "not JSON: \(error.code)")
        }
        guard case .object = root else { throw KeystoreError(.malformedFile, "not a JSON object") }
        guard root["version"]?.integer(as: Int.self) == 3 else {
            throw KeystoreError(.unsupportedFormat, "version is not 3")
        }
        var address: [UInt8]?
        if let value = root["address"], !value.isNull {
            guard let text = value.stringValue, let bytes = try? Hex.decode(text, prefix: .optional, byteCount: 20)
            else {
                throw KeystoreError(.malformedFile, "field address: 40 hex digits")
            }
            address = bytes
        }
        guard let crypto = root["crypto"] ?? root["Crypto"] else { throw KeystoreError(.malformedFile, "field crypto") }
        return EthereumKeystoreFile(
            address: address, id: root["id"]?.stringValue ?? "",
            crypto: try KeystoreV3Crypto.parse(crypto, maxParallelism: maxParallelism))
    }

    /// The file as JSON: `address` lower-case without `0x` (as geth writes it).
    package var json: JSONValue {
        var root: JSONObject = ["version": 3, "id": .string(id), "crypto": crypto.json]
        if let address { root["address"] = .string(Hex.encode(address, prefix: false)) }
        return .object(root)
    }

    /// Encrypts a key with `password` (fresh salt, IV and id).
    /// - Throws: `.passwordRequired` for an empty password, `.invalidScryptParameters`.
    package static func encrypt(
        _ pair: EthereumKeyPair, password: Passphrase, kdf: KDF = defaultKDF
    ) throws(KeystoreError) -> EthereumKeystoreFile {
        guard let secret = pair.seed else { throw KeystoreError(.invalidInput, "the key has no secret") }
        let crypto = try KeystoreV3Crypto.encrypt(secret, password: password, kdf: kdf, maxParallelism: maxParallelism)
        return EthereumKeystoreFile(address: pair.accountId, id: try KeystoreV3Crypto.uuid(), crypto: crypto)
    }

    /// Decrypts and checks the file: MAC first (`.decryptFailed`), then the key against `address`
    /// (`.keyMismatch`).
    package func decrypt(password: Passphrase) throws(KeystoreError) -> EthereumKeyPair {
        let secret = try crypto.decrypt(password: password)
        let pair: EthereumKeyPair
        do { pair = try EthereumKeyPair(seed: secret) } catch {
            throw KeystoreError(.malformedFile, "the decrypted secret is not a secp256k1 key")
        }
        if let address, address != pair.accountId {
            throw KeystoreError(.keyMismatch, "the key does not belong to the file's address")
        }
        return pair
    }
}
