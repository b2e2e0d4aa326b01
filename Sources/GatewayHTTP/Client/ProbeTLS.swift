import COpenSSL
import Glibc
import Primitives

/// The TLS client side of `HTTPProbe`: OpenSSL directly on a non-blocking socket (`SSL_set_fd`),
/// waiting with `poll` for `SSL_ERROR_WANT_READ`/`WANT_WRITE` until the probe's deadline. Used on
/// one thread only, then freed (`deinit`).
final class ProbeTLS {
    private let context: OpaquePointer
    private let ssl: OpaquePointer
    private let fd: Int32
    private let verifies: Bool

    /// - Parameters:
    ///   - insecure: skip certificate verification (the caller has checked the peer is loopback).
    init(fd: Int32, target: HTTPProbe.Target, caFile: String?, insecure: Bool) throws(HTTPError) {
        ERR_clear_error()
        guard let context = SSL_CTX_new(TLS_client_method()) else {
            throw HTTPError(.probeFailed, "TLS: \(OpenSSLErrors.drain())")
        }
        guard SSL_CTX_ctrl(context, SSL_CTRL_SET_MIN_PROTO_VERSION, Int(TLS1_2_VERSION), nil) == 1 else {
            SSL_CTX_free(context)
            throw HTTPError(.probeFailed, "TLS: cannot require TLS 1.2: \(OpenSSLErrors.drain())")
        }
        verifies = !insecure
        if verifies {
            let loaded =
                if let caFile { SSL_CTX_load_verify_locations(context, caFile, nil) == 1 } else {
                    SSL_CTX_set_default_verify_paths(context) == 1
                }
            guard loaded else {
                SSL_CTX_free(context)
                throw HTTPError(
                    .probeFailed, "TLS: cannot load the CA file \(caFile ?? "(system)"): \(OpenSSLErrors.drain())")
            }
            SSL_CTX_set_verify(context, SSL_VERIFY_PEER, nil)
        } else {
            SSL_CTX_set_verify(context, SSL_VERIFY_NONE, nil)
        }
        guard let ssl = SSL_new(context) else {
            SSL_CTX_free(context)
            throw HTTPError(.probeFailed, "TLS: \(OpenSSLErrors.drain())")
        }
        self.context = context
        self.ssl = ssl
        self.fd = fd
        SSL_set_fd(ssl, fd)
        let isAddress = Self.isNumericAddress(target.host)
        if !isAddress {
            // SNI (RFC 6066 §3); SSL_set_tlsext_host_name is a macro over SSL_ctrl.
            _ = target.host.withCString {
                SSL_ctrl(
                    ssl, SSL_CTRL_SET_TLSEXT_HOSTNAME, Int(TLSEXT_NAMETYPE_host_name),
                    UnsafeMutableRawPointer(mutating: $0))
            }
        }
        if verifies {
            // RFC 6125 name check (DNS SAN) or RFC 5280 iPAddress SAN for a numeric host.
            let ok =
                isAddress
                ? X509_VERIFY_PARAM_set1_ip_asc(SSL_get0_param(ssl), target.host) == 1
                : SSL_set1_host(ssl, target.host) == 1
            guard ok else { throw HTTPError(.probeFailed, "TLS: cannot set the expected host name") }
        }
    }

    deinit {
        SSL_free(ssl)
        SSL_CTX_free(context)
    }

    static func isNumericAddress(_ host: String) -> Bool {
        var v4 = in_addr()
        var v6 = in6_addr()
        return inet_pton(AF_INET, host, &v4) == 1 || inet_pton(AF_INET6, host, &v6) == 1
    }

    func handshake(deadline: ProbeDeadline) throws(HTTPError) {
        while true {
            ERR_clear_error()
            let rc = SSL_connect(ssl)
            if rc == 1 { return }
            let reason = try waitOrFail(rc, deadline: deadline, doing: "TLS handshake")
            if let reason {
                let verify = SSL_get_verify_result(ssl)
                if verifies && verify != X509_V_OK {
                    let text = X509_verify_cert_error_string(verify).map { String(cString: $0) } ?? "error \(verify)"
                    throw HTTPError(.probeFailed, "TLS certificate verification failed: \(text)")
                }
                throw HTTPError(.probeFailed, "TLS handshake failed: \(reason)")
            }
        }
    }

    func write(_ bytes: [UInt8], deadline: ProbeDeadline) throws(HTTPError) {
        var offset = 0
        while offset < bytes.count {
            ERR_clear_error()
            let n = bytes[offset...].withUnsafeBytes { SSL_write(ssl, $0.baseAddress, Int32($0.count)) }
            if n > 0 {
                offset += Int(n)
                continue
            }
            if let reason = try waitOrFail(n, deadline: deadline, doing: "sending the request") {
                throw HTTPError(.probeFailed, "sending the request: \(reason)")
            }
        }
    }

    func readAll(limit: Int, deadline: ProbeDeadline) throws(HTTPError) -> [UInt8] {
        var result: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        while result.count < limit {
            ERR_clear_error()
            let n = buffer.withUnsafeMutableBytes { SSL_read(ssl, $0.baseAddress, Int32($0.count)) }
            if n > 0 {
                result.append(contentsOf: buffer[0..<min(Int(n), limit - result.count)])
                continue
            }
            let error = SSL_get_error(ssl, n)
            // close_notify, or a plain EOF after a complete response: done either way.
            if error == SSL_ERROR_ZERO_RETURN || (error == SSL_ERROR_SYSCALL && !result.isEmpty) { break }
            if error == SSL_ERROR_SSL && !result.isEmpty { break }
            if let reason = try waitOrFail(n, deadline: deadline, doing: "reading the response") {
                throw HTTPError(.probeFailed, "reading the response: \(reason)")
            }
        }
        return result
    }

    /// After a non-positive OpenSSL return: waits (WANT_READ/WANT_WRITE) and returns nil to retry,
    /// or returns the failure text. Throws on timeout.
    private func waitOrFail(_ rc: Int32, deadline: ProbeDeadline, doing: String) throws(HTTPError) -> String? {
        let error = SSL_get_error(ssl, rc)
        let events: Int16
        switch error {
        case SSL_ERROR_WANT_READ: events = Int16(POLLIN)
        case SSL_ERROR_WANT_WRITE: events = Int16(POLLOUT)
        case SSL_ERROR_SYSCALL:
            let e = errno
            if e == EINTR { return nil }
            return e == 0 ? "the server closed the connection" : Socket.errorName(e)
        case SSL_ERROR_ZERO_RETURN: return "the server closed the connection"
        default: return OpenSSLErrors.drain()
        }
        guard HTTPProbe.wait(fd, events: events, deadline: deadline) else {
            throw HTTPError(.probeFailed, "\(doing): timed out")
        }
        return nil
    }
}
