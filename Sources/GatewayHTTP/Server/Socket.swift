import Glibc
import Primitives
import Synchronization

/// Thin POSIX socket helpers (docs/reference/http-server.md §2.2). Every call reads `errno` right after the syscall.
enum Socket {
    enum AcceptResult {
        case accepted(fd: Int32, peer: SocketAddress?)
        case wouldBlock
        case retry
        case outOfDescriptors
        case failed(errno: Int32)
    }

    private static let sigpipeIgnored = Mutex(false)

    /// `signal(SIGPIPE, SIG_IGN)` once per process; sends also pass `MSG_NOSIGNAL` (belt and braces).
    static func ignoreSIGPIPE() {
        sigpipeIgnored.withLock { done in
            if !done {
                signal(SIGPIPE, SIG_IGN)
                done = true
            }
        }
    }

    /// Creates a non-blocking, close-on-exec listening socket with `SO_REUSEADDR` bound to `host:port`.
    static func listen(host: String, port: Int, backlog: Int32) throws(HTTPError) -> (fd: Int32, address: SocketAddress)
    {
        guard (0...65535).contains(port), let portValue = UInt16(exactly: port) else {
            throw HTTPError(.invalidConfiguration, "port \(port) out of range")
        }
        var v4 = sockaddr_in()
        var v6 = sockaddr_in6()
        let family: Int32
        if host.withCString({ inet_pton(AF_INET, $0, &v4.sin_addr) }) == 1 {
            family = AF_INET
            v4.sin_family = sa_family_t(AF_INET)
            v4.sin_port = portValue.bigEndian
        } else if host.withCString({ inet_pton(AF_INET6, $0, &v6.sin6_addr) }) == 1 {
            family = AF_INET6
            v6.sin6_family = sa_family_t(AF_INET6)
            v6.sin6_port = portValue.bigEndian
        } else {
            throw HTTPError(
                .invalidConfiguration, "bind address \"\(host.prefix(64))\" is not a numeric IPv4 or IPv6 address")
        }
        let fd = socket(
            family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        if fd < 0 { throw HTTPError(.bindFailed, "socket(): errno \(errno)") }
        var one: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        if family == AF_INET6 {
            setsockopt(fd, Int32(IPPROTO_IPV6), IPV6_V6ONLY, &one, socklen_t(MemoryLayout<Int32>.size))
        }
        let rc: Int32
        if family == AF_INET {
            rc = withUnsafePointer(to: &v4) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
        } else {
            rc = withUnsafePointer(to: &v6) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in6>.size))
                }
            }
        }
        if rc != 0 {
            let e = errno
            close(fd)
            throw HTTPError(.bindFailed, "bind \(host) port \(port): \(errorName(e))")
        }
        if Glibc.listen(fd, backlog) != 0 {
            let e = errno
            close(fd)
            throw HTTPError(.bindFailed, "listen \(host) port \(port): \(errorName(e))")
        }
        guard let local = localAddress(fd) else {
            close(fd)
            throw HTTPError(.bindFailed, "getsockname failed")
        }
        return (fd, local)
    }

    /// Accepts one connection and makes it non-blocking, close-on-exec, `TCP_NODELAY`.
    /// `accept4` is not visible through Swift's Glibc module, so the flags are set with two ioctls
    /// (no read-modify-write); this process never forks, so the CLOEXEC window is harmless.
    static func accept(_ listener: Int32) -> AcceptResult {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let fd = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.accept(listener, $0, &length) }
        }
        if fd < 0 {
            let e = errno
            switch e {
            case EAGAIN, EWOULDBLOCK: return .wouldBlock
            case EINTR, ECONNABORTED, EPROTO, EPERM: return .retry
            case EMFILE, ENFILE, ENOBUFS, ENOMEM: return .outOfDescriptors
            default: return .failed(errno: e)
            }
        }
        var one: Int32 = 1
        _ = ioctl(fd, UInt(FIONBIO), &one)
        _ = ioctl(fd, UInt(FIOCLEX))
        setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        return .accepted(fd: fd, peer: address(storage))
    }

    static func localAddress(_ fd: Int32) -> SocketAddress? {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let rc = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        return rc == 0 ? address(storage) : nil
    }

    static func address(_ storage: sockaddr_storage) -> SocketAddress? {
        var storage = storage
        var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN) + 1)
        switch Int32(storage.ss_family) {
        case AF_INET:
            return withUnsafePointer(to: &storage) {
                $0.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { sin -> SocketAddress? in
                    var addr = sin.pointee.sin_addr
                    guard inet_ntop(AF_INET, &addr, &text, socklen_t(text.count)) != nil else { return nil }
                    let host = String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
                    return SocketAddress(family: .ipv4, host: host, port: Int(UInt16(bigEndian: sin.pointee.sin_port)))
                }
            }
        case AF_INET6:
            return withUnsafePointer(to: &storage) {
                $0.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { sin -> SocketAddress? in
                    var addr = sin.pointee.sin6_addr
                    guard inet_ntop(AF_INET6, &addr, &text, socklen_t(text.count)) != nil else { return nil }
                    let host = String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
                    return SocketAddress(family: .ipv6, host: host, port: Int(UInt16(bigEndian: sin.pointee.sin6_port)))
                }
            }
        default:
            return nil
        }
    }

    /// Best-effort single non-blocking send (used for the 503 at the connection cap).
    static func sendOnce(_ fd: Int32, _ bytes: [UInt8]) {
        _ = bytes.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }

    static func errorName(_ code: Int32) -> String {
        guard let s = strerror(code) else { return "errno \(code)" }
        return "\(String(cString: s)) (errno \(code))"
    }
}
