import Dispatch
import Glibc
import Logging
import Primitives

/// One accepted socket, a member of one `EventLoop` (its epoll set, drained on the loop's serial
/// queue). All mutable state is confined to `queue` (the loop's): entry points from another thread
/// hop onto it first, and the ones the loop calls check it in debug builds (`assertOnLoopQueue`);
/// the class is `@unchecked Sendable` for that reason.
///
/// The lifecycle (reading, responding, streaming, draining, closed), the read and write sides and
/// the deadlines live in one `ConnectionStateMachine`; this class does the I/O its transitions ask
/// for. `start()` adds the socket to the loop, listening for reads. Writes go out directly and
/// listen for writability only after EAGAIN (docs/reference/http-server.md §2.3, §2.6). Every path to "done" ends
/// in `close()`, which removes the socket from the epoll set *before* closing it, so a new
/// connection that reuses the fd number can never receive this one's events (the loop also keys
/// events by connection id, not fd).
final class Connection: @unchecked Sendable {
    let id: UInt64
    let queue: DispatchQueue
    private let fd: Int32
    private let peer: SocketAddress?
    private let localPort: Int
    private let server: HTTPServer
    private let loop: EventLoop
    private var machine: ConnectionStateMachine

    private var parser: HTTPRequestParser
    /// TLS over memory BIOs when the server has a `TLSContext` (see `TLSSession`); socket I/O below
    /// is the same either way, `output` then holds ciphertext. Private to this connection, so only
    /// ever used on `queue`.
    private let tls: TLSSession?
    /// The server wants TLS but OpenSSL could not create a session: close at once.
    private let tlsUnavailable: Bool
    private var output: [[UInt8]] = []
    private var outputOffset = 0
    private var pendingBytes = 0

    init(fd: Int32, peer: SocketAddress?, localPort: Int, id: UInt64, server: HTTPServer, loop: EventLoop) {
        self.fd = fd
        self.peer = peer
        self.localPort = localPort
        self.id = id
        self.server = server
        self.parser = HTTPRequestParser(limits: server.configuration.limits)
        self.tls = server.configuration.tls.flatMap { TLSSession(context: $0) }
        self.tlsUnavailable = server.configuration.tls != nil && tls == nil
        self.loop = loop
        self.queue = loop.queue
        self.machine = ConnectionStateMachine(
            policy: ConnectionStateMachine.Policy(server.configuration), now: DispatchTime.now().uptimeNanoseconds)
    }

    /// Joins the loop (on its queue), listening for reads. The loop holds the connection until
    /// `close()` removes it.
    func start() {
        queue.async {
            // A shutdown that raced the accept may have closed the connection (and its fd, whose
            // number may already be reused) before this block ran: never register it then.
            guard let wanted = self.machine.registrationInterest else { return }
            guard self.loop.add(self, fd: self.fd, interest: wanted) else {
                // ENOMEM / ENOSPC (max_user_watches): nothing was registered.
                self.server.logger.debug("epoll refused the socket; closing", metadata: ["connection": "\(self.id)"])
                self.machine.registrationFailed()
                Glibc.close(self.fd)
                self.server.connectionClosed(self)
                return
            }
            self.machine.registered(wanted)
            if self.tlsUnavailable { self.abort() }
        }
    }

    /// A reply may be processed synchronously only from inside this connection's own event.
    private var onQueue: Bool { loop.isHandling(id) }

    /// Readiness from the loop (on `queue`). Errors and hang-ups are reported whatever the interest:
    /// the read or write they provoke finds the cause; when neither is wanted the peer is gone.
    func handle(_ readiness: EventLoop.Readiness) {
        loop.assertOnLoopQueue()
        if machine.isClosed { return }
        if (readiness.readable || readiness.failed) && machine.wantsRead {
            onReadable()
            if machine.isClosed { return }
        }
        if (readiness.writable || readiness.failed) && machine.isWaitingForWritable {
            flush()
            if machine.isClosed { return }
        }
        if readiness.failed && !machine.wantsRead && !machine.isWaitingForWritable {
            // Level-triggered: left alone, the hang-up would be reported again and again.
            abort()
        }
    }

