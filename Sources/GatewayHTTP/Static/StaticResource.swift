/// One file served from memory: its bytes, an optional precompressed gzip variant, and strong ETags
/// for each representation (RFC 9110 §8.8.3). Built once at load; immutable.
package struct StaticResource: Sendable {
    /// The URL path (`/bridge.js`).
    package let path: String
    /// The `Content-Type` value.
    package let contentType: String
    /// The identity representation.
    package let body: [UInt8]
    /// The gzip representation, when it is smaller.
    package let gzipBody: [UInt8]?
    /// Strong ETag of the identity representation (quoted).
    package let etag: String
    /// Strong ETag of the gzip representation (quoted).
    package let gzipETag: String?

    /// Builds a resource, compressing text-like types of 256 bytes or more.
    package init(path: String, body: [UInt8], contentType: String? = nil) {
        self.path = path
        self.body = body
        let type = contentType ?? MediaType.forPath(path)
        self.contentType = type
        let tag = Self.fingerprint(body)
        self.etag = "\"\(tag)\""
        if MediaType.isCompressible(type), body.count >= 256, let packed = Gzip.compress(body),
            packed.count < body.count - body.count / 10
        {
            gzipBody = packed
            gzipETag = "\"\(tag)-gz\""
        } else {
            gzipBody = nil
            gzipETag = nil
        }
    }

    /// FNV-1a 64 of the bytes plus their length, hex: changes whenever the content does
    /// (not a security hash; ETags are validators, not integrity checks).
    static func fingerprint(_ bytes: [UInt8]) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        return String(hash, radix: 16) + "-" + String(bytes.count, radix: 16)
    }
}
