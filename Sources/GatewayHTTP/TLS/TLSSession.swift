import COpenSSL

/// The server side of one TLS connection, as a pure byte transform over two OpenSSL memory BIOs:
/// ciphertext read from the socket goes in with `receive`, plaintext to send goes in with `seal`, and
/// ciphertext to send comes out of `takeOutput`. OpenSSL never touches the socket.
///
/// Why memory BIOs (and not `SSL_set_fd`): the `Connection` keeps doing all socket I/O itself, so
/// its non-blocking reads, its gather-writes (`sendmsg` of queued buffers), EAGAIN handling, write
/// source arming and back-pressure are exactly the same for TLS and plain HTTP. A memory BIO never
/// blocks: `SSL_ERROR_WANT_READ` just means "wait for the next readable event", and
/// `SSL_ERROR_WANT_WRITE` cannot happen (the output BIO grows; the connection's pending-output
/// limits bound it). The handshake runs inside `receive` (the first `SSL_read` drives it), on the
/// connection's read events, and is bounded by the connection's header deadline.
///
/// Thread safety: an `SSL` object must not be used from two threads at once. A session belongs to
/// one `Connection` and is only used on that connection's event-loop queue (serial: one thread at a
/// time), so it is `@unchecked Sendable`. The `SSL` (and the two BIOs it owns) is freed once, in `deinit`.
///
/// Untrusted input: every byte given to `receive`. A malformed record, plain HTTP on the TLS port,
/// or a failed handshake returns `.failed` (never traps); after that the session only refuses.
final class TLSSession: @unchecked Sendable {
    enum ReceiveOutcome: Equatable {
        /// All input consumed; plaintext (if any) was delivered.
        case open
        /// The peer sent close_notify: no more plaintext will come.
        case peerClosed
        /// A fatal TLS error (bad handshake, bad record, not TLS at all); `takeOutput` may hold an alert.
        case failed(String)
    }

    private let ssl: OpaquePointer
    /// Owned by `ssl` (SSL_set_bio); kept for BIO_write/BIO_read.
    private let input: OpaquePointer
    private let output: OpaquePointer
    private(set) var failed = false

    /// Creates a session in accept (server) state; nil if OpenSSL cannot allocate one.
    init?(context: TLSContext) {
        ERR_clear_error()
        guard let ssl = SSL_new(context.pointer) else {
            ERR_clear_error()
            return nil
        }
        guard let input = BIO_new(BIO_s_mem()) else {
            SSL_free(ssl)
            return nil
        }
        guard let output = BIO_new(BIO_s_mem()) else {
            BIO_free(input)
            SSL_free(ssl)
            return nil
        }
        // An empty input BIO reports "retry" (the default EOF return of -1), so SSL_read says
        // SSL_ERROR_WANT_READ rather than EOF.
        SSL_set_bio(ssl, input, output)
        SSL_set_accept_state(ssl)
        self.ssl = ssl
        self.input = input
        self.output = output
    }

    deinit { SSL_free(ssl) }

    /// True once the handshake completed.
    var handshakeDone: Bool { SSL_is_init_finished(ssl) == 1 }

    /// Feeds ciphertext from the socket, runs the handshake as far as it can, and delivers every
    /// plaintext byte that is now available. Handshake replies and alerts are left for `takeOutput`.
    func receive(_ bytes: UnsafeRawBufferPointer, deliver: (UnsafeRawBufferPointer) -> Void) -> ReceiveOutcome {
        if failed { return .failed("session already failed") }
        var offset = 0
        while offset < bytes.count, let base = bytes.baseAddress {
            let length = Int32(clamping: bytes.count - offset)
            let n = BIO_write(input, base + offset, length)
            if n <= 0 { return fail("BIO_write") }
            offset += Int(n)
        }
        return withUnsafeTemporaryAllocation(byteCount: 16 * 1024, alignment: 16) { scratch in
            while true {
                ERR_clear_error()
                let n = SSL_read(ssl, scratch.baseAddress, Int32(scratch.count))
                if n > 0 {
                    deliver(UnsafeRawBufferPointer(rebasing: scratch[0..<Int(n)]))
                    continue
                }
                switch SSL_get_error(ssl, n) {
                case SSL_ERROR_WANT_READ:
                    return .open
                case SSL_ERROR_ZERO_RETURN:
                    return .peerClosed
                default:
                    return fail(OpenSSLErrors.drain())
                }
            }
        }
    }

    /// Encrypts `plaintext` into TLS records (appended to the pending output). False if the session
    /// cannot send (failed, or the handshake is not done); the caller then drops the connection.
    func seal(_ plaintext: [UInt8]) -> Bool {
        if failed || !handshakeDone { return false }
        return plaintext.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count, let base = raw.baseAddress {
                // Chunks of at most 256 KiB keep the Int32 length exact.
                let length = Int32(min(raw.count - offset, 256 * 1024))
                ERR_clear_error()
                let n = SSL_write(ssl, base + offset, length)
                if n <= 0 {
                    _ = fail(OpenSSLErrors.drain())
                    return false
                }
                offset += Int(n)
            }
            return true
        }
    }

    /// Takes all ciphertext waiting to be sent (handshake messages, records, alerts).
    func takeOutput() -> [UInt8] {
        var result: [UInt8] = []
        while true {
            let pending = BIO_ctrl_pending(output)
            if pending == 0 { break }
            let count = Int(min(pending, 1 << 20))
            var chunk = [UInt8](repeating: 0, count: count)
            let n = chunk.withUnsafeMutableBytes { BIO_read(output, $0.baseAddress, Int32(count)) }
            if n <= 0 { break }
            if result.isEmpty && Int(n) == count {
                result = chunk
            } else {
                result.append(contentsOf: chunk[0..<Int(n)])
            }
        }
        return result
    }

    /// A close_notify alert to send before closing (RFC 8446 §6.1), or nothing when the handshake
    /// never finished or the session failed (SSL_shutdown must not follow a fatal error).
    func closeNotify() -> [UInt8] {
        if failed || !handshakeDone { return [] }
        ERR_clear_error()
        _ = SSL_shutdown(ssl)
        ERR_clear_error()
        return takeOutput()
    }

    /// Marks the session unusable without an alert (the connection is being dropped mid-stream:
    /// a close_notify would let the client take a truncated response for a complete one).
    func abandon() { failed = true }

    private func fail(_ reason: String) -> ReceiveOutcome {
        failed = true
        return .failed(reason)
    }
}