    /// Tells the loop the machine's interest, if it changed.
    private func applyInterest() {
        guard let wanted = machine.interestChange else { return }
        if loop.modify(id: id, fd: fd, interest: wanted) {
            machine.interestApplied(wanted)
        } else {
            abort()
        }
    }

    // MARK: Reading

    private func onReadable() {
        let chunk = 32 * 1024
        var eof = false
        var readFailed = false
        var tlsFailure: String?
        withUnsafeTemporaryAllocation(byteCount: chunk, alignment: 16) { scratch in
            for _ in 0..<4 {
                let n = recv(fd, scratch.baseAddress, chunk, 0)
                if n > 0 {
                    let bytes = UnsafeRawBufferPointer(rebasing: scratch[0..<n])
                    if let tls {
                        switch tls.receive(bytes, deliver: { acceptPlaintext($0) }) {
                        case .open: break
                        case .peerClosed: eof = true
                        case .failed(let reason): tlsFailure = reason
                        }
                        appendCiphertext(tls.takeOutput())
                        if eof || tlsFailure != nil { break }
                    } else {
                        acceptPlaintext(bytes)
                    }
                    if n < chunk { break }
                } else if n == 0 {
                    eof = true
                    break
                } else {
                    let e = errno
                    if e == EINTR { continue }
                    if e == EAGAIN || e == EWOULDBLOCK { break }
                    eof = true
                    readFailed = true
                    break
                }
            }
        }
        if let tlsFailure {
            // Not TLS (plain HTTP on the TLS port), a failed handshake or a bad record: send the alert
            // OpenSSL produced (if any) and close. Nothing more is parsed.
            server.logger.debug("TLS failure; closing", metadata: ["connection": "\(id)", "error": "\(tlsFailure)"])
            machine.tlsFailed()?.cancel()
            flush()
            return
        }
        if eof {
            peerFinished(reset: readFailed)
            return
        }
        processRequests()
    }

    /// Request bytes (decrypted, with TLS). Bytes after an event stream started or after a fatal
    /// error are read (to see EOF) and dropped.
    private func acceptPlaintext(_ bytes: UnsafeRawBufferPointer) {
        if machine.acceptsRequestBytes {
            parser.feed(bytes)
        }
    }

    private func appendCiphertext(_ bytes: [UInt8]) {
        if bytes.isEmpty { return }
        output.append(bytes)
        pendingBytes += bytes.count
    }

    /// The peer sent FIN (or reset). Requests it completed before a FIN are still answered (an
    /// HTTP/1.0-style half-close, RFC 9112 §9.6), then the connection closes. A request still with its
    /// handler, or an event stream, is cancelled: its client has gone.
    private func peerFinished(reset: Bool) {
        switch machine.peerFinished(reset: reset) {
        case .abort:
            abort()
            return
        case .processBufferedRequests:
            break
        }
        // EOF keeps the socket readable (level-triggered): stop read events for good.
        applyInterest()
        if machine.isClosed { return }
        processRequests()
        if machine.isClosed { return }
        switch machine.bufferedRequestsProcessed() {
        case .abort: abort()
        case .flush: flush()
        }
    }

