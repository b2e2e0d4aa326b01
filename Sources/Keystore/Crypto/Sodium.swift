import CSodium
import Primitives

/// The libsodium primitives the keystore uses: scrypt (`crypto_pwhash_scryptsalsa208sha256_ll`),
/// XSalsa20-Poly1305 (`crypto_secretbox_*`), the system CSPRNG and memory wiping.
///
/// docs/reference/crypto.md §7.2 and §7.4 map the polkadot-js JSON encryption onto exactly these calls.
enum Sodium {

    /// libsodium's pointer parameters are non-null even for zero lengths; empty buffers point here.
    private nonisolated(unsafe) static let emptyBuffer = UnsafeMutablePointer<UInt8>.allocate(capacity: 1)

    private static func ptr(_ b: UnsafeBufferPointer<UInt8>) -> UnsafePointer<UInt8> {
        b.baseAddress ?? UnsafePointer(emptyBuffer)
    }

    private static func ptr(_ b: UnsafeRawBufferPointer) -> UnsafePointer<UInt8> {
        b.baseAddress?.assumingMemoryBound(to: UInt8.self) ?? UnsafePointer(emptyBuffer)
    }

    private static func mutablePtr(_ b: UnsafeMutableRawBufferPointer) -> UnsafeMutablePointer<UInt8> {
        b.baseAddress?.assumingMemoryBound(to: UInt8.self) ?? emptyBuffer
    }

    static func ensureInitialized() throws(KeystoreError) {
        guard Primitives.Sodium.ensureInitialized() else {
            throw KeystoreError(.invalidInput, "libsodium failed to initialise")
        }
    }

    /// `crypto_secretbox` key, nonce and MAC sizes.
    static let secretboxKeyBytes = 32
    static let secretboxNonceBytes = 24
    static let secretboxMacBytes = 16

    /// scrypt (Salsa20/8, SHA-256) with raw parameters, writing `outputLength` bytes into a secret buffer.
    ///
    /// Security: not constant-time in the parameters (they are public); uses `128·N·r·p` bytes of memory,
    /// so callers must bound the parameters first (`ScryptParameters.validate`).
    static func scrypt(
        password: some ContiguousBytesView, salt: [UInt8], parameters: ScryptParameters, outputLength: Int
    ) throws(KeystoreError) -> SecretBytes {
        try ensureInitialized()
        var rc: Int32 = -1
        let output = SecretBytes(count: outputLength) { out in
            rc = password.withBytes { pw in
                salt.withUnsafeBufferPointer { s in
                    crypto_pwhash_scryptsalsa208sha256_ll(
                        ptr(pw), pw.count, ptr(s), s.count,
                        UInt64(parameters.n), parameters.r, parameters.p,
                        mutablePtr(out), out.count)
                }
            }
        }
        guard rc == 0 else {
            throw KeystoreError(
                .invalidScryptParameters, "scrypt failed for N=\(parameters.n) r=\(parameters.r) p=\(parameters.p)")
        }
        return output
    }

    /// `crypto_secretbox_easy`: returns MAC(16) ‖ ciphertext.
    static func secretbox(_ plaintext: SecretBytes, nonce: [UInt8], key: SecretBytes) throws(KeystoreError)
        -> [UInt8]
    {
        try ensureInitialized()
        guard nonce.count == secretboxNonceBytes, key.count >= secretboxKeyBytes else {
            throw KeystoreError(.invalidInput, "secretbox needs a 24-byte nonce and a 32-byte key")
        }
        var out = [UInt8](repeating: 0, count: plaintext.count + secretboxMacBytes)
        let rc = plaintext.withUnsafeBytes { m in
            nonce.withUnsafeBufferPointer { n in
                key.withUnsafeBytes { k in
                    out.withUnsafeMutableBufferPointer { c in
                        crypto_secretbox_easy(
                            mutablePtr(UnsafeMutableRawBufferPointer(c)), ptr(m), UInt64(m.count), ptr(n), ptr(k))
                    }
                }
            }
        }
        guard rc == 0 else { throw KeystoreError(.invalidInput, "crypto_secretbox_easy failed") }
        return out
    }

    /// `crypto_secretbox_open_easy`: verifies the Poly1305 MAC (constant-time) and decrypts.
    /// - Throws: `.decryptFailed` when the MAC does not verify (wrong key or altered bytes).
    static func secretboxOpen(
        _ box: ArraySlice<UInt8>, nonce: ArraySlice<UInt8>, key: SecretBytes
    ) throws(KeystoreError) -> SecretBytes {
        try ensureInitialized()
        guard box.count >= secretboxMacBytes else {
            throw KeystoreError(.malformedFile, "ciphertext is \(box.count) bytes, shorter than the 16-byte MAC")
        }
        guard nonce.count == secretboxNonceBytes, key.count >= secretboxKeyBytes else {
            throw KeystoreError(.invalidInput, "secretbox needs a 24-byte nonce and a 32-byte key")
        }
        var rc: Int32 = -1
        let plain = SecretBytes(count: box.count - secretboxMacBytes) { m in
            rc = box.withUnsafeBufferPointer { c in
                nonce.withUnsafeBufferPointer { n in
                    key.withUnsafeBytes { k in
                        crypto_secretbox_open_easy(mutablePtr(m), ptr(c), UInt64(c.count), ptr(n), ptr(k))
                    }
                }
            }
        }
        guard rc == 0 else {
            throw KeystoreError(.decryptFailed, "unable to decrypt: wrong password, or the file was altered")
        }
        return plain
    }

    /// `count` bytes from the operating system's CSPRNG (`randombytes_buf`).
    static func randomBytes(_ count: Int) throws(KeystoreError) -> [UInt8] {
        try ensureInitialized()
        var out = [UInt8](repeating: 0, count: count)
        out.withUnsafeMutableBytes { randombytes_buf(mutablePtr($0), $0.count) }
        return out
    }

}

/// Read access to bytes without copying them into a Swift array (used for passwords and secrets).
protocol ContiguousBytesView {
    func withBytes<R, E: Error>(_ body: (UnsafeBufferPointer<UInt8>) throws(E) -> R) throws(E) -> R
}

extension SecretBytes: ContiguousBytesView {
    func withBytes<R, E: Error>(_ body: (UnsafeBufferPointer<UInt8>) throws(E) -> R) throws(E) -> R {
        try withUnsafeBytes { (raw) throws(E) -> R in try body(raw.bindMemory(to: UInt8.self)) }
    }
}

extension Array: ContiguousBytesView where Element == UInt8 {
    func withBytes<R, E: Error>(_ body: (UnsafeBufferPointer<UInt8>) throws(E) -> R) throws(E) -> R {
        let result: Result<R, E> = withUnsafeBufferPointer { buffer in
            do throws(E) { return .success(try body(buffer)) } catch { return .failure(error) }
        }
        return try result.get()
    }
}
