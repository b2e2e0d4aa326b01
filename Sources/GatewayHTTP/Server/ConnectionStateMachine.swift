/// The lifecycle of one `Connection` as a value: one `State` enum plus the read and write sides of
/// the socket, changed only by mutating transitions that return what the connection must do
/// (write, flush, close, …). It does no I/O, reads no clock (times come in as monotonic
/// nanoseconds) and knows no socket, so every transition is unit-tested on its own
/// (`ConnectionStateMachineTests`), the way swift-nio and Hummingbird build and test their
/// connection state machines. `Connection` owns one and is its only caller, on its loop's queue.
///
/// Transitions (event → next state):
/// - `accepted`: joined the loop → `reading`; the loop refused it, or closed first (shutdown, header
///   deadline) → `closed`.
/// - `reading`: a request parsed → `responding`; a parse error, a 408, the peer's FIN (after the
///   requests it completed), a TLS failure, shutdown with output pending → `draining`; idle past
///   its deadline, shutdown with nothing pending → `closed`.
/// - `responding`: the response with keep-alive → `reading`, without → `draining`; an event-stream
///   head → `streaming` (a HEAD request or a refused head → `draining`); shutdown → still
///   `responding`, but no keep-alive and no stream; the peer leaving → `closed`.
/// - `streaming`: the handler's close, the maximum age, shutdown, a TLS failure → `draining`; a slow
///   reader, the peer leaving → `closed`.
/// - `draining`: the queued output written → `closed`.
/// - Any state: an abort (write stall, reset, forced close after the grace period) → `closed`.
///
/// Invariants (each is a property of the enum, not of flags kept in step):
/// - At most one request is with a handler (`responding`), and no stream is open then: pipelined
///   requests wait in the parser and are answered in order.
/// - An event stream lives in `streaming`, and in `draining` until the connection closes, so its
///   `onTermination` runs exactly once, from `close()`.
/// - `draining` never goes back: no request is parsed and no stream output is accepted.
/// - Reads are never resumed after the peer finished sending (`ReadSide.finished`).
/// - The socket is in the loop's epoll set exactly in the states between `accepted` and `closed`,
///   so `close()` knows whether to take it out (`CloseAction.deregister`).
struct ConnectionStateMachine {
    /// A request that reached a handler and is not answered yet.
    struct InFlight {
        let sequence: UInt64
        /// Weak: if the handler drops the responder unanswered, its deinit answers 500.
        weak var responder: HTTPResponder?
        let method: HTTPMethod
        let version: HTTPVersion
        /// Whether the connection may stay open after the response (the request's framing, the
        /// peer not half-closed, no shutdown).
        var keepAlive: Bool
        /// For the observer: the request's id, when it was dispatched, the route that took it.
        let requestID: UInt64
        let started: UInt64
        var route: String?
        /// The server is shutting down: the reply goes out with `Connection: close` and no event
        /// stream may start.
        var shuttingDown = false
    }

    /// An open Server-Sent Events stream.
    struct Stream {
        let stream: EventStream
        /// When it started (for `eventStreamMaxAge`) and when it last sent something (heartbeats).
        let started: UInt64
        var lastOutput: UInt64
    }

    enum State {
        /// Accepted; not yet in the loop's epoll set (`Connection.start()` adds it).
        case accepted
        /// Parsing requests; none is with a handler.
        case reading
        /// One request is with its handler; later pipelined bytes wait in the parser.
        case responding(InFlight)
        /// An event stream is open; further request bytes are read (to see EOF) and dropped.
        case streaming(Stream)
        /// Writing what is queued, then closing. Request bytes are dropped. Keeps the event stream
        /// that was open, if any, until the close ends it.
        case draining(Stream?)
        /// The socket is closed (terminal).
        case closed
    }

    /// The read side of the socket.
    enum ReadSide: Equatable {
        /// The loop reports readability.
        case open
        /// Back-pressure: too much output pending, or too much input piled up behind a request.
        case paused
        /// The peer sent FIN: nothing more to read, ever (level-triggered EOF would repeat).
        case finished
    }