    /// Parses and dispatches buffered requests, one at a time, so pipelined requests are answered
    /// in order (RFC 9112 §9.3.2). A reply given while this loop runs lets it go on; one given later
    /// runs it again (`ConnectionStateMachine.responseQueued`).
    private func processRequests() {
        guard machine.parsingStarted() else { return }
        while machine.canDispatch {
            let message: HTTPRequestParser.Message?
            do {
                message = try parser.nextMessage()
            } catch {
                server.logger.debug(
                    "rejecting request", metadata: ["connection": "\(id)", "error": "\(error.code)"])
                let status = error.responseStatus ?? .badRequest
                observeRefusal(status)
                enqueue(ResponseWriter.errorResponse(status))
                machine.requestRefused()
                break
            }
            guard let message else { break }
            dispatch(message)
        }
        machine.parsingEnded()
        if machine.isClosed { return }
        if machine.canDispatch && parser.wantsContinue {
            // RFC 9110 §10.1.1: tell the client to send the body it is holding back.
            enqueue(Array("HTTP/1.1 100 Continue\r\n\r\n".utf8))
            parser.markContinueSent()
        }
        machine.parserPhase(parser.phase, now: DispatchTime.now().uptimeNanoseconds)
        updateReading()
        flush()
    }

    private func dispatch(_ message: HTTPRequestParser.Message) {
        let sequence = machine.nextSequence
        var request = message.request
        request.remoteAddress = peer
        request.localPort = localPort
        request.id = server.nextRequestID()
        var lastEventID = request.headers["Last-Event-ID"] ?? request.queryParameter("lastEventID")
        if let value = lastEventID, value.utf8.count > 1024 { lastEventID = nil }
        let responder = HTTPResponder(sink: self, sequence: sequence, lastEventID: lastEventID)
        machine.requestDispatched(
            responder: responder, method: request.method, version: request.version, keepAlive: message.keepAlive,
            requestID: request.id, now: DispatchTime.now().uptimeNanoseconds)
        server.handler.handle(request, responder: responder)
    }

    // MARK: Replies (any thread)

    func deliver(_ response: HTTPResponse, sequence: UInt64) {
        if onQueue {
            deliverOnQueue(response, sequence: sequence)
        } else {
            queue.async { self.deliverOnQueue(response, sequence: sequence) }
        }
    }

    private func deliverOnQueue(_ response: HTTPResponse, sequence: UInt64) {
        loop.assertOnLoopQueue()
        guard let current = machine.inFlight(sequence: sequence) else { return }
        let head = ResponseWriter.head(
            for: response, method: current.method, version: current.version, keepAlive: current.keepAlive)
        enqueue(head.bytes)
        if head.sendsBody { enqueue(response.body) }
        observe(current, status: head.status, bodyBytes: head.sendsBody ? response.body.count : 0, stream: false)
        if machine.responseQueued(keepAlive: head.keepAlive, now: DispatchTime.now().uptimeNanoseconds) {
            processRequests()
        }
    }

    func beginStream(_ newStream: EventStream, headers: HTTPHeaders, sequence: UInt64) {
        if onQueue {
            beginStreamOnQueue(newStream, headers: headers, sequence: sequence)
        } else {
            queue.async { self.beginStreamOnQueue(newStream, headers: headers, sequence: sequence) }
        }
    }

    private func beginStreamOnQueue(_ newStream: EventStream, headers: HTTPHeaders, sequence: UInt64) {
        loop.assertOnLoopQueue()
        guard let current = machine.eventStreamAllowed(sequence: sequence) else {
            newStream.terminate()
            return
        }
        var response = HTTPResponse(status: .ok, headers: headers)
        response.headers.set("Content-Type", "text/event-stream; charset=utf-8")
        response.headers.set("Cache-Control", "no-store")
        response.headers.set("X-Accel-Buffering", "no")
        let head = ResponseWriter.head(
            for: response, method: current.method, version: current.version, keepAlive: false, streaming: true)
        enqueue(head.bytes)
        observe(current, status: head.status, bodyBytes: 0, stream: head.status == 200 && head.sendsBody)
        if !head.sendsBody || head.refused {
            // HEAD request, or headers the writer refused (a 500 went out instead): no stream follows.
            machine.eventStreamRefused()
            newStream.terminate()
        } else {
            machine.eventStreamStarted(newStream, now: DispatchTime.now().uptimeNanoseconds)
            server.streamOpened()
        }
        flush()
    }

