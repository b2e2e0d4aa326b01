import Primitives
import SigningKeys

/// An ICON keystore file: the Ethereum-v3-style JSON that ICONex, Hana and the ICON SDKs write and
/// read (docs/reference/icon.md §8):
///
/// ```json
/// { "version": 3, "id": "<uuid>", "address": "hx…", "coinType": "icx",
///   "crypto": { "cipher": "aes-128-ctr", "cipherparams": {"iv": "<hex>"}, "ciphertext": "<hex>",
///               "kdf": "scrypt", "kdfparams": {"dklen": 32, "n": 16384, "r": 8, "p": 1, "salt": "<hex>"},
///               "mac": "<hex>" } }
/// ```
///
/// The `crypto` object is Web3 Secret Storage's, shared with Ethereum files (`KeystoreV3Crypto`:
/// scrypt or PBKDF2-HMAC-SHA256, AES-128-CTR, Keccak-256 MAC checked in constant time before
/// anything is decrypted); the plaintext is the 32-byte secp256k1 secret, whose address must equal
/// `address`.
///
/// Untrusted input: parsing is strict (hex lengths, versions, cipher), KDF costs are bounded
/// (scrypt 128·N·r ≤ 256 MiB, p ≤ 4; PBKDF2 ≤ 10^7 rounds) so a file cannot exhaust memory or time.
/// Sigil stores its ICON accounts in exactly this format (`accounts/hx<address>.json`), with an
/// extra `sigil` object (`name`, `whenCreated`, `isTesting`) that exports leave out.
package struct IconKeystoreFile: Sendable, Hashable {
    /// The KDFs of the shared v3 `crypto` object.
    package typealias KDF = KeystoreV3Crypto.KDF

    /// `hx…` as written in the file.
    package var address: String
    package var id: String
    package var kdf: KDF
    package var salt: [UInt8]
    package var iv: [UInt8]
    package var ciphertext: [UInt8]
    package var mac: [UInt8]
    /// Sigil's own `sigil` object (absent in files from other wallets).
    package var sigilMeta: JSONObject

    /// Largest file read.
    package static let maxFileBytes = 64 * 1024
    /// scrypt parameters of the files Sigil writes: N = 2^14, r = 8, p = 1 (what ICONex and iconsdk write).
    package static let defaultKDF = KDF.scrypt(n: 1 << 14, r: 8, p: 1)

    package init(
        address: String, id: String, kdf: KDF, salt: [UInt8], iv: [UInt8], ciphertext: [UInt8], mac: [UInt8],
        sigilMeta: JSONObject = [:]
    ) {
        self.address = address
        self.id = id
        self.kdf = kdf
        self.salt = salt
        self.iv = iv
        self.ciphertext = ciphertext
        self.mac = mac
        self.sigilMeta = sigilMeta
    }

    init(address: String, id: String, crypto: KeystoreV3Crypto, sigilMeta: JSONObject) {
        self.init(
            address: address, id: id, kdf: crypto.kdf, salt: crypto.salt, iv: crypto.iv, ciphertext: crypto.ciphertext,
            mac: crypto.mac, sigilMeta: sigilMeta)
    }

    /// Whether some bytes look like an ICON keystore file (a JSON object with `crypto`/`Crypto` and
    /// an `hx` address) rather than a polkadot-js export. Cheap; `parse` does the real checks.
    package static func looksLikeIconFile(_ bytes: [UInt8]) -> Bool {
        guard let value = try? JSONValue.parse(bytes), case .object = value else { return false }
        return (value["crypto"] ?? value["Crypto"]) != nil && (value["address"]?.stringValue?.hasPrefix("hx") ?? false)
    }

    /// Parses a file. - Throws: `.malformedFile` naming the field, `.unsupportedFormat` for another
    /// version, cipher, KDF or PRF, `.invalidScryptParameters` for costs beyond the bounds.
    package static func parse(_ bytes: [UInt8]) throws(KeystoreError) -> IconKeystoreFile {
        guard bytes.count <= maxFileBytes else { throw KeystoreError(.malformedFile, "larger than 64 KiB") }
        let root: JSONValue
        do { root = try JSONValue.parse(bytes) } catch {
            throw KeystoreError(.malformedFile, "not JSON: \(error.code)")
        }
        guard case .object = root else { throw KeystoreError(.malformedFile, "not a JSON object") }
        guard root["version"]?.integer(as: Int.self) == 3 else {
            throw KeystoreError(.unsupportedFormat, "version is not 3")
        }
        guard let address = root["address"]?.stringValue, isAddress(address) else {
            throw KeystoreError(.malformedFile, "field address: hx + 40 lower-case hex digits")
        }
        if let coin = root["coinType"]?.stringValue, coin != "icx" {
            throw KeystoreError(.unsupportedFormat, "coinType is not icx")
        }
        guard let cryptoValue = root["crypto"] ?? root["Crypto"] else {
            throw KeystoreError(.malformedFile, "field crypto")
        }
        let crypto = try KeystoreV3Crypto.parse(cryptoValue, maxParallelism: maxParallelism)
        return IconKeystoreFile(
            address: address, id: root["id"]?.stringValue ?? "", crypto: crypto,
            sigilMeta: root["sigil"]?.objectValue ?? [:])
    }

    /// ICON's bound on scrypt parallelism (ICONex and the SDKs write p = 1).
    static let maxParallelism: UInt32 = 4

    /// The bounds on KDF costs (`KeystoreV3Crypto.check`, p ≤ 4).
    static func check(_ kdf: KDF) throws(KeystoreError) {
        try KeystoreV3Crypto.check(kdf, maxParallelism: maxParallelism)
    }

    static func isAddress(_ s: String) -> Bool {
        let u = Array(s.utf8)
        return u.count == 42 && u[0] == UInt8(ascii: "h") && u[1] == UInt8(ascii: "x")
            && u[2...].allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x61 && $0 <= 0x66) }
    }

    /// The file as JSON; `includeSigilMeta` false for exports.
    package func json(includeSigilMeta: Bool) -> JSONValue {
        let crypto = KeystoreV3Crypto(kdf: kdf, salt: salt, iv: iv, ciphertext: ciphertext, mac: mac).json
        var root: JSONObject = [
            "version": 3, "id": .string(id), "address": .string(address), "crypto": crypto,
            "coinType": "icx",
        ]
        if includeSigilMeta && !sigilMeta.isEmpty { root["sigil"] = .object(sigilMeta) }
        return .object(root)
    }

    // MARK: crypto

    /// Encrypts an ICON key with `password` (fresh salt, IV and id).
    /// - Throws: `.passwordRequired` for an empty password, `.invalidScryptParameters`.
    package static func encrypt(
        _ pair: IconKeyPair, password: Passphrase, kdf: KDF = defaultKDF, sigilMeta: JSONObject = [:]
    ) throws(KeystoreError) -> IconKeystoreFile {
        let crypto = try KeystoreV3Crypto.encrypt(
            pair.secretKey, password: password, kdf: kdf, maxParallelism: maxParallelism)
        return IconKeystoreFile(
            address: pair.address, id: try KeystoreV3Crypto.uuid(), crypto: crypto, sigilMeta: sigilMeta)
    }

    /// Decrypts and checks the file: MAC first (a wrong password or an altered file is
    /// `.decryptFailed`), then the secret's address against `address` (`.keyMismatch`).
    package func decrypt(password: Passphrase) throws(KeystoreError) -> IconKeyPair {
        let secret = try KeystoreV3Crypto(kdf: kdf, salt: salt, iv: iv, ciphertext: ciphertext, mac: mac)
            .decrypt(password: password)
        let pair: IconKeyPair
        do { pair = try IconKeyPair(secretKey: secret) } catch {
            throw KeystoreError(.malformedFile, "the decrypted secret is not a secp256k1 key")
        }
        guard pair.address == address else {
            throw KeystoreError(.keyMismatch, "the key does not belong to \(address)")
        }
        return pair
    }
}