    /// The write side of the socket.
    enum WriteSide: Equatable {
        /// Output goes out directly.
        case direct
        /// A send hit EAGAIN: the loop reports writability until the queue is drained.
        case waitingForWritable
    }

    /// Deadlines (nanoseconds) and back-pressure thresholds (bytes), from `HTTPServerConfiguration`.
    struct Policy: Equatable {
        var headerTimeout: UInt64
        var bodyTimeout: UInt64
        var idleTimeout: UInt64
        var writeStallTimeout: UInt64
        var eventStreamHeartbeat: UInt64
        var eventStreamMaxAge: UInt64
        var maxPendingOutputBytes: Int
        var eventStreamMaxPendingBytes: Int
        /// Buffered input above which reading pauses while a request is with its handler.
        var maxBufferedInputWhileResponding: Int

        init(_ configuration: HTTPServerConfiguration) {
            headerTimeout = configuration.headerTimeout.nanoseconds
            bodyTimeout = configuration.bodyTimeout.nanoseconds
            idleTimeout = configuration.idleTimeout.nanoseconds
            writeStallTimeout = configuration.writeStallTimeout.nanoseconds
            eventStreamHeartbeat = configuration.eventStreamHeartbeat.nanoseconds
            eventStreamMaxAge = configuration.eventStreamMaxAge.nanoseconds
            maxPendingOutputBytes = configuration.maxPendingOutputBytes
            eventStreamMaxPendingBytes = configuration.eventStreamMaxPendingBytes
            let limits = configuration.limits
            let (sum, overflow) = limits.maxHeaderBytes.addingReportingOverflow(limits.maxBodyBytes)
            maxBufferedInputWhileResponding = overflow ? Int.max : sum
        }
    }

    let policy: Policy
    private(set) var state: State = .accepted
    private(set) var read: ReadSide = .open
    private(set) var write: WriteSide = .direct
    /// What the loop was last told to report (meaningful while registered).
    private(set) var registeredInterest = EventLoop.Interest(read: true, write: false)
    /// What the parser waits for, and since when: the per-phase deadlines run from `phaseStart`.
    private(set) var phase = HTTPRequestParser.Phase.idle
    private(set) var phaseStart: UInt64
    private(set) var lastWriteProgress: UInt64
    /// Responses written (the first request gets the header deadline, later ones the idle one).
    private(set) var requestsServed = 0
    /// The sequence number of the last dispatched request.
    private(set) var sequence: UInt64 = 0
    /// The parse loop is running (`Connection.processRequests`): a reply queued meanwhile (given
    /// inside the handler's `handle` call, or by a responder released there unanswered) lets that
    /// loop go on instead of starting a second one inside it.
    private(set) var parsing = false

    init(policy: Policy, now: UInt64) {
        self.policy = policy
        phaseStart = now
        lastWriteProgress = now
    }

    // MARK: Queries

    var isClosed: Bool {
        if case .closed = state { return true }
        return false
    }

    /// Closing once the queued output is written.
    var isDraining: Bool {
        if case .draining = state { return true }
        return false
    }

    /// A parsed request may go to the handler now.
    var canDispatch: Bool {
        if case .reading = state { return true }
        return false
    }

    /// Request bytes read now are parsed (otherwise they are read only to see EOF, and dropped).
    var acceptsRequestBytes: Bool {
        switch state {
        case .accepted, .reading, .responding: return true
        case .streaming, .draining, .closed: return false
        }
    }

    /// Event-stream output is queued now (otherwise dropped).
    var acceptsStreamOutput: Bool {
        if case .streaming = state { return true }
        return false
    }

    /// In the epoll set: after registration, before close.
    var isRegistered: Bool {
        switch state {
        case .accepted, .closed: return false
        case .reading, .responding, .streaming, .draining: return true
        }
    }

