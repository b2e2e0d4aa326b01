import COpenSSL
import Primitives

/// The primitives of the Ethereum-v3-style keystore file that ICONex and the ICON SDKs write
/// (docs/reference/icon.md §8): PBKDF2-HMAC-SHA256 (one of the two KDFs) and AES-128-CTR (the
/// cipher), both through OpenSSL. scrypt comes from libsodium (Keystore) and the MAC is
/// `Keccak256`.
///
/// Security: keys and plaintexts live in `SecretBytes`; the ciphertext is public.
package enum KeystoreFileCrypto {
    /// PBKDF2-HMAC-SHA256(password, salt, iterations) → `length` secret bytes.
    /// - Throws: `KeyError.badLength` for lengths beyond `Int32`, `.cryptoFailure` when OpenSSL fails.
    package static func pbkdf2SHA256(
        password: SecretBytes, salt: [UInt8], iterations: Int, length: Int
    ) throws -> SecretBytes {
        guard let saltLength = Int32(exactly: salt.count), let rounds = Int32(exactly: iterations), rounds > 0,
            let outLength = Int32(exactly: length), let passwordLength = Int32(exactly: password.count)
        else { throw KeyError(.badLength, "PBKDF2 parameter out of range") }
        var rc: Int32 = 0
        let out = SecretBytes(count: length) { dst in
            password.withUnsafeBytes { pw in
                pw.withMemoryRebound(to: CChar.self) { chars in
                    rc = PKCS5_PBKDF2_HMAC(
                        chars.baseAddress, passwordLength, salt, saltLength, rounds, EVP_sha256(), outLength,
                        dst.u8)
                }
            }
        }
        guard rc == 1 else { throw KeyError(.cryptoFailure, "PKCS5_PBKDF2_HMAC failed") }
        return out
    }

    /// AES-128-CTR encryption of a secret (16-byte key, 16-byte IV): the public ciphertext.
    package static func aes128ctrEncrypt(_ plaintext: SecretBytes, key: SecretBytes, iv: [UInt8]) throws -> [UInt8] {
        try plaintext.withUnsafeBytes { p in try crypt(p, key: key, iv: iv) }
    }

    /// AES-128-CTR decryption into secret storage.
    package static func aes128ctrDecrypt(_ ciphertext: [UInt8], key: SecretBytes, iv: [UInt8]) throws -> SecretBytes {
        var plain = try ciphertext.withUnsafeBytes { c in try crypt(c, key: key, iv: iv) }
        defer { ConstantTime.wipe(&plain) }
        return SecretBytes(plain)
    }

    private static func crypt(_ input: UnsafeRawBufferPointer, key: SecretBytes, iv: [UInt8]) throws -> [UInt8] {
        guard key.count == 16, iv.count == 16 else {
            throw KeyError(.badLength, "AES-128-CTR takes a 16-byte key and IV")
        }
        guard let length = Int32(exactly: input.count) else { throw KeyError(.badLength, "input too long") }
        guard let ctx = EVP_CIPHER_CTX_new() else { throw KeyError(.cryptoFailure, "EVP_CIPHER_CTX_new failed") }
        defer { EVP_CIPHER_CTX_free(ctx) }
        var out = [UInt8](repeating: 0, count: input.count + 16)
        var written: Int32 = 0
        var final: Int32 = 0
        let ok = key.withUnsafeBytes { k -> Bool in
            guard
                EVP_EncryptInit_ex(ctx, EVP_aes_128_ctr(), nil, k.baseAddress?.assumingMemoryBound(to: UInt8.self), iv)
                    == 1
            else { return false }
            let inPointer = input.baseAddress?.assumingMemoryBound(to: UInt8.self)
            let rc = out.withUnsafeMutableBufferPointer { o -> Bool in
                guard let base = o.baseAddress else { return false }
                guard input.isEmpty || EVP_EncryptUpdate(ctx, base, &written, inPointer, length) == 1 else {
                    return false
                }
                return EVP_EncryptFinal_ex(ctx, base + Int(written), &final) == 1
            }
            return rc
        }
        guard ok else {
            ConstantTime.wipe(&out)
            throw KeyError(.cryptoFailure, "AES-128-CTR failed")
        }
        let result = Array(out.prefix(Int(written + final)))
        ConstantTime.wipe(&out)
        return result
    }
}