    func streamWrite(_ bytes: [UInt8]) {
        queue.async {
            guard self.machine.acceptsStreamOutput else { return }
            self.enqueue(bytes)
            let now = DispatchTime.now().uptimeNanoseconds
            switch self.machine.streamOutputQueued(pendingBytes: self.pendingBytes, now: now) {
            case .flush:
                self.flush()
            case .dropSlowReader:
                self.server.logger.debug("dropping slow event-stream reader", metadata: ["connection": "\(self.id)"])
                self.abort()
            }
        }
    }

    func streamClose() {
        queue.async {
            if self.machine.streamCloseRequested() { self.flush() }
        }
    }

    /// Notes the route of the request `sequence` (called by the router, on this queue).
    func noteRoute(_ pattern: String, sequence: UInt64) {
        if onQueue {
            machine.noteRoute(pattern, sequence: sequence)
        } else {
            queue.async { self.machine.noteRoute(pattern, sequence: sequence) }
        }
    }

    // MARK: Observation

    private func observe(_ request: ConnectionStateMachine.InFlight, status: Int, bodyBytes: Int, stream: Bool) {
        guard let observer = server.configuration.observer else { return }
        let now = DispatchTime.now().uptimeNanoseconds
        observer(
            HTTPRequestObservation(
                server: server.configuration.name, port: localPort, requestID: request.requestID,
                method: request.method, route: request.route, status: status,
                duration: .nanoseconds(
                    Int64(clamping: ConnectionStateMachine.elapsed(since: request.started, now: now))),
                bodyBytes: bodyBytes, isEventStream: stream))
    }

    /// A request refused before it reached a handler (parse error, timeout).
    private func observeRefusal(_ status: HTTPStatus) {
        guard let observer = server.configuration.observer else { return }
        let duration = ConnectionStateMachine.elapsed(
            since: machine.phaseStart, now: DispatchTime.now().uptimeNanoseconds)
        observer(
            HTTPRequestObservation(
                server: server.configuration.name, port: localPort, requestID: 0, method: nil, route: nil,
                status: status.code, duration: .nanoseconds(Int64(clamping: duration)), bodyBytes: 0))
    }

    // MARK: Writing

    private func enqueue(_ bytes: [UInt8]) {
        if bytes.isEmpty { return }
        if let tls {
            // Encrypted now, so `output` and `pendingBytes` (back-pressure) count what goes on the wire.
            // A failed seal marks the session failed; the next flush drops the connection.
            if tls.seal(bytes) { appendCiphertext(tls.takeOutput()) }
            return
        }
        output.append(bytes)
        pendingBytes += bytes.count
    }

    /// Writes pending output with one `sendmsg` gather-write per round (header and body together,
    /// docs/reference/http-server.md §2.2), listening for writability on EAGAIN and no longer once drained.
    private func flush() {
        loop.assertOnLoopQueue()
        if machine.isClosed { return }
        if let tls, tls.failed, !machine.isDraining {
            abort()
            return
        }
        while !output.isEmpty {
            let (n, e) = sendPending()
            if n > 0 {
                consume(n)
                machine.outputProgressed(now: DispatchTime.now().uptimeNanoseconds)
                continue
            }
            if n < 0 && e == EINTR { continue }
            if n < 0 && (e == EAGAIN || e == EWOULDBLOCK) {
                machine.outputBlocked()
                updateReading()
                return
            }
            // EPIPE, ECONNRESET, …: the peer is gone; a normal close, never a crash.
            abort()
            return
        }
        if machine.isWaitingForWritable {
            machine.outputDrained()
            applyInterest()
        }
        if machine.isDraining {
            close()
            return
        }
        updateReading()
    }

    private func sendPending() -> (Int, Int32) {
        var vectors: [iovec] = []
        vectors.reserveCapacity(8)
        return gather(0, &vectors)
    }

