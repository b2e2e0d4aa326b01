import COpenSSL
import Glibc
import Primitives

/// A server-side TLS configuration (an OpenSSL `SSL_CTX`) loaded from a PEM certificate chain and a
/// PEM private key; set it as `HTTPServerConfiguration.tls` to serve HTTPS. One context can serve
/// several servers (the dapp port and the approval port).
///
/// Policy (Mozilla "intermediate" server profile, 2023):
/// - TLS 1.2 and 1.3 only (RFC 8996 deprecates 1.0/1.1).
/// - TLS 1.2: ECDHE key exchange with AEAD ciphers only (AES-GCM, ChaCha20-Poly1305); TLS 1.3:
///   OpenSSL's default suites (all AEAD).
/// - No renegotiation, no compression (CRIME), server cipher order, no session tickets and no
///   session cache (every connection does a full handshake; nothing to rotate).
/// - An encrypted private key is refused (no passphrase prompt on the terminal).
///
/// Thread safety: the `SSL_CTX` is configured completely in `init` and never changed afterwards;
/// OpenSSL documents `SSL_new` on a configured context as safe from any thread, hence
/// `@unchecked Sendable`. Input: the two files are trusted configuration, but a malformed file only
/// throws. Errors name the file and carry OpenSSL's reason, never key bytes.
package final class TLSContext: @unchecked Sendable {
    /// The TLS 1.2 cipher list: ECDHE + AEAD only.
    static let tls12Ciphers = [
        "ECDHE-ECDSA-AES128-GCM-SHA256", "ECDHE-RSA-AES128-GCM-SHA256",
        "ECDHE-ECDSA-AES256-GCM-SHA384", "ECDHE-RSA-AES256-GCM-SHA384",
        "ECDHE-ECDSA-CHACHA20-POLY1305", "ECDHE-RSA-CHACHA20-POLY1305",
    ].joined(separator: ":")

    /// The `SSL_CTX *`, owned; freed in `deinit`.
    let pointer: OpaquePointer
    /// The certificate chain file this context was loaded from.
    package let certificateFile: String
    /// The private key file this context was loaded from.
    package let keyFile: String

    /// Loads and checks a certificate chain and its private key.
    /// - Parameters:
    ///   - certificateFile: PEM, the leaf certificate first, then any intermediates.
    ///   - keyFile: PEM private key (PKCS#8 or traditional), not encrypted.
    /// - Throws: `HTTPError` `.tlsCertificateLoadFailed`, `.tlsKeyLoadFailed` (missing, unreadable or
    ///   malformed file; the reason names it), `.tlsKeyMismatch`, or `.tlsFailed`.
    package init(certificateFile: String, keyFile: String) throws(HTTPError) {
        ERR_clear_error()
        guard let context = SSL_CTX_new(TLS_server_method()) else {
            throw HTTPError(.tlsFailed, "SSL_CTX_new: \(OpenSSLErrors.drain())")
        }
        self.pointer = context
        self.certificateFile = certificateFile
        self.keyFile = keyFile
        try configure()
        try Self.checkReadable(certificateFile, code: .tlsCertificateLoadFailed, what: "certificate")
        if SSL_CTX_use_certificate_chain_file(context, certificateFile) != 1 {
            throw HTTPError(
                .tlsCertificateLoadFailed,
                "certificate file \(certificateFile): no usable PEM certificate (\(OpenSSLErrors.drain()))")
        }
        try Self.checkReadable(keyFile, code: .tlsKeyLoadFailed, what: "private key")
        // Parsed here (not with SSL_CTX_use_PrivateKey_file) so that "not a key" and "not this
        // certificate's key" are told apart.
        let key = try Self.readPrivateKey(keyFile)
        defer { EVP_PKEY_free(key) }
        if SSL_CTX_use_PrivateKey(context, key) != 1 || SSL_CTX_check_private_key(context) != 1 {
            throw HTTPError(
                .tlsKeyMismatch,
                "private key file \(keyFile) does not match certificate file \(certificateFile) (\(OpenSSLErrors.drain()))"
            )
        }
        ERR_clear_error()
    }

    deinit { SSL_CTX_free(pointer) }

    private func configure() throws(HTTPError) {
        // SSL_CTX_set_min_proto_version and SSL_CTX_set_session_cache_mode are macros over SSL_CTX_ctrl.
        guard SSL_CTX_ctrl(pointer, SSL_CTRL_SET_MIN_PROTO_VERSION, Int(TLS1_2_VERSION), nil) == 1 else {
            throw HTTPError(.tlsFailed, "cannot set TLS 1.2 as the minimum: \(OpenSSLErrors.drain())")
        }
        _ = SSL_CTX_set_options(pointer, sigil_tls_server_options())
        _ = SSL_CTX_ctrl(pointer, SSL_CTRL_SET_SESS_CACHE_MODE, Int(SSL_SESS_CACHE_OFF), nil)
        // TLS 1.3 would otherwise send session tickets after the handshake.
        _ = SSL_CTX_set_num_tickets(pointer, 0)
        guard SSL_CTX_set_cipher_list(pointer, Self.tls12Ciphers) == 1 else {
            throw HTTPError(.tlsFailed, "cipher list rejected: \(OpenSSLErrors.drain())")
        }
        // ALPN (RFC 7301): pick "http/1.1" when the client offers it; otherwise send no ALPN answer
        // (never h2: this server speaks HTTP/1.1 only).
        SSL_CTX_set_alpn_select_cb(
            pointer,
            { _, out, outLength, offered, offeredLength, _ in
                guard let out, let outLength, let offered else { return SSL_TLSEXT_ERR_NOACK }
                return TLSContext.selectHTTP11(offered, Int(offeredLength), out, outLength)
            }, nil)
        // No passphrase prompt on the terminal: an encrypted key simply fails to load.
        SSL_CTX_set_default_passwd_cb(pointer) { _, _, _, _ in 0 }
    }

    private static func readPrivateKey(_ path: String) throws(HTTPError) -> OpaquePointer {
        guard let file = BIO_new_file(path, "r") else {
            throw HTTPError(.tlsKeyLoadFailed, "private key file \(path): cannot open (\(OpenSSLErrors.drain()))")
        }
        defer { BIO_free(file) }
        // The callback supplies no passphrase: an encrypted key fails instead of prompting.
        guard let key = PEM_read_bio_PrivateKey(file, nil, { _, _, _, _ in 0 }, nil) else {
            throw HTTPError(
                .tlsKeyLoadFailed,
                "private key file \(path): no usable unencrypted PEM private key (\(OpenSSLErrors.drain()))")
        }
        return key
    }

    /// Finds "http/1.1" in the client's ALPN list (length-prefixed names, untrusted; every length is
    /// checked against the list's end) and points `out` at it inside that list, as OpenSSL allows.
    static func selectHTTP11(
        _ offered: UnsafePointer<UInt8>, _ count: Int,
        _ out: UnsafeMutablePointer<UnsafePointer<UInt8>?>, _ outLength: UnsafeMutablePointer<UInt8>
    ) -> Int32 {
        let wanted = Array("http/1.1".utf8)
        var index = 0
        while index < count {
            let length = Int(offered[index])
            let start = index + 1
            guard length > 0, start + length <= count else { break }
            if length == wanted.count && (0..<length).allSatisfy({ offered[start + $0] == wanted[$0] }) {
                out.pointee = offered + start
                outLength.pointee = UInt8(length)
                return SSL_TLSEXT_ERR_OK
            }
            index = start + length
        }
        return SSL_TLSEXT_ERR_NOACK
    }

    private static func checkReadable(_ path: String, code: HTTPError.Code, what: String) throws(HTTPError) {
        if access(path, R_OK) != 0 {
            throw HTTPError(code, "\(what) file \(path): \(Socket.errorName(errno))")
        }
    }
}