    var wantsRead: Bool { read == .open }
    var isWaitingForWritable: Bool { write == .waitingForWritable }

    /// The interest the loop must be told about, when it differs from what it was last told.
    var interestChange: EventLoop.Interest? {
        guard isRegistered else { return nil }
        let wanted = EventLoop.Interest(read: read == .open, write: write == .waitingForWritable)
        return wanted == registeredInterest ? nil : wanted
    }

    /// The request with the handler, if its sequence is `sequence` (a late or repeated reply for
    /// another one finds nothing).
    func inFlight(sequence: UInt64) -> InFlight? {
        guard case .responding(let current) = state, current.sequence == sequence else { return nil }
        return current
    }

    /// The sequence number the next dispatched request gets.
    var nextSequence: UInt64 { sequence &+ 1 }

    // MARK: Joining the loop

    /// The interest to register the socket with, or `nil` when the connection closed before it
    /// joined the loop (a shutdown raced the accept; the fd number may already be reused).
    var registrationInterest: EventLoop.Interest? {
        if case .accepted = state { return EventLoop.Interest(read: true, write: false) }
        return nil
    }

    /// The loop took the socket with `interest`.
    mutating func registered(_ interest: EventLoop.Interest) {
        guard case .accepted = state else { return }
        state = .reading
        registeredInterest = interest
    }

    /// The loop refused the socket (ENOMEM, ENOSPC): nothing is registered; the caller closes the fd.
    mutating func registrationFailed() {
        guard case .accepted = state else { return }
        state = .closed
    }

    /// The loop now reports `interest`.
    mutating func interestApplied(_ interest: EventLoop.Interest) {
        registeredInterest = interest
    }

    // MARK: Requests

    /// A parsed request goes to the handler under the sequence number `nextSequence`.
    mutating func requestDispatched(
        responder: HTTPResponder, method: HTTPMethod, version: HTTPVersion, keepAlive: Bool, requestID: UInt64,
        now: UInt64
    ) {
        guard case .reading = state else { return }
        sequence &+= 1
        state = .responding(
            InFlight(
                sequence: sequence, responder: responder, method: method, version: version,
                keepAlive: keepAlive && read != .finished, requestID: requestID, started: now))
    }

    /// The parse loop starts. - Returns: false when it must not (already running, or closed).
    mutating func parsingStarted() -> Bool {
        if parsing || isClosed { return false }
        parsing = true
        return true
    }

    /// The parse loop ended (before its flush).
    mutating func parsingEnded() {
        parsing = false
    }

    /// The router matched `pattern` for the request `sequence` (for the observer).
    mutating func noteRoute(_ pattern: String, sequence: UInt64) {
        guard case .responding(var current) = state, current.sequence == sequence else { return }
        current.route = pattern
        state = .responding(current)
    }

    /// The parser refused the buffered input (its error status is queued): close after writing it.
    mutating func requestRefused() {
        guard case .reading = state else { return }
        state = .draining(nil)
    }

    /// The parser's phase after a parse round; its deadline starts when it changes.
    mutating func parserPhase(_ newPhase: HTTPRequestParser.Phase, now: @autoclosure () -> UInt64) {
        if newPhase != phase {
            phase = newPhase
            phaseStart = now()
        }
    }

    /// The response to the request with the handler is queued; `keepAlive` is what its head said.
    /// - Returns: whether the caller must run the parse loop for pipelined requests and the flush
    ///   (not when the parse loop is running: it goes on by itself).
    mutating func responseQueued(keepAlive: Bool, now: UInt64) -> Bool {
        guard case .responding = state else { return false }
        state = keepAlive ? .reading : .draining(nil)
        requestsServed += 1
        phase = .idle
        phaseStart = now
        return !parsing
    }

    // MARK: Event streams

    /// The request `sequence` may become an event stream (not after shutdown began).
    func eventStreamAllowed(sequence: UInt64) -> InFlight? {
        guard let current = inFlight(sequence: sequence), !current.shuttingDown else { return nil }
        return current
    }

