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
/// The key is derived from the password with scrypt or PBKDF2-HMAC-SHA256 (`kdfparams {c, dklen,
/// prf: "hmac-sha256", salt}`); the first 16 bytes are the AES-128-CTR key, the MAC is
/// Keccak-256(key[16..<32] ‖ ciphertext) and is checked (constant time) before anything is
/// decrypted; the plaintext is the 32-byte secp256k1 secret, whose address must equal `address`.
///
/// Untrusted input: parsing is strict (hex lengths, versions, cipher), KDF costs are bounded
/// (scrypt 128·N·r ≤ 256 MiB, p ≤ 4; PBKDF2 ≤ 10^7 rounds) so a file cannot exhaust memory or time.
/// Sigil stores its ICON accounts in exactly this format (`accounts/hx<address>.json`), with an
/// extra `sigil` object (`name`, `whenCreated`, `isTesting`) that exports leave out.
public struct IconKeystoreFile: Sendable, Hashable {
    public enum KDF: Sendable, Hashable {
        case scrypt(n: UInt32, r: UInt32, p: UInt32)
        case pbkdf2(iterations: Int)
    }

    /// `hx…` as written in the file.
    public var address: String
    public var id: String
    public var kdf: KDF
    public var salt: [UInt8]
    public var iv: [UInt8]
    public var ciphertext: [UInt8]
    public var mac: [UInt8]
    /// Sigil's own `sigil` object (absent in files from other wallets).
    public var sigilMeta: JSONObject

    /// Largest file read.
    public static let maxFileBytes = 64 * 1024
    /// scrypt parameters of the files Sigil writes: N = 2^14, r = 8, p = 1 (what ICONex and iconsdk write).
    public static let defaultKDF = KDF.scrypt(n: 1 << 14, r: 8, p: 1)

