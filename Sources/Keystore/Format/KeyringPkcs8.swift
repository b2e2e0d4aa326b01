import Primitives

/// The plaintext inside a polkadot-js keyring JSON file. It is called "PKCS8" but is not DER: a fixed
/// 16-byte header, the secret, a fixed 5-byte divider, the public key (docs/reference/crypto.md §7.3;
/// `keyring/src/pair/{encode,decode}.ts`).
///
/// ```
/// generation 3:  HDR(16) ‖ secret(64) ‖ DIV(5) ‖ public(32)        117 bytes (sr25519, ed25519)
/// ecdsa:         HDR(16) ‖ secret(32) ‖ DIV(5) ‖ public(33)         86 bytes
/// generation 1/2 HDR(16) ‖ seed(32)   ‖ DIV(5) ‖ public(32)         85 bytes
/// ```
///
/// Security: the input is decrypted but still untrusted (an old or foreign writer); parsing checks
/// every length and never reads out of bounds. Unlike polkadot-js, trailing bytes are rejected.
struct KeyringPkcs8: Sendable {
    static let header: [UInt8] = [
        0x30, 0x53, 0x02, 0x01, 0x01, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x70, 0x04, 0x22, 0x04, 0x20,
    ]
    static let divider: [UInt8] = [0xa1, 0x23, 0x03, 0x21, 0x00]

    /// The secret exactly as stored: 64 bytes (sr25519 ed25519-form key ‖ nonce, or ed25519 seed ‖ public)
    /// or 32 bytes (ecdsa secret, or a generation 1/2 seed).
    let secret: SecretBytes
    /// The public key bytes after the divider (32, or 33 for ecdsa). polkadot-js does not check it; we do.
    let publicKey: [UInt8]

    /// Builds the plaintext: `HDR ‖ secret ‖ DIV ‖ public` (`encodePair`).
    static func encode(secret: SecretBytes, publicKey: [UInt8]) -> SecretBytes {
        SecretBytes(count: header.count + secret.count + divider.count + publicKey.count) { o in
            var i = 0
            for b in header { o[i] = b; i += 1 }
            secret.withBytes { s in for b in s { o[i] = b; i += 1 } }
            for b in divider { o[i] = b; i += 1 }
            for b in publicKey { o[i] = b; i += 1 }
        }
    }

    /// Parses a decrypted plaintext (`decodePair`).
    /// - Parameter publicKeyLength: 32 for sr25519/ed25519, 33 for ecdsa.
    /// - Throws: `.malformedFile` with the offset that did not match.
    static func decode(_ plain: SecretBytes, publicKeyLength: Int) throws(KeystoreError) -> KeyringPkcs8 {
        try plain.withBytes { (d) throws(KeystoreError) -> KeyringPkcs8 in
            guard d.count >= header.count, d.elementsEqual(header, prefixLength: header.count) else {
                throw KeystoreError(.malformedFile, "decrypted key does not start with the PKCS8 header (offset 0)")
            }
            let secretLength: Int
            if d.count == header.count + 64 + divider.count + publicKeyLength,
                d.matches(divider, at: header.count + 64)
            {
                secretLength = 64  // generation 3
            } else if d.count == header.count + 32 + divider.count + publicKeyLength,
                d.matches(divider, at: header.count + 32)
            {
                secretLength = 32  // generation 1/2 seed, or ecdsa
            } else {
                throw KeystoreError(
                    .malformedFile,
                    "decrypted key is \(d.count) bytes with no divider at offset 80 or 48 for a \(publicKeyLength)-byte public key"
                )
            }
            let secretStart = header.count
            let publicStart = secretStart + secretLength + divider.count
            let secret = SecretBytes(UnsafeBufferPointer(rebasing: d[secretStart..<(secretStart + secretLength)]))
            return KeyringPkcs8(secret: secret, publicKey: Array(d[publicStart...]))
        }
    }
}

extension UnsafeBufferPointer<UInt8> {
    fileprivate func elementsEqual(_ other: [UInt8], prefixLength: Int) -> Bool {
        count >= prefixLength && matches(other, at: 0)
    }

    fileprivate func matches(_ other: [UInt8], at offset: Int) -> Bool {
        guard offset >= 0, offset + other.count <= count else { return false }
        for (i, b) in other.enumerated() where self[offset + i] != b { return false }
        return true
    }
}