    /// The stream's head is queued and the stream is open.
    mutating func eventStreamStarted(_ stream: EventStream, now: UInt64) {
        guard case .responding = state else { return }
        state = .streaming(Stream(stream: stream, started: now, lastOutput: now))
    }

    /// The stream's head went out without a stream (a HEAD request, or headers the writer refused
    /// and replaced by a 500): close after writing it.
    mutating func eventStreamRefused() {
        guard case .responding = state else { return }
        state = .draining(nil)
    }

    enum StreamOutputAction: Equatable {
        case flush
        /// Pending output is over `eventStreamMaxPendingBytes`: the reader is too slow.
        case dropSlowReader
    }

    /// An event was queued on the stream; `pendingBytes` is the output now waiting.
    mutating func streamOutputQueued(pendingBytes: Int, now: UInt64) -> StreamOutputAction {
        guard case .streaming(var open) = state else { return .flush }
        open.lastOutput = now
        state = .streaming(open)
        return pendingBytes > policy.eventStreamMaxPendingBytes ? .dropSlowReader : .flush
    }

    /// The handler closed the stream. - Returns: whether to flush (and so close once written).
    mutating func streamCloseRequested() -> Bool {
        switch state {
        case .streaming(let open): state = .draining(open)
        case .draining(.some): break
        default: return false
        }
        return true
    }

    // MARK: Reading and writing

    enum PeerFinishedAction: Equatable {
        /// A reset, or the peer left with a request or a stream open: drop at once.
        case abort
        /// A FIN while reading: answer the complete requests it sent, then call
        /// `bufferedRequestsProcessed()`.
        case processBufferedRequests
    }

    /// The peer finished sending (EOF), or reset the connection.
    mutating func peerFinished(reset: Bool) -> PeerFinishedAction {
        switch state {
        case .responding, .streaming, .draining(.some), .closed:
            return .abort
        case .accepted, .reading, .draining(.none):
            if reset { return .abort }
            read = .finished
            return .processBufferedRequests
        }
    }

    enum BufferedRequestsAction: Equatable {
        /// A request is still with its handler, whose client has gone: drop.
        case abort
        /// Write what is queued, then close.
        case flush
    }

    /// The requests completed before a FIN were processed (RFC 9112 §9.6: a half-close still gets
    /// its answers when they are ready at once).
    mutating func bufferedRequestsProcessed() -> BufferedRequestsAction {
        switch state {
        case .responding: return .abort
        case .accepted, .reading: state = .draining(nil)
        case .streaming(let open): state = .draining(open)
        case .draining, .closed: break
        }
        return .flush
    }

    /// TLS failed (not TLS, bad handshake, bad record): send the alert, if any, and close.
    /// - Returns: the responder of a request still with its handler, to cancel.
    mutating func tlsFailed() -> HTTPResponder? {
        switch state {
        case .accepted, .reading:
            state = .draining(nil)
        case .responding(let current):
            state = .draining(nil)
            return current.responder
        case .streaming(let open):
            state = .draining(open)
        case .draining, .closed:
            break
        }
        return nil
    }

    /// Some queued output was written.
    mutating func outputProgressed(now: UInt64) {
        lastWriteProgress = now
    }

    /// A send hit EAGAIN: listen for writability.
    mutating func outputBlocked() {
        write = .waitingForWritable
    }

    /// The output queue is empty: stop listening for writability.
    mutating func outputDrained() {
        write = .direct
    }

    /// Back-pressure: pause reading while much output is pending, or while input piles up behind a
    /// request still with its handler (docs/reference/http-server.md §6 item 6); resume when both drop. A finished
    /// read side stays finished.
    mutating func backPressure(pendingOutputBytes: Int, bufferedInputBytes: Int) {
        guard read != .finished, !isClosed else { return }
        var responding = false
        if case .responding = state { responding = true }
        let backlog = responding && bufferedInputBytes > policy.maxBufferedInputWhileResponding
        read = pendingOutputBytes > policy.maxPendingOutputBytes || backlog ? .paused : .open
    }

