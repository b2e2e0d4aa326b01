import COpenSSL
import Primitives

/// FIPS 202 SHA3-256 (padding `0x06`), the hash of ICON transactions and addresses
/// (docs/reference/icon.md §3, §5). Not Keccak-256 (`Keccak256`, padding `0x01`). OpenSSL EVP.
///
/// Security: public data only (transaction text, public keys); deterministic; any input length.
package enum SHA3_256 {
    /// The 32-byte digest of `data`.
    package static func hash(_ data: [UInt8]) -> [UInt8] { OpenSSLDigest.digest(EVP_sha3_256(), data, length: 32) }
}

/// The OpenSSL digests BIP32 needs besides SHA3-256 (docs/reference/icon.md §6): SHA-256 (Base58Check
/// checksums, HASH160), RIPEMD-160 (HASH160 fingerprints) and HMAC-SHA512 (key derivation).
enum OpenSSLDigest {
    /// One-shot EVP digest. OpenSSL's digests fail only on allocation failure, which is as fatal as
    /// any other allocation failure in Swift; the output length is fixed by the algorithm.
    static func digest(_ md: OpaquePointer?, _ data: [UInt8], length: Int) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var outLength: UInt32 = 0
        let rc = data.withNonNullPointer { p, n in EVP_Digest(p, n, &out, &outLength, md, nil) }
        guard rc == 1, Int(outLength) == length else {
            preconditionFailure("EVP_Digest failed (an OpenSSL build without this digest)")
        }
        return Array(out.prefix(length))
    }

    static func sha256(_ data: [UInt8]) -> [UInt8] { digest(EVP_sha256(), data, length: 32) }

    /// RIPEMD-160(SHA-256(data)), Bitcoin's HASH160 (BIP32 key identifiers and fingerprints).
    static func hash160(_ data: [UInt8]) -> [UInt8] { digest(EVP_ripemd160(), sha256(data), length: 20) }

    /// HMAC-SHA512(key, data) into secret storage (BIP32 I = IL ‖ IR, both secret).
    static func hmacSHA512(key: UnsafeRawBufferPointer, data: UnsafeRawBufferPointer) throws -> SecretBytes {
        guard let keyLength = Int32(exactly: key.count) else { throw KeyError(.badLength, "HMAC key too long") }
        var rc = true
        let out = SecretBytes(count: 64) { dst in
            var length: UInt32 = 0
            let keyPointer = key.baseAddress ?? UnsafeRawPointer(dst.u8)
            let dataPointer = data.baseAddress?.assumingMemoryBound(to: UInt8.self) ?? UnsafePointer(dst.u8)
            guard
                HMAC(EVP_sha512(), keyPointer, keyLength, dataPointer, data.count, dst.u8, &length) != nil,
                length == 64
            else {
                rc = false
                return
            }
        }
        guard rc else { throw KeyError(.cryptoFailure, "HMAC-SHA512 failed") }
        return out
    }
}
