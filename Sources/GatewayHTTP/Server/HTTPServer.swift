import Dispatch
import Glibc
import Logging
import Primitives
import Synchronization

/// An HTTP/1.1 server on POSIX sockets and Dispatch sources (no SwiftNIO, no Foundation networking).
///
/// - Listens on `configuration.bindAddress` (loopback by default; anything else logs a warning).
/// - Accepts in bounded batches on one read source per listening socket; backs off 100 ms on
///   EMFILE/ENFILE instead of spinning; answers 503 and closes above `maxConnections`.
/// - Connections are spread over a few `EventLoop`s (one per usable CPU): an epoll set each,
///   drained on a serial Dispatch queue by one `DispatchSource` (see `EventLoop` for why not one
///   source per socket); handlers get an `HTTPResponder` they may answer later from any thread.
/// - One timer per server sweeps the per-phase deadlines (header, body, idle, write stall) and the
///   event-stream heartbeats: no thread or timer per connection.
/// - Several servers can run in one process (the dapp port and the approval-UI port).
///
/// Untrusted input: every byte read from a socket. Limits: `HTTPServerConfiguration`.
package final class HTTPServer: Sendable {
    /// A listening socket and its accept source; mutated only on `acceptQueue`.
    private final class Listener: @unchecked Sendable {
        let fd: Int32
        let address: SocketAddress
        let source: any DispatchSourceRead

        init(fd: Int32, address: SocketAddress, queue: DispatchQueue) {
            self.fd = fd
            self.address = address
            self.source = DispatchSource.makeReadSource(fileDescriptor: fd, queue: queue)
        }
    }

    /// The deadline timer; `DispatchSourceTimer` is thread-safe but not marked `Sendable`.
    private final class Sweeper: @unchecked Sendable {
        let timer: any DispatchSourceTimer
        init(_ timer: any DispatchSourceTimer) { self.timer = timer }
    }

    private struct State {
        var listeners: [Listener] = []
        var connections: [UInt64: Connection] = [:]
        var nextConnectionID: UInt64 = 0
        var started = false
        var shuttingDown = false
        var stopped = false
        var shutdownWaiters: [@Sendable () -> Void] = []
        var sweeper: Sweeper?
        var openStreams = 0
        /// Listening sockets whose fd is not closed yet (closed in their source's cancel handler).
        var openListeners = 0
        var accepting = true
    }

    /// The configuration the server was created with.
    package let configuration: HTTPServerConfiguration
    let handler: any HTTPHandler
    let logger: Logger
    /// The event loops connections run on; `nil` if the kernel gave no epoll descriptor (`bind()`
    /// then fails).
    let loops: EventLoopGroup?
    private let acceptQueue: DispatchQueue
    private let state = Mutex(State())
    private let requestCounter = Atomic<UInt64>(0)

    /// Creates a server; nothing is bound until `bind()` or `start()`.
    /// - Parameters:
    ///   - configuration: addresses, limits, deadlines.
    ///   - handler: called for every request (a `Router`, or a wrapper around one).
    ///   - logger: the server logs at debug/trace, plus a warning for a non-loopback bind.
    package init(configuration: HTTPServerConfiguration, handler: any HTTPHandler, logger: Logger) {
        self.configuration = configuration
        self.handler = handler
        var logger = logger
        logger[metadataKey: "server"] = "\(configuration.name)"
        self.logger = logger
        self.acceptQueue = DispatchQueue(label: "sigil.http.accept.\(configuration.name)")
        self.loops = EventLoopGroup(label: "sigil.http.loop.\(configuration.name)")
    }

    /// A server released without `shutdown()` (never started, or `bind()` failed) still lets its
    /// loops go: their sources hold them until cancelled. Idempotent after a shutdown's `stop()`.
    deinit {
        loops?.stop()
    }

    /// The addresses the server listens on (empty before `bind()`).
    package var listeningAddresses: [SocketAddress] { state.withLock { $0.listeners.map(\.address) } }

    /// The port the server listens on (useful with port 0), or 0 before `bind()`.
    package var port: Int { listeningAddresses.first?.port ?? 0 }

    /// Connections currently open.
    package var connectionCount: Int { state.withLock { $0.connections.count } }

    /// Event streams currently open.
    package var eventStreamCount: Int { state.withLock { $0.openStreams } }

    /// Binds and listens on every configured address, without accepting yet, so the caller can print
    /// the real URLs first. Port 0 picks one free port shared by all addresses.
    /// - Returns: the bound addresses.
    /// - Throws: `HTTPError` `.invalidConfiguration` or `.bindFailed`.
    @discardableResult
    package func bind() throws(HTTPError) -> [SocketAddress] {
        try configuration.validate()
        guard loops != nil else {
            throw HTTPError(.bindFailed, "the kernel gave no epoll descriptor (out of file descriptors?)")
        }
        Socket.ignoreSIGPIPE()
        var lastError = HTTPError(.bindFailed, "no address bound")
        for _ in 0..<8 {
            do {
                let bound = try bindAll()
                let listeners = bound.map { fd, address in
                    let listener = Listener(fd: fd, address: address, queue: acceptQueue)
                    listener.source.setEventHandler { [weak self] in self?.acceptBatch(listener) }
                    listener.source.setCancelHandler { [weak self] in
                        Glibc.close(fd)
                        self?.listenerClosed()
                    }
                    return listener
                }
                state.withLock {
                    $0.listeners = listeners
                    $0.openListeners = listeners.count
                }
                if !configuration.bindAddress.isLoopbackOnly {
                    logger.warning(
                        "listening on a non-loopback address: other machines can reach this server",
                        metadata: ["address": "\(configuration.bindAddress)"])
                }
                return listeners.map(\.address)
            } catch {
                lastError = error
                // With port 0 the second address may find the chosen port taken: pick again.
                if configuration.port != 0 || error.code != .bindFailed { break }
            }
        }
        throw lastError
    }

    private func bindAll() throws(HTTPError) -> [(Int32, SocketAddress)] {
        var bound: [(Int32, SocketAddress)] = []
        var port = configuration.port
        for host in configuration.bindAddress.hosts {
            do {
                let (fd, address) = try Socket.listen(host: host, port: port, backlog: configuration.backlog)
                bound.append((fd, address))
                port = address.port
            } catch {
                if configuration.bindAddress.optionalHosts.contains(host) && !bound.isEmpty
                    && !error.reason.contains("Address already in use")
                {
                    logger.debug("skipping optional address", metadata: ["host": "\(host)", "error": "\(error)"])
                    continue
                }
                for (fd, _) in bound { Glibc.close(fd) }
                throw error
            }
        }
        return bound
    }

    /// Starts accepting connections and the deadline timer. Call after `bind()`.
    package func startAccepting() {
        let listeners = state.withLock { s -> [Listener] in
            if s.started || s.shuttingDown { return [] }
            s.started = true
            return s.listeners
        }
        guard !listeners.isEmpty, let loops else { return }
        loops.start()
        let timer = DispatchSource.makeTimerSource(queue: acceptQueue)
        let interval = configuration.sweepInterval
        timer.schedule(
            deadline: .now() + .nanoseconds(Int(interval.nanoseconds)),
            repeating: .nanoseconds(Int(interval.nanoseconds)), leeway: .milliseconds(5))
        timer.setEventHandler { [weak self] in self?.sweep() }
        let sweeper = Sweeper(timer)
        state.withLock { $0.sweeper = sweeper }
        timer.resume()
        for listener in listeners { listener.source.resume() }
        logger.debug("accepting", metadata: ["addresses": "\(listeners.map(\.address))"])
    }

    /// `bind()` then `startAccepting()`.
    @discardableResult
    package func start() throws(HTTPError) -> [SocketAddress] {
        let addresses = try bind()
        startAccepting()
        return addresses
    }

    // MARK: Accept

    private func acceptBatch(_ listener: Listener) {
        #if DEBUG
            dispatchPrecondition(condition: .onQueue(acceptQueue))
        #endif
        for _ in 0..<64 {
            switch Socket.accept(listener.fd) {
            case .accepted(let fd, let peer):
                admit(fd: fd, peer: peer, port: listener.address.port)
            case .wouldBlock:
                return
            case .retry:
                continue
            case .outOfDescriptors:
                // docs/reference/http-server.md §2.4: the listener stays readable, so a naive loop spins at 100 % CPU.
                logger.debug("out of file descriptors; pausing accept for 100 ms")
                listener.source.suspend()
                acceptQueue.asyncAfter(deadline: .now() + .milliseconds(100)) { listener.source.resume() }
                return
            case .failed(let code):
                logger.debug("accept failed", metadata: ["error": "\(Socket.errorName(code))"])
                return
            }
        }
    }

    private func admit(fd: Int32, peer: SocketAddress?, port: Int) {
        let connection: Connection? = state.withLock { s in
            if s.shuttingDown || s.connections.count >= configuration.maxConnections { return nil }
            guard let loops else { return nil }
            s.nextConnectionID &+= 1
            let id = s.nextConnectionID
            let c = Connection(
                fd: fd, peer: peer, localPort: port, id: id, server: self, loop: loops.loop(for: id))
            s.connections[c.id] = c
            return c
        }
        guard let connection else {
            // Over the cap (or shutting down): a best-effort 503, then close; no source was created.
            // A TLS client would read plaintext as a bad record, so it just sees the close.
            if configuration.tls == nil {
                Socket.sendOnce(fd, ResponseWriter.errorResponse(.serviceUnavailable))
            }
            Glibc.close(fd)
            return
        }
        connection.start()
    }

    // MARK: Connection bookkeeping

    func connectionClosed(_ connection: Connection) {
        state.withLock { _ = $0.connections.removeValue(forKey: connection.id) }
        finishShutdownIfDone()
    }

    private func listenerClosed() {
        state.withLock { $0.openListeners -= 1 }
        finishShutdownIfDone()
    }

    /// Runs the shutdown completions once no connection and no listening socket is left.
    private func finishShutdownIfDone() {
        let waiters = state.withLock { s -> [@Sendable () -> Void] in
            guard s.shuttingDown, s.connections.isEmpty, s.openListeners == 0, !s.stopped else { return [] }
            s.stopped = true
            s.sweeper?.timer.cancel()
            s.sweeper = nil
            loops?.stop()
            defer { s.shutdownWaiters = [] }
            return s.shutdownWaiters
        }
        for waiter in waiters { waiter() }
    }

    func nextRequestID() -> UInt64 {
        requestCounter.add(1, ordering: .relaxed).newValue
    }

    func streamOpened() { state.withLock { $0.openStreams += 1 } }
    func streamClosed() { state.withLock { $0.openStreams -= 1 } }

    private func sweep() {
        #if DEBUG
            dispatchPrecondition(condition: .onQueue(acceptQueue))
        #endif
        let connections = state.withLock { Array($0.connections.values) }
        for connection in connections {
            connection.queue.async { connection.checkDeadlines() }
        }
    }

    // MARK: Shutdown

    /// Graceful shutdown: stop accepting, let in-flight responses finish (sent with
    /// `Connection: close`) within `configuration.shutdownGracePeriod`, end event streams, then close
    /// whatever is left. `completion` runs once every connection is closed.
    package func shutdown(completion: @escaping @Sendable () -> Void = {}) {
        let (listeners, connections, wasStarted, finishedAlready) = state.withLock {
            s -> ([Listener], [Connection], Bool, Bool) in
            if s.stopped { return ([], [], s.started, true) }
            s.shutdownWaiters.append(completion)
            if s.shuttingDown { return ([], [], s.started, false) }
            s.shuttingDown = true
            let listeners = s.listeners
            s.listeners = []
            return (listeners, Array(s.connections.values), s.started, false)
        }
        if finishedAlready {
            completion()
            return
        }
        for listener in listeners {
            listener.source.cancel()
            // A never-activated source must be resumed before release (Dispatch `cancel()` docs).
            if !wasStarted { listener.source.resume() }
        }
        for connection in connections { connection.beginShutdown() }
        let grace = configuration.shutdownGracePeriod.nanoseconds
        acceptQueue.asyncAfter(deadline: .now() + .nanoseconds(Int(min(grace, UInt64(Int.max))))) { [self] in
            let left = state.withLock { Array($0.connections.values) }
            if !left.isEmpty {
                logger.debug("grace period over; closing connections", metadata: ["count": "\(left.count)"])
            }
            for connection in left { connection.forceClose() }
        }
        // With no connections at all (and listeners already closed), finish now.
        finishShutdownIfDone()
    }

    /// Graceful shutdown (see `shutdown(completion:)`), returning when every connection is closed.
    package func shutdown() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            shutdown { continuation.resume() }
        }
    }
}