    // MARK: Deadlines

    enum DeadlineAction: Equatable {
        case none
        /// Output made no progress for `writeStallTimeout`: drop.
        case dropStalledWriter
        /// The stream is older than `eventStreamMaxAge` (now draining): flush, then close.
        case flush
        /// Nothing sent on the stream for `eventStreamHeartbeat`: queue a `:` comment and flush.
        case heartbeat
        /// Idle (or never sent a byte) past the idle / header deadline: close quietly.
        case closeIdle
        /// A request head or body took too long (now draining): queue 408 and flush.
        case timeOut
    }

    /// The sweep's check at `now`, with `pendingBytes` of output waiting.
    mutating func deadline(now: UInt64, pendingBytes: Int) -> DeadlineAction {
        if isClosed { return .none }
        if pendingBytes > 0 && Self.elapsed(since: lastWriteProgress, now: now) > policy.writeStallTimeout {
            return .dropStalledWriter
        }
        switch state {
        case .closed, .responding, .draining(.none):
            return .none
        case .streaming(var open):
            if Self.elapsed(since: open.started, now: now) > policy.eventStreamMaxAge {
                state = .draining(open)
                return .flush
            }
            if Self.elapsed(since: open.lastOutput, now: now) > policy.eventStreamHeartbeat {
                open.lastOutput = now
                state = .streaming(open)
                return .heartbeat
            }
            return .none
        case .draining(.some(let open)):
            // Past its age a closing stream is flushed again (the retry a stuck write needs).
            return Self.elapsed(since: open.started, now: now) > policy.eventStreamMaxAge ? .flush : .none
        case .accepted, .reading:
            let elapsed = Self.elapsed(since: phaseStart, now: now)
            switch phase {
            case .idle:
                let limit = requestsServed == 0 ? policy.headerTimeout : policy.idleTimeout
                return elapsed > limit ? .closeIdle : .none
            case .head:
                guard elapsed > policy.headerTimeout else { return .none }
            case .body:
                guard elapsed > policy.bodyTimeout else { return .none }
            }
            state = .draining(nil)
            return .timeOut
        }
    }

    static func elapsed(since start: UInt64, now: UInt64) -> UInt64 {
        now > start ? now - start : 0
    }

    // MARK: Shutdown and close

    enum ShutdownAction: Equatable {
        case none
        /// An event stream ends: flush, then close.
        case flush
        /// Nothing is pending: close now.
        case close
    }

    /// The server stops taking requests: an idle connection closes now, an in-flight response is
    /// still written (with `Connection: close`), an event stream ends.
    mutating func shutdownRequested(outputEmpty: Bool) -> ShutdownAction {
        switch state {
        case .closed:
            return .none
        case .streaming(let open), .draining(.some(let open)):
            state = .draining(open)
            return .flush
        case .responding(var current):
            current.keepAlive = false
            current.shuttingDown = true
            state = .responding(current)
            return .none
        case .accepted, .reading, .draining(.none):
            if outputEmpty { return .close }
            if case .reading = state { state = .draining(nil) }
            return .none
        }
    }

    /// What closing involves.
    struct CloseAction {
        /// The responder of a request still with its handler: cancel it (its client has gone).
        var responder: HTTPResponder?
        /// The open event stream: terminate it.
        var stream: EventStream?
        /// The socket is in the loop's epoll set: remove it before closing the fd.
        var deregister: Bool
    }

    /// Closes (a graceful close and an abort alike; what is dropped is the caller's business).
    /// - Returns: `nil` when already closed.
    mutating func close() -> CloseAction? {
        var action = CloseAction(deregister: isRegistered)
        switch state {
        case .closed: return nil
        case .accepted, .reading, .draining(.none): break
        case .responding(let current): action.responder = current.responder
        case .streaming(let open), .draining(.some(let open)): action.stream = open.stream
        }
        state = .closed
        return action
    }
}
