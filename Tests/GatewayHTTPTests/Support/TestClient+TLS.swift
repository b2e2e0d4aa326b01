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

/// Raw handshake steps for deadline tests: a real OpenSSL client over two memory BIOs, so the test
/// decides exactly which handshake bytes reach the server and when.
extension TestClient {
    /// A client OpenSSL session in connect state over memory BIOs (no verification: these tests are
    /// about the server's deadlines, not about trust). Freed by the caller with `SSL_free` and
    /// `SSL_CTX_free`.
    private static func memorySession() throws -> (context: OpaquePointer, ssl: OpaquePointer) {
        guard let context = SSL_CTX_new(TLS_client_method()) else { throw Failure(description: "SSL_CTX_new") }
        SSL_CTX_set_verify(context, SSL_VERIFY_NONE, nil)
        guard let ssl = SSL_new(context), let input = BIO_new(BIO_s_mem()), let output = BIO_new(BIO_s_mem()) else {
            SSL_CTX_free(context)
            throw Failure(description: "SSL_new/BIO_new")
        }
        SSL_set_bio(ssl, input, output)
        SSL_set_connect_state(ssl)
        return (context, ssl)
    }

    /// Everything the session has written so far.
    private static func drainOutput(_ ssl: OpaquePointer) -> [UInt8] {
        guard let output = SSL_get_wbio(ssl) else { return [] }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        while BIO_ctrl_pending(output) > 0 {
            let n = chunk.withUnsafeMutableBytes { BIO_read(output, $0.baseAddress, Int32($0.count)) }
            if n <= 0 { break }
            bytes += chunk[0..<Int(n)]
        }
        return bytes
    }

    /// The first flight of a real TLS client: one ClientHello record (TLS 1.3 and 1.2 offered).
    static func clientHello() throws -> [UInt8] {
        let (context, ssl) = try memorySession()
        defer {
            SSL_free(ssl)
            SSL_CTX_free(context)
        }
        ERR_clear_error()
        _ = SSL_do_handshake(ssl)
        ERR_clear_error()
        return drainOutput(ssl)
    }

    /// Runs a real handshake on this (raw) connection up to, but not including, the client's
    /// Finished: sends the ClientHello, reads the server's whole flight (ServerHello through the
    /// server's Finished), then sends nothing more. Returns the number of bytes the server sent.
    func handshakeWithholdingClientFinished() throws -> Int {
        let (context, ssl) = try Self.memorySession()
        defer {
            SSL_free(ssl)
            SSL_CTX_free(context)
        }
        var received = 0
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            ERR_clear_error()
            let rc = SSL_do_handshake(ssl)
            if received == 0 { try send(Self.drainOutput(ssl)) }  // the ClientHello
            // rc == 1: the client processed the server's Finished and wrote its own into the
            // output BIO, which is never sent.
            if rc == 1 { return received }
            guard SSL_get_error(ssl, rc) == SSL_ERROR_WANT_READ else {
                throw Failure(description: "client handshake failed: \(SSL_get_error(ssl, rc))")
            }
            let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            guard n > 0 else { throw Failure(description: "server closed or timed out mid-handshake (\(n))") }
            received += n
            guard chunk.withUnsafeBytes({ BIO_write(SSL_get_rbio(ssl), $0.baseAddress, Int32(n)) }) == Int32(n) else {
                throw Failure(description: "BIO_write")
            }
        }
    }

    /// True when the socket becomes readable (data or the peer's close) within `milliseconds`:
    /// a bounded wait on the socket's state, not a delay.
    func becomesReadable(withinMilliseconds milliseconds: Int32) -> Bool {
        var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        return poll(&descriptor, 1, milliseconds) > 0
    }

    /// Reads raw socket bytes (never through TLS) until the peer closes; `reset` is true when the
    /// close was a reset (RST) rather than an orderly FIN. Throws on the 10 s socket timeout.
    func readRawUntilClosed() throws -> (bytes: [UInt8], reset: Bool) {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n > 0 {
                bytes += chunk[0..<n]
            } else if n == 0 {
                return (bytes, false)
            } else if errno == ECONNRESET {
                return (bytes, true)
            } else if errno != EINTR {
                throw Failure(description: "recv failed or timed out: errno \(errno)")
            }
        }
    }
}
