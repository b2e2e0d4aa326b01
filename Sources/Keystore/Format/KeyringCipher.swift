import Primitives

/// The encryption of a polkadot-js keyring JSON `encoded` field (docs/reference/crypto.md §7.2, §7.4;
/// `util-crypto/src/json/{encrypt,decryptData}.ts`, `scrypt/{toU8a,fromU8a}.ts`).
///
/// ```
/// encoded = salt(32) ‖ LE32 N ‖ LE32 p ‖ LE32 r ‖ nonce(24) ‖ secretbox(plain)   (scrypt files)
/// encoded = nonce(24) ‖ secretbox(plain)                                          (pre-scrypt files)
/// key     = scrypt(UTF-8 password, salt, N, r, p, dkLen 64)[0..32]   or the password padded to 32 bytes
/// ```
///
/// Security: scrypt parameters come from the untrusted file and are checked against the allow-list
/// before any memory is allocated for them. A wrong password and altered bytes both fail the Poly1305
/// check and give `.decryptFailed`; nothing distinguishes them. Encryption is randomized (fresh salt and
/// nonce from the OS CSPRNG) unless the caller supplies both, which only tests do.
enum KeyringCipher {
    static let saltLength = 32
    static let scryptLength = saltLength + 12  // SCRYPT_LENGTH = 44
    static let nonceLength = 24
    static let keyLength = 32

    /// The parts of an encrypted `encoded` blob, without decrypting.
    struct Parts {
        var salt: [UInt8]?
        var parameters: ScryptParameters?
        var nonce: ArraySlice<UInt8>
        var box: ArraySlice<UInt8>
    }

    /// Splits `data` into its parts.
    /// - Parameter usesScrypt: the file's `encoding.type` contains `"scrypt"`.
    /// - Throws: `.malformedFile` when too short, `.invalidScryptParameters` for disallowed parameters.
    static func parts(of data: [UInt8], usesScrypt: Bool) throws(KeystoreError) -> Parts {
        var offset = 0
        var salt: [UInt8]?
        var parameters: ScryptParameters?
        if usesScrypt {
            guard data.count >= scryptLength else {
                throw KeystoreError(
                    .malformedFile, "encoded is \(data.count) bytes, shorter than the 44-byte scrypt header")
            }
            salt = Array(data[0..<saltLength])
            let params = ScryptParameters(
                n: readLE32(data, at: 32), p: readLE32(data, at: 36), r: readLE32(data, at: 40))  // order N, p, r
            try params.validate()
            parameters = params
            offset = scryptLength
        }
        guard data.count >= offset + nonceLength + Sodium.secretboxMacBytes else {
            throw KeystoreError(
                .malformedFile, "encoded is \(data.count) bytes, too short for a nonce and MAC at offset \(offset)")
        }
        let nonce = data[offset..<(offset + nonceLength)]
        let box = data[(offset + nonceLength)...]
        return Parts(salt: salt, parameters: parameters, nonce: nonce, box: box)
    }

    /// Decrypts an `encoded` blob.
    /// - Throws: `.malformedFile`, `.invalidScryptParameters`, `.decryptFailed`.
    static func decrypt(_ data: [UInt8], password: Passphrase, usesScrypt: Bool) throws(KeystoreError) -> SecretBytes {
        let parts = try parts(of: data, usesScrypt: usesScrypt)
        let key = try deriveKey(password: password, salt: parts.salt, parameters: parts.parameters)
        return try Sodium.secretboxOpen(parts.box, nonce: parts.nonce, key: key)
    }

    /// The 32-byte secretbox key: scrypt's first 32 of 64 bytes, or for pre-scrypt files the password
    /// zero-padded or truncated to 32 bytes (`u8aFixLength(password, 256, true)`).
    static func deriveKey(
        password: Passphrase, salt: [UInt8]?, parameters: ScryptParameters?
    ) throws(KeystoreError) -> SecretBytes {
        if let salt, let parameters {
            let key64 = try Sodium.scrypt(
                password: password.secret, salt: salt, parameters: parameters, outputLength: 64)
            return key64.slice(0..<keyLength)
        }
        return SecretBytes(count: keyLength) { k in
            password.secret.withBytes { pw in
                for i in 0..<min(pw.count, keyLength) { k[i] = pw[i] }
            }
        }
    }

    /// Encrypts `plaintext` with a fresh salt and nonce (or the given ones, for deterministic tests).
    /// - Returns: `salt ‖ LE32 N ‖ LE32 p ‖ LE32 r ‖ nonce ‖ MAC ‖ ciphertext`.
    static func encrypt(
        _ plaintext: SecretBytes, password: Passphrase, parameters: ScryptParameters,
        salt fixedSalt: [UInt8]? = nil, nonce fixedNonce: [UInt8]? = nil
    ) throws(KeystoreError) -> [UInt8] {
        try parameters.validate()
        guard !password.isEmpty else {
            throw KeystoreError(.passwordRequired, "refusing to encrypt with an empty password")
        }
        let salt: [UInt8]
        if let fixedSalt { salt = fixedSalt } else { salt = try Sodium.randomBytes(saltLength) }
        let nonce: [UInt8]
        if let fixedNonce { nonce = fixedNonce } else { nonce = try Sodium.randomBytes(nonceLength) }
        guard salt.count == saltLength, nonce.count == nonceLength else {
            throw KeystoreError(.invalidInput, "salt must be 32 bytes and nonce 24 bytes")
        }
        let key = try deriveKey(password: password, salt: salt, parameters: parameters)
        let box = try Sodium.secretbox(plaintext, nonce: nonce, key: key)
        var out = salt
        out.reserveCapacity(scryptLength + nonceLength + box.count)
        appendLE32(parameters.n, to: &out)
        appendLE32(parameters.p, to: &out)
        appendLE32(parameters.r, to: &out)
        out += nonce
        out += box
        return out
    }

    private static func readLE32(_ d: [UInt8], at i: Int) -> UInt32 {
        UInt32(d[i]) | UInt32(d[i + 1]) << 8 | UInt32(d[i + 2]) << 16 | UInt32(d[i + 3]) << 24
    }

    private static func appendLE32(_ v: UInt32, to out: inout [UInt8]) {
        out += [
            UInt8(truncatingIfNeeded: v), UInt8(truncatingIfNeeded: v >> 8),
            UInt8(truncatingIfNeeded: v >> 16), UInt8(truncatingIfNeeded: v >> 24),
        ]
    }
}
