import COpenSSL
import Primitives

/// SHA-224 (FIPS 180-4) via OpenSSL EVP: Internet Computer principals and account identifiers
/// (docs/reference/icp.md §4). Public data only.
package enum SHA224 {
    /// The 28-byte digest of `data`.
    package static func hash(_ data: [UInt8]) -> [UInt8] { OpenSSLDigest.digest(EVP_sha224(), data, length: 28) }
}

/// SHA-256 (FIPS 180-4) via OpenSSL EVP: Internet Computer request ids and the digest its secp256k1
/// signatures are made over (docs/reference/icp.md §2–§3). Public data only.
package enum SHA256 {
    /// The 32-byte digest of `data`.
    package static func hash(_ data: [UInt8]) -> [UInt8] { OpenSSLDigest.sha256(data) }
}