    public init(
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

    /// Whether some bytes look like an ICON keystore file (a JSON object with `crypto`/`Crypto` and
    /// an `hx` address) rather than a polkadot-js export. Cheap; `parse` does the real checks.
    public static func looksLikeIconFile(_ bytes: [UInt8]) -> Bool {
        guard let value = try? JSONValue.parse(bytes), case .object = value else { return false }
        return (value["crypto"] ?? value["Crypto"]) != nil && (value["address"]?.stringValue?.hasPrefix("hx") ?? false)
    }

    /// Parses a file. - Throws: `.malformedFile` naming the field, `.unsupportedFormat` for another
    /// version, cipher, KDF or PRF, `.invalidScryptParameters` for costs beyond the bounds.
    public static func parse(_ bytes: [UInt8]) throws(KeystoreError) -> IconKeystoreFile {
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
        guard let crypto = root["crypto"] ?? root["Crypto"], case .object = crypto else {
            throw KeystoreError(.malformedFile, "field crypto")
        }
        guard crypto["cipher"]?.stringValue == "aes-128-ctr" else {
            throw KeystoreError(.unsupportedFormat, "cipher is not aes-128-ctr")
        }
        func hex(_ value: JSONValue?, _ field: String, count: Int? = nil) throws(KeystoreError) -> [UInt8] {
            guard let text = value?.stringValue, let bytes = try? Hex.decode(text, prefix: .optional),
                count.map({ $0 == bytes.count }) ?? true
            else { throw KeystoreError(.malformedFile, "field \(field)") }
            return bytes
        }
        let iv = try hex(crypto["cipherparams"]?["iv"], "crypto.cipherparams.iv", count: 16)
        let ciphertext = try hex(crypto["ciphertext"], "crypto.ciphertext", count: 32)
        let mac = try hex(crypto["mac"], "crypto.mac", count: 32)
        guard let params = crypto["kdfparams"], case .object = params else {
            throw KeystoreError(.malformedFile, "field crypto.kdfparams")
        }
        guard params["dklen"]?.integer(as: Int.self) == 32 else {
            throw KeystoreError(.unsupportedFormat, "kdfparams.dklen is not 32")
        }
        let salt = try hex(params["salt"], "crypto.kdfparams.salt")
        guard (1...1024).contains(salt.count) else {
            throw KeystoreError(.malformedFile, "field crypto.kdfparams.salt")
        }
        let kdf: KDF
        switch crypto["kdf"]?.stringValue {
        case "scrypt":
            guard let n = params["n"]?.integer(as: UInt32.self), let r = params["r"]?.integer(as: UInt32.self),
                let p = params["p"]?.integer(as: UInt32.self)
            else { throw KeystoreError(.malformedFile, "fields crypto.kdfparams n, r, p") }
            kdf = .scrypt(n: n, r: r, p: p)
        case "pbkdf2":
            guard params["prf"]?.stringValue == "hmac-sha256" else {
                throw KeystoreError(.unsupportedFormat, "kdfparams.prf is not hmac-sha256")
            }
            guard let c = params["c"]?.integer(as: Int.self) else {
                throw KeystoreError(.malformedFile, "field crypto.kdfparams.c")
            }
            kdf = .pbkdf2(iterations: c)
        default: throw KeystoreError(.unsupportedFormat, "kdf is not scrypt or pbkdf2")
        }
        try check(kdf)
        return IconKeystoreFile(
            address: address, id: root["id"]?.stringValue ?? "", kdf: kdf, salt: salt, iv: iv, ciphertext: ciphertext,
            mac: mac, sigilMeta: root["sigil"]?.objectValue ?? [:])
    }

    /// The bounds on KDF costs (see the type's documentation).
    static func check(_ kdf: KDF) throws(KeystoreError) {
        switch kdf {
        case .scrypt(let n, let r, let p):
            guard n >= 2, n & (n - 1) == 0, (1...16).contains(r), (1...4).contains(p),
                UInt64(n) * UInt64(r) * 128 <= 256 << 20
            else {
                throw KeystoreError(.invalidScryptParameters, "scrypt N=\(n) r=\(r) p=\(p) is outside the bounds")
            }
        case .pbkdf2(let c):
            guard (1...10_000_000).contains(c) else {
                throw KeystoreError(.invalidScryptParameters, "pbkdf2 c=\(c) is outside 1…10^7")
            }
        }
    }

    static func isAddress(_ s: String) -> Bool {
        let u = Array(s.utf8)
        return u.count == 42 && u[0] == UInt8(ascii: "h") && u[1] == UInt8(ascii: "x")
            && u[2...].allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x61 && $0 <= 0x66) }
    }

    /// The file as JSON; `includeSigilMeta` false for exports.
    public func json(includeSigilMeta: Bool) -> JSONValue {
        var params: JSONObject = ["dklen": 32, "salt": .string(Hex.encode(salt, prefix: false))]
        let kdfName: String
        switch kdf {
        case .scrypt(let n, let r, let p):
            kdfName = "scrypt"
            params["n"] = .integer(n)
            params["r"] = .integer(r)
            params["p"] = .integer(p)
        case .pbkdf2(let c):
            kdfName = "pbkdf2"
            params["c"] = .integer(c)
            params["prf"] = "hmac-sha256"
        }
        let crypto: JSONObject = [
            "cipher": "aes-128-ctr", "cipherparams": ["iv": .string(Hex.encode(iv, prefix: false))],
            "ciphertext": .string(Hex.encode(ciphertext, prefix: false)), "kdf": .string(kdfName),
            "kdfparams": .object(params), "mac": .string(Hex.encode(mac, prefix: false)),
        ]
        var root: JSONObject = [
            "version": 3, "id": .string(id), "address": .string(address), "crypto": .object(crypto),
            "coinType": "icx",
        ]
        if includeSigilMeta && !sigilMeta.isEmpty { root["sigil"] = .object(sigilMeta) }
        return .object(root)
    }

    // MARK: crypto

    /// Encrypts an ICON key with `password` (fresh salt, IV and id).
    /// - Throws: `.passwordRequired` for an empty password, `.invalidScryptParameters`.
    public static func encrypt(
        _ pair: IconKeyPair, password: Passphrase, kdf: KDF = defaultKDF, sigilMeta: JSONObject = [:]
    ) throws(KeystoreError) -> IconKeystoreFile {
        guard !password.isEmpty else { throw KeystoreError(.passwordRequired, "an empty password is not allowed") }
        try check(kdf)
        let salt = try Sodium.randomBytes(32)
        let iv = try Sodium.randomBytes(16)
        let derived = try deriveKey(password, kdf: kdf, salt: salt)
        do {
            let ciphertext = try KeystoreFileCrypto.aes128ctrEncrypt(pair.secretKey, key: derived.slice(0..<16), iv: iv)
            let mac = macOf(derived, ciphertext)
            return IconKeystoreFile(
                address: pair.address, id: try uuid(), kdf: kdf, salt: salt, iv: iv, ciphertext: ciphertext, mac: mac,
                sigilMeta: sigilMeta)
        } catch let error as KeystoreError {
            throw error
        } catch {
            throw KeystoreError(.invalidInput, "encryption failed")
        }
    }

    /// Decrypts and checks the file: MAC first (a wrong password or an altered file is
    /// `.decryptFailed`), then the secret's address against `address` (`.keyMismatch`).
    public func decrypt(password: Passphrase) throws(KeystoreError) -> IconKeyPair {
        let derived = try Self.deriveKey(password, kdf: kdf, salt: salt)
        guard ConstantTime.equals(Self.macOf(derived, ciphertext), mac) else {
            throw KeystoreError(.decryptFailed, "wrong password, or the file was altered (MAC mismatch)")
        }
        let pair: IconKeyPair
        do {
            let secret = try KeystoreFileCrypto.aes128ctrDecrypt(ciphertext, key: derived.slice(0..<16), iv: iv)
            pair = try IconKeyPair(secretKey: secret)
        } catch {
            throw KeystoreError(.malformedFile, "the decrypted secret is not a secp256k1 key")
        }
        guard pair.address == address else {
            throw KeystoreError(.keyMismatch, "the key does not belong to \(address)")
        }
        return pair
    }

    static func deriveKey(_ password: Passphrase, kdf: KDF, salt: [UInt8]) throws(KeystoreError) -> SecretBytes {
        switch kdf {
        case .scrypt(let n, let r, let p):
            return try Sodium.scrypt(
                password: password.secret, salt: salt, parameters: ScryptParameters(n: n, p: p, r: r),
                outputLength: 32)
        case .pbkdf2(let c):
            do {
                return try KeystoreFileCrypto.pbkdf2SHA256(
                    password: password.secret, salt: salt, iterations: c, length: 32)
            } catch {
                throw KeystoreError(.invalidScryptParameters, "pbkdf2 failed")
            }
        }
    }

    static func macOf(_ derived: SecretBytes, _ ciphertext: [UInt8]) -> [UInt8] {
        var input = derived.slice(16..<32).unsafeExposedBytes() + ciphertext
        defer { ConstantTime.wipe(&input) }
        return Keccak256.hash(input)
    }

    static func uuid() throws(KeystoreError) -> String {
        var b = try Sodium.randomBytes(16)
        b[6] = (b[6] & 0x0f) | 0x40
        b[8] = (b[8] & 0x3f) | 0x80
        let h = Hex.encode(b, prefix: false)
        let u = Array(h)
        return String(u[0..<8]) + "-" + String(u[8..<12]) + "-" + String(u[12..<16]) + "-" + String(u[16..<20]) + "-"
            + String(u[20..<32])
    }
}
