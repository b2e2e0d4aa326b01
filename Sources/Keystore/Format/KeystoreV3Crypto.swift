import Primitives
import SigningKeys

/// The `crypto` object of a Web3 Secret Storage (keystore v3) file, shared by Ethereum keystore
/// files (`EthereumKeystoreFile`) and ICON ones (`IconKeystoreFile`), which differ only in the
/// address around it (docs/reference/ethereum.md §5, docs/reference/icon.md §8):
///
/// ```json
/// { "cipher": "aes-128-ctr", "cipherparams": {"iv": "<16 bytes hex>"}, "ciphertext": "<hex>",
///   "kdf": "scrypt" | "pbkdf2", "kdfparams": {…, "dklen": 32, "salt": "<hex>"}, "mac": "<32 bytes hex>" }
/// ```
///
/// `DK = KDF(UTF-8 password, salt)`; the MAC is keccak256(DK[16..<32] ‖ ciphertext) and is checked
/// in constant time before anything is decrypted; the plaintext is AES-128-CTR with key DK[0..<16]
/// and the IV as the initial 128-bit counter. Hex carries no `0x` when written; reading accepts it.
///
/// Untrusted input: strict shapes (IV 16 bytes, MAC 32, ciphertext `secretLength`, salt 1…1024
/// bytes, dklen 32, PRF hmac-sha256), and KDF costs bounded (`check`) so a file cannot exhaust
/// memory or time. scrypt runs through libsodium's `_ll` function, which takes raw N, r, p and so
/// opens the Web3 Secret Storage vector with r = 1, p = 8 that OpenSSL refuses.
package struct KeystoreV3Crypto: Sendable, Hashable {
    package enum KDF: Sendable, Hashable {
        case scrypt(n: UInt32, r: UInt32, p: UInt32)
        case pbkdf2(iterations: Int)
    }

    package var kdf: KDF
    package var salt: [UInt8]
    package var iv: [UInt8]
    package var ciphertext: [UInt8]
    package var mac: [UInt8]

    package init(kdf: KDF, salt: [UInt8], iv: [UInt8], ciphertext: [UInt8], mac: [UInt8]) {
        self.kdf = kdf
        self.salt = salt
        self.iv = iv
        self.ciphertext = ciphertext
        self.mac = mac
    }

    /// Parses the `crypto` object. - Throws: `.malformedFile` naming the field, `.unsupportedFormat`
    /// for another cipher, KDF, PRF or dklen, `.invalidScryptParameters` beyond the bounds.
    package static func parse(
        _ crypto: JSONValue, secretLength: Int = 32, maxParallelism: UInt32
    ) throws(KeystoreError) -> KeystoreV3Crypto {
        guard case .object = crypto else { throw KeystoreError(.malformedFile, "field crypto") }
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
        let ciphertext = try hex(crypto["ciphertext"], "crypto.ciphertext", count: secretLength)
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
        try check(kdf, maxParallelism: maxParallelism)
        return KeystoreV3Crypto(kdf: kdf, salt: salt, iv: iv, ciphertext: ciphertext, mac: mac)
    }

    /// The bounds on KDF costs: scrypt N a power of two ≥ 2, r 1…16, p 1…`maxParallelism`,
    /// 128·N·r ≤ 256 MiB (geth's "standard" 2^18·8 is the largest that passes; time is at most
    /// `maxParallelism` times that); PBKDF2 1…10^7 rounds.
    static func check(_ kdf: KDF, maxParallelism: UInt32) throws(KeystoreError) {
        switch kdf {
        case .scrypt(let n, let r, let p):
            guard n >= 2, n & (n - 1) == 0, (1...16).contains(r), (1...maxParallelism).contains(p),
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

    /// The `crypto` object as written (hex without `0x`).
    package var json: JSONValue {
        var params: JSONObject = ["dklen": 32]
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
        params["salt"] = .string(Hex.encode(salt, prefix: false))
        let crypto: JSONObject = [
            "cipher": "aes-128-ctr", "cipherparams": ["iv": .string(Hex.encode(iv, prefix: false))],
            "ciphertext": .string(Hex.encode(ciphertext, prefix: false)), "kdf": .string(kdfName),
            "kdfparams": .object(params), "mac": .string(Hex.encode(mac, prefix: false)),
        ]
        return .object(crypto)
    }

    /// Encrypts a secret with `password` under a fresh 32-byte salt and 16-byte IV.
    /// - Throws: `.passwordRequired` for an empty password, `.invalidScryptParameters`.
    package static func encrypt(
        _ secret: SecretBytes, password: Passphrase, kdf: KDF, maxParallelism: UInt32
    ) throws(KeystoreError) -> KeystoreV3Crypto {
        guard !password.isEmpty else { throw KeystoreError(.passwordRequired, "an empty password is not allowed") }
        try check(kdf, maxParallelism: maxParallelism)
        let salt = try Sodium.randomBytes(32)
        let iv = try Sodium.randomBytes(16)
        let derived = try deriveKey(password, kdf: kdf, salt: salt)
        do {
            let ciphertext = try KeystoreFileCrypto.aes128ctrEncrypt(secret, key: derived.slice(0..<16), iv: iv)
            return KeystoreV3Crypto(
                kdf: kdf, salt: salt, iv: iv, ciphertext: ciphertext, mac: macOf(derived, ciphertext))
        } catch {
            throw KeystoreError(.invalidInput, "encryption failed")
        }
    }

    /// The secret, after the MAC check (a wrong password or an altered file is `.decryptFailed`).
    package func decrypt(password: Passphrase) throws(KeystoreError) -> SecretBytes {
        let derived = try Self.deriveKey(password, kdf: kdf, salt: salt)
        guard ConstantTime.equals(Self.macOf(derived, ciphertext), mac) else {
            throw KeystoreError(.decryptFailed, "wrong password, or the file was altered (MAC mismatch)")
        }
        do { return try KeystoreFileCrypto.aes128ctrDecrypt(ciphertext, key: derived.slice(0..<16), iv: iv) } catch {
            throw KeystoreError(.malformedFile, "AES-128-CTR failed")
        }
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

    /// A random (version 4) UUID for the file's `id`.
    static func uuid() throws(KeystoreError) -> String {
        var b = try Sodium.randomBytes(16)
        b[6] = (b[6] & 0x0f) | 0x40
        b[8] = (b[8] & 0x3f) | 0x80
        let u = Array(Hex.encode(b, prefix: false))
        return String(u[0..<8]) + "-" + String(u[8..<12]) + "-" + String(u[12..<16]) + "-" + String(u[16..<20]) + "-"
            + String(u[20..<32])
    }
}