    private func gather(_ index: Int, _ vectors: inout [iovec]) -> (Int, Int32) {
        if index == output.count || index == 8 {
            return vectors.withUnsafeMutableBufferPointer { buffer in
                var message = msghdr()
                message.msg_iov = buffer.baseAddress
                message.msg_iovlen = buffer.count
                let n = sendmsg(fd, &message, Int32(MSG_NOSIGNAL))
                return (n, n < 0 ? errno : 0)
            }
        }
        return output[index].withUnsafeBytes { raw in
            let offset = index == 0 ? outputOffset : 0
            if let base = raw.baseAddress, raw.count > offset {
                vectors.append(
                    iovec(iov_base: UnsafeMutableRawPointer(mutating: base + offset), iov_len: raw.count - offset))
            }
            return gather(index + 1, &vectors)
        }
    }

    private func consume(_ count: Int) {
        var left = count
        pendingBytes -= count
        while left > 0, let first = output.first {
            let available = first.count - outputOffset
            if left >= available {
                left -= available
                output.removeFirst()
                outputOffset = 0
            } else {
                outputOffset += left
                left = 0
            }
        }
    }

    /// Back-pressure (see `ConnectionStateMachine.backPressure`), told to the loop.
    private func updateReading() {
        if machine.isClosed { return }
        machine.backPressure(pendingOutputBytes: pendingBytes, bufferedInputBytes: parser.bufferedByteCount)
        applyInterest()
    }

    // MARK: Deadlines (called by the server's sweep timer, on `queue`)

    func checkDeadlines() {
        loop.assertOnLoopQueue()
        if machine.isClosed { return }
        // Read the clock here, on the queue: a timestamp taken by the sweeper before the hop could be
        // older than `lastWriteProgress` and make an elapsed time wrap around.
        let now = DispatchTime.now().uptimeNanoseconds
        if pendingBytes > 0 && machine.isWaitingForWritable {
            // Retry the write: belt and braces for a peer that reset while reading was paused.
            flush()
            if machine.isClosed { return }
        }
        switch machine.deadline(now: now, pendingBytes: pendingBytes) {
        case .none:
            break
        case .dropStalledWriter:
            server.logger.debug("write stalled; dropping connection", metadata: ["connection": "\(id)"])
            abort()
        case .flush:
            flush()
        case .heartbeat:
            enqueue(Array(":\n\n".utf8))
            flush()
        case .closeIdle:
            close()
        case .timeOut:
            server.logger.debug("request timed out", metadata: ["connection": "\(id)", "phase": "\(machine.phase)"])
            observeRefusal(.requestTimeout)
            enqueue(ResponseWriter.errorResponse(.requestTimeout))
            flush()
        }
    }

    // MARK: Shutdown and close

    /// Stop taking requests: idle connections close now, an in-flight response is still written
    /// (with `Connection: close`), event streams end.
    func beginShutdown() {
        queue.async {
            switch self.machine.shutdownRequested(outputEmpty: self.output.isEmpty) {
            case .none: break
            case .flush: self.flush()
            case .close: self.close()
            }
        }
    }

    /// Closes at once, whatever is pending (used when the grace period is over).
    func forceClose() {
        queue.async { self.abort() }
    }

    private func abort() {
        tls?.abandon()
        output.removeAll()
        pendingBytes = 0
        close()
    }

    private func close() {
        loop.assertOnLoopQueue()
        guard let action = machine.close() else { return }
        action.responder?.cancel()
        if let stream = action.stream {
            stream.terminate()
            server.streamClosed()
        }
        let drained = output.isEmpty
        output.removeAll()
        pendingBytes = 0
        if let tls {
            if drained {
                // Best effort, one non-blocking send: close_notify says "everything was sent"
                // (RFC 8446 §6.1), so only after a complete flush.
                let alert = tls.closeNotify()
                if !alert.isEmpty { Socket.sendOnce(fd, alert) }
            } else {
                tls.abandon()
            }
        }
        // Out of the epoll set first, then close: the fd number is free only after that.
        if action.deregister { loop.remove(id: id, fd: fd) }
        Glibc.close(fd)
        server.connectionClosed(self)
    }
}
