import COpenSSL
import Glibc

extension TestClient {
    /// Runs a blocking TLS client handshake on this connection with OpenSSL, trusting only `caFile`
    /// and verifying the server's name (`host`, a DNS name) or address (`ip`).
    /// - Parameters:
    ///   - maxVersion: e.g. `TLS1_2_VERSION` to force TLS 1.2; `minVersion` for old protocols.
    func startTLS(
        trusting caFile: String, host: String? = "localhost", ip: String? = nil,
        minVersion: Int32? = nil, maxVersion: Int32? = nil, alpn: [String] = []
    ) throws {
        guard let context = SSL_CTX_new(TLS_client_method()) else { throw Failure(description: "SSL_CTX_new") }
        sslContext = context
        if let minVersion {
            // TLS 1.0/1.1 need security level 0 in OpenSSL 3 even to be offered.
            SSL_CTX_set_security_level(context, 0)
            _ = SSL_CTX_set_cipher_list(context, "DEFAULT:@SECLEVEL=0")
            _ = SSL_CTX_ctrl(context, SSL_CTRL_SET_MIN_PROTO_VERSION, Int(minVersion), nil)
        }
        if let maxVersion { _ = SSL_CTX_ctrl(context, SSL_CTRL_SET_MAX_PROTO_VERSION, Int(maxVersion), nil) }
        guard SSL_CTX_load_verify_locations(context, caFile, nil) == 1 else {
            throw Failure(description: "cannot load \(caFile)")
        }
        SSL_CTX_set_verify(context, SSL_VERIFY_PEER, nil)
        guard let ssl = SSL_new(context) else { throw Failure(description: "SSL_new") }
        self.ssl = ssl
        if let host { SSL_set1_host(ssl, host) }
        if let ip, let param = SSL_get0_param(ssl) { X509_VERIFY_PARAM_set1_ip_asc(param, ip) }
        if !alpn.isEmpty {
            let wire = alpn.flatMap { [UInt8($0.utf8.count)] + Array($0.utf8) }
            guard SSL_set_alpn_protos(ssl, wire, UInt32(wire.count)) == 0 else {
                throw Failure(description: "SSL_set_alpn_protos")
            }
        }
        SSL_set_fd(ssl, fd)
        ERR_clear_error()
        let rc = SSL_connect(ssl)
        guard rc == 1 else {
            let code = ERR_peek_last_error()
            var text = [CChar](repeating: 0, count: 256)
            ERR_error_string_n(code, &text, text.count)
            ERR_clear_error()
            let reason = String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            throw Failure(description: "TLS handshake failed: \(reason)")
        }
    }

    /// The negotiated protocol version (`TLS1_3_VERSION`, …).
    var tlsVersion: Int32 { ssl.map { SSL_version($0) } ?? 0 }

    /// The protocol the server chose by ALPN, or "" when it chose none.
    var tlsALPN: String {
        guard let ssl else { return "" }
        var data: UnsafePointer<UInt8>?
        var length: UInt32 = 0
        SSL_get0_alpn_selected(ssl, &data, &length)
        guard let data else { return "" }
        return String(decoding: UnsafeBufferPointer(start: data, count: Int(length)), as: UTF8.self)
    }

    /// The negotiated cipher's OpenSSL name.
    var tlsCipher: String {
        guard let ssl, let cipher = SSL_get_current_cipher(ssl), let name = SSL_CIPHER_get_name(cipher) else {
            return ""
        }
        return String(cString: name)
    }
}
