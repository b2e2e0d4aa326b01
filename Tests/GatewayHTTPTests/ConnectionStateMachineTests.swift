import Testing

@testable import GatewayHTTP

/// Every transition of `ConnectionStateMachine`, without sockets: each test is a table of
/// (state the machine is driven into, event, expected state and action). The starting states are
/// reached through the machine's own transitions, never by setting its state.
@Suite struct ConnectionStateMachineTests {
    /// The states a test starts from.
    enum Start: String, CaseIterable, Sendable, CustomTestStringConvertible {
        case accepted, reading, readingAfterFIN, responding, respondingAfterShutdown, streaming, draining
        case drainingStream, closed, closedBeforeRegistration
        var testDescription: String { rawValue }
    }

    /// A state without its payload, for comparisons.
    enum Kind: Equatable, Sendable {
        case accepted, reading, responding, streaming, draining, drainingStream, closed
    }

    /// Deadlines in nanoseconds, small and distinct so each boundary is visible.
    static let policy: ConnectionStateMachine.Policy = {
        var policy = ConnectionStateMachine.Policy(HTTPServerConfiguration())
        policy.headerTimeout = 100
        policy.bodyTimeout = 200
        policy.idleTimeout = 300
        policy.writeStallTimeout = 400
        policy.eventStreamHeartbeat = 500
        policy.eventStreamMaxAge = 1_000
        policy.maxPendingOutputBytes = 1_000
        policy.eventStreamMaxPendingBytes = 500
        policy.maxBufferedInputWhileResponding = 2_000
        return policy
    }()
    static let t0: UInt64 = 10_000
    static let readOnly = EventLoop.Interest(read: true, write: false)

    /// A machine driven into `start`, with the responder and stream it holds (kept alive here: the
    /// machine's reference to the responder is weak).
    struct Fixture {
        var machine = ConnectionStateMachine(policy: ConnectionStateMachineTests.policy, now: t0)
        let responder = HTTPResponder(sink: NullSink(), sequence: 1, lastEventID: nil)
        let stream = EventStream(sink: NullSink(), lastEventID: nil)

        init(_ start: Start) {
            switch start {
            case .accepted: break
            case .closedBeforeRegistration: _ = machine.close()
            default: machine.registered(readOnly)
            }
            switch start {
            case .responding, .respondingAfterShutdown, .streaming, .drainingStream:
                machine.requestDispatched(
                    responder: responder, method: .get, version: .http11, keepAlive: true, requestID: 7, now: t0)
            case .readingAfterFIN:
                let action = machine.peerFinished(reset: false)
                #expect(action == .processBufferedRequests)
            case .draining: machine.requestRefused()
            case .closed: _ = machine.close()
            default: break
            }
            switch start {
            case .respondingAfterShutdown:
                let action = machine.shutdownRequested(outputEmpty: true)
                #expect(action == .none)
            case .streaming, .drainingStream: machine.eventStreamStarted(stream, now: t0)
            default: break
            }
            if start == .drainingStream {
                let flushes = machine.streamCloseRequested()
                #expect(flushes)
            }
            #expect(kind == Self.expectedKind(start))
        }

        static func expectedKind(_ start: Start) -> Kind {
            switch start {
            case .accepted: .accepted
            case .reading, .readingAfterFIN: .reading
            case .responding, .respondingAfterShutdown: .responding
            case .streaming: .streaming
            case .draining: .draining
            case .drainingStream: .drainingStream
            case .closed, .closedBeforeRegistration: .closed
            }
        }

        var kind: Kind {
            switch machine.state {
            case .accepted: .accepted
            case .reading: .reading
            case .responding: .responding
            case .streaming: .streaming
            case .draining(.none): .draining
            case .draining(.some): .drainingStream
            case .closed: .closed
            }
        }
    }

    // MARK: Queries

    struct Queries: Equatable {
        var canDispatch, acceptsRequestBytes, acceptsStreamOutput, isDraining, isRegistered, isClosed: Bool
    }

    @Test(arguments: [
        (Start.accepted, Queries(false, true, false, false, false, false)),
        (.reading, Queries(true, true, false, false, true, false)),
        (.responding, Queries(false, true, false, false, true, false)),
        (.streaming, Queries(false, false, true, false, true, false)),
        (.draining, Queries(false, false, false, true, true, false)),
        (.drainingStream, Queries(false, false, false, true, true, false)),
        (.closed, Queries(false, false, false, false, false, true)),
    ])
    func queriesFollowTheState(_ start: Start, _ expected: Queries) {
        let m = Fixture(start).machine
        #expect(
            Queries(
                m.canDispatch, m.acceptsRequestBytes, m.acceptsStreamOutput, m.isDraining, m.isRegistered,
                m.isClosed) == expected)
    }

    // MARK: Joining the loop

    enum Registration: Sendable { case succeeded, failed }

    @Test(arguments: [
        (Start.accepted, Registration.succeeded, Kind.reading),
        (.accepted, .failed, .closed),
        // Closed (by a racing shutdown) before its start block ran: nothing to register.
        (.closedBeforeRegistration, .succeeded, .closed),
        (.closedBeforeRegistration, .failed, .closed),
        (.reading, .failed, .reading),
    ])
    func registration(_ start: Start, _ outcome: Registration, _ expected: Kind) {
        var f = Fixture(start)
        let wanted = f.machine.registrationInterest
        #expect(wanted == (start == .accepted ? Self.readOnly : nil))
        switch outcome {
        case .succeeded: f.machine.registered(Self.readOnly)
        case .failed: f.machine.registrationFailed()
        }
        #expect(f.kind == expected)
        #expect(f.machine.registrationInterest == nil)
    }

    enum SideChange: Sendable { case none, outputBlocked, outputBlockedThenDrained, readPaused, peerFinished }

    @Test(arguments: [
        (Start.accepted, SideChange.outputBlocked, EventLoop.Interest?.none),
        (.reading, .none, nil),
        (.reading, .outputBlocked, EventLoop.Interest(read: true, write: true)),
        (.reading, .outputBlockedThenDrained, nil),
        (.reading, .readPaused, EventLoop.Interest(read: false, write: false)),
        (.reading, .peerFinished, EventLoop.Interest(read: false, write: false)),
        (.streaming, .outputBlocked, EventLoop.Interest(read: true, write: true)),
        (.closed, .outputBlocked, nil),
    ])
    func interestChangeIsWhatTheLoopMustBeToldOnce(
        _ start: Start, _ change: SideChange, _ expected: EventLoop.Interest?
    ) {
        var f = Fixture(start)
        switch change {
        case .none: break
        case .outputBlocked: f.machine.outputBlocked()
        case .outputBlockedThenDrained:
            f.machine.outputBlocked()
            f.machine.outputDrained()
        case .readPaused: f.machine.backPressure(pendingOutputBytes: 1_001, bufferedInputBytes: 0)
        case .peerFinished: _ = f.machine.peerFinished(reset: false)
        }
        #expect(f.machine.interestChange == expected)
        if let expected {
            f.machine.interestApplied(expected)
            #expect(f.machine.interestChange == nil)
            #expect(f.machine.registeredInterest == expected)
        }
    }

    // MARK: Requests

    @Test(arguments: [
        (Start.reading, true, Kind.responding, true as Bool?),
        (.reading, false, .responding, false),
        // The peer half-closed: its last requests are answered with Connection: close.
        (.readingAfterFIN, true, .responding, false),
        (.accepted, true, .accepted, nil),
        (.responding, true, .responding, true),  // the one already in flight stays
        (.streaming, true, .streaming, nil),
        (.draining, true, .draining, nil),
        (.closed, true, .closed, nil),
    ])
    func requestDispatched(_ start: Start, _ keepAlive: Bool, _ expected: Kind, _ expectedKeepAlive: Bool?) {
        var f = Fixture(start)
        let other = HTTPResponder(sink: NullSink(), sequence: 9, lastEventID: nil)
        let before = f.machine.sequence
        f.machine.requestDispatched(
            responder: other, method: .post, version: .http10, keepAlive: keepAlive, requestID: 42, now: Self.t0 + 5)
        #expect(f.kind == expected)
        let dispatched = expected == .responding && start != .responding
        #expect(f.machine.sequence == (dispatched ? before + 1 : before))
        let current = f.machine.inFlight(sequence: f.machine.sequence)
        #expect(current?.keepAlive == expectedKeepAlive)
        if dispatched, let current {
            #expect(current.responder === other)
            #expect(current.method == .post && current.version == .http10)
            #expect(current.requestID == 42 && current.started == Self.t0 + 5)
            #expect(current.route == nil && !current.shuttingDown)
        }
    }

    @Test func pipelinedRequestsGetIncreasingSequencesAndAStaleReplyFindsNothing() {
        var f = Fixture(.reading)
        for expected in UInt64(1)...3 {
            #expect(f.machine.nextSequence == expected)
            f.machine.requestDispatched(
                responder: f.responder, method: .get, version: .http11, keepAlive: true, requestID: expected,
                now: Self.t0)
            #expect(f.machine.inFlight(sequence: expected)?.requestID == expected)
            #expect(f.machine.inFlight(sequence: expected - 1) == nil)
            #expect(f.machine.inFlight(sequence: expected + 1) == nil)
            let rerun = f.machine.responseQueued(keepAlive: true, now: Self.t0)
            #expect(rerun)  // answered later, outside the parse loop: the caller parses the next one
            #expect(f.machine.inFlight(sequence: expected) == nil)
        }
        #expect(f.machine.requestsServed == 3)
    }

    @Test(arguments: [
        (Start.reading, true, true),
        (.responding, true, true),
        (.draining, true, true),
        (.closed, false, false),
    ])
    func parseLoopGuard(_ start: Start, _ starts: Bool, _ endsAndRestarts: Bool) {
        var f = Fixture(start)
        let first = f.machine.parsingStarted()
        #expect(first == starts)
        // Never twice at once: a reply inside the loop must not start a second one.
        let second = f.machine.parsingStarted()
        #expect(!second)
        f.machine.parsingEnded()
        #expect(!f.machine.parsing)
        let again = f.machine.parsingStarted()
        #expect(again == endsAndRestarts)
    }

    @Test(arguments: [(Start.responding, UInt64(1), "/a/:b" as String?), (.responding, 2, nil), (.reading, 1, nil)])
    func noteRoute(_ start: Start, _ sequence: UInt64, _ expected: String?) {
        var f = Fixture(start)
        f.machine.noteRoute("/a/:b", sequence: sequence)
        #expect(f.machine.inFlight(sequence: 1)?.route == expected)
        #expect(f.kind == Fixture.expectedKind(start))
    }

    @Test(arguments: [
        (Start.reading, Kind.draining), (.responding, .responding), (.streaming, .streaming),
        (.draining, .draining), (.closed, .closed),
    ])
    func requestRefused(_ start: Start, _ expected: Kind) {
        var f = Fixture(start)
        f.machine.requestRefused()
        #expect(f.kind == expected)
    }

    @Test(arguments: [
        (HTTPRequestParser.Phase.idle, false),
        (.head, true),
        (.body, true),
    ])
    func parserPhaseRestartsItsClockOnlyWhenItChanges(_ phase: HTTPRequestParser.Phase, _ changes: Bool) {
        var f = Fixture(.reading)
        var clockRead = false
        func clock() -> UInt64 {
            clockRead = true
            return Self.t0 + 50
        }
        f.machine.parserPhase(phase, now: clock())
        #expect(f.machine.phase == phase)
        #expect(f.machine.phaseStart == (changes ? Self.t0 + 50 : Self.t0))
        #expect(clockRead == changes)
    }

    @Test(arguments: [
        (Start.responding, true, false, Kind.reading, true),
        (.responding, false, false, .draining, true),  // rerun too: the flush of the tail writes it
        (.responding, true, true, .reading, false),
        (.responding, false, true, .draining, false),
        (.reading, true, false, .reading, false),
        (.streaming, true, false, .streaming, false),
        (.closed, true, false, .closed, false),
    ])
    func responseQueued(_ start: Start, _ keepAlive: Bool, _ duringParseLoop: Bool, _ expected: Kind, _ rerun: Bool) {
        var f = Fixture(start)
        f.machine.parserPhase(.body, now: Self.t0 + 1)
        if duringParseLoop { _ = f.machine.parsingStarted() }
        let result = f.machine.responseQueued(keepAlive: keepAlive, now: Self.t0 + 9)
        #expect(result == rerun)
        #expect(f.kind == expected)
        let answered = start == .responding
        #expect(f.machine.requestsServed == (answered ? 1 : 0))
        #expect(f.machine.phase == (answered ? .idle : .body))
        #expect(f.machine.phaseStart == (answered ? Self.t0 + 9 : Self.t0 + 1))
    }

    // MARK: Event streams

    @Test(arguments: [
        (Start.responding, UInt64(1), true),
        (.responding, 2, false),
        (.respondingAfterShutdown, 1, false),
        (.reading, 1, false),
        (.streaming, 1, false),
        (.closed, 1, false),
    ])
    func eventStreamAllowed(_ start: Start, _ sequence: UInt64, _ allowed: Bool) {
        let f = Fixture(start)
        #expect((f.machine.eventStreamAllowed(sequence: sequence) != nil) == allowed)
    }

    enum StreamHead: Sendable { case started, refused }

    @Test(arguments: [
        (Start.responding, StreamHead.started, Kind.streaming),
        (.responding, .refused, .draining),
        (.reading, .started, .reading),
        (.reading, .refused, .reading),
        (.closed, .started, .closed),
    ])
    func eventStreamHead(_ start: Start, _ head: StreamHead, _ expected: Kind) {
        var f = Fixture(start)
        switch head {
        case .started: f.machine.eventStreamStarted(f.stream, now: Self.t0 + 3)
        case .refused: f.machine.eventStreamRefused()
        }
        #expect(f.kind == expected)
        #expect(f.machine.inFlight(sequence: 1) == nil || start != .responding)
        if case .streaming(let open) = f.machine.state {
            #expect(open.stream === f.stream && open.started == Self.t0 + 3 && open.lastOutput == Self.t0 + 3)
        }
    }

    @Test(arguments: [
        (0, ConnectionStateMachine.StreamOutputAction.flush),
        (500, .flush),
        (501, .dropSlowReader),
    ])
    func streamOutputQueued(_ pendingBytes: Int, _ expected: ConnectionStateMachine.StreamOutputAction) {
        var f = Fixture(.streaming)
        let result = f.machine.streamOutputQueued(pendingBytes: pendingBytes, now: Self.t0 + 77)
        #expect(result == expected)
        guard case .streaming(let open) = f.machine.state else {
            Issue.record("left streaming")
            return
        }
        #expect(open.lastOutput == Self.t0 + 77)
    }

    @Test(arguments: [
        (Start.streaming, true, Kind.drainingStream),
        (.drainingStream, true, .drainingStream),
        (.responding, false, .responding),
        (.reading, false, .reading),
        (.draining, false, .draining),
        (.closed, false, .closed),
    ])
    func streamCloseRequested(_ start: Start, _ flushes: Bool, _ expected: Kind) {
        var f = Fixture(start)
        let result = f.machine.streamCloseRequested()
        #expect(result == flushes)
        #expect(f.kind == expected)
    }

    // MARK: Reading and writing

    @Test(arguments: [
        (Start.reading, false, ConnectionStateMachine.PeerFinishedAction.processBufferedRequests),
        (.reading, true, .abort),
        (.draining, false, .processBufferedRequests),
        (.responding, false, .abort),
        (.streaming, false, .abort),
        (.drainingStream, false, .abort),
        (.closed, false, .abort),
    ])
    func peerFinished(_ start: Start, _ reset: Bool, _ expected: ConnectionStateMachine.PeerFinishedAction) {
        var f = Fixture(start)
        let result = f.machine.peerFinished(reset: reset)
        #expect(result == expected)
        #expect(f.kind == Fixture.expectedKind(start))
        #expect((f.machine.read == .finished) == (expected == .processBufferedRequests))
        #expect(!f.machine.wantsRead || expected == .abort)
    }

    @Test(arguments: [
        (Start.readingAfterFIN, ConnectionStateMachine.BufferedRequestsAction.flush, Kind.draining),
        (.responding, .abort, .responding),
        (.streaming, .flush, .drainingStream),
        (.draining, .flush, .draining),
    ])
    func bufferedRequestsProcessed(
        _ start: Start, _ expected: ConnectionStateMachine.BufferedRequestsAction, _ kind: Kind
    ) {
        var f = Fixture(start)
        let result = f.machine.bufferedRequestsProcessed()
        #expect(result == expected)
        #expect(f.kind == kind)
    }

    @Test(arguments: [
        (Start.reading, Kind.draining, false),
        (.responding, .draining, true),
        (.streaming, .drainingStream, false),
        (.draining, .draining, false),
        (.drainingStream, .drainingStream, false),
        (.closed, .closed, false),
    ])
    func tlsFailed(_ start: Start, _ expected: Kind, _ cancelsResponder: Bool) {
        var f = Fixture(start)
        let responder = f.machine.tlsFailed()
        #expect(f.kind == expected)
        #expect((responder === f.responder) == cancelsResponder)
        #expect(cancelsResponder || responder == nil)
    }

    @Test func writeSideAndProgress() {
        var f = Fixture(.reading)
        #expect(!f.machine.isWaitingForWritable)
        f.machine.outputBlocked()
        #expect(f.machine.isWaitingForWritable && f.machine.write == .waitingForWritable)
        f.machine.outputProgressed(now: Self.t0 + 123)
        #expect(f.machine.lastWriteProgress == Self.t0 + 123)
        f.machine.outputDrained()
        #expect(!f.machine.isWaitingForWritable && f.machine.write == .direct)
    }

    @Test(arguments: [
        (Start.reading, 0, 0, ConnectionStateMachine.ReadSide.open),
        (.reading, 1_000, 0, .open),
        (.reading, 1_001, 0, .paused),
        (.reading, 0, 1_000_000, .open),  // nothing in flight: the parser's limits bound the input
        (.responding, 0, 2_000, .open),
        (.responding, 0, 2_001, .paused),
        (.streaming, 1_001, 0, .paused),
        (.readingAfterFIN, 0, 0, .finished),
        (.closed, 1_001, 0, .open),
    ])
    func backPressure(_ start: Start, _ pending: Int, _ buffered: Int, _ expected: ConnectionStateMachine.ReadSide) {
        var f = Fixture(start)
        f.machine.backPressure(pendingOutputBytes: pending, bufferedInputBytes: buffered)
        #expect(f.machine.read == expected)
        // And back once the pressure is gone (a finished read side never reopens).
        f.machine.backPressure(pendingOutputBytes: 0, bufferedInputBytes: 0)
        #expect(f.machine.read == (expected == .finished ? .finished : .open))
    }

    // MARK: Deadlines

    struct DeadlineCase: Sendable, CustomTestStringConvertible {
        var start: Start
        var phase: HTTPRequestParser.Phase = .idle
        var served = false
        var pending = 0
        var after: UInt64
        var action: ConnectionStateMachine.DeadlineAction
        var kind: Kind
        var testDescription: String { "\(start) \(phase) served=\(served) pending=\(pending) +\(after) → \(action)" }
    }

    @Test(arguments: [
        // A connection that never sent a byte gets the header deadline; a kept-alive one the idle one.
        DeadlineCase(start: .accepted, after: 101, action: .closeIdle, kind: .accepted),
        DeadlineCase(start: .reading, after: 100, action: .none, kind: .reading),
        DeadlineCase(start: .reading, after: 101, action: .closeIdle, kind: .reading),
        DeadlineCase(start: .reading, served: true, after: 300, action: .none, kind: .reading),
        DeadlineCase(start: .reading, served: true, after: 301, action: .closeIdle, kind: .reading),
        // A slow head or body is answered 408 and the connection drains.
        DeadlineCase(start: .reading, phase: .head, after: 100, action: .none, kind: .reading),
        DeadlineCase(start: .reading, phase: .head, after: 101, action: .timeOut, kind: .draining),
        DeadlineCase(start: .reading, phase: .body, after: 200, action: .none, kind: .reading),
        DeadlineCase(start: .reading, phase: .body, after: 201, action: .timeOut, kind: .draining),
        // Output stuck for the write-stall time drops the connection, whatever its state.
        DeadlineCase(start: .reading, pending: 1, after: 401, action: .dropStalledWriter, kind: .reading),
        DeadlineCase(start: .responding, pending: 1, after: 401, action: .dropStalledWriter, kind: .responding),
        DeadlineCase(start: .draining, pending: 1, after: 400, action: .none, kind: .draining),
        DeadlineCase(start: .streaming, pending: 1, after: 1_001, action: .dropStalledWriter, kind: .streaming),
        // The handler has all the time it wants.
        DeadlineCase(start: .responding, phase: .body, after: 1_000_000, action: .none, kind: .responding),
        DeadlineCase(start: .draining, phase: .head, after: 1_000_000, action: .none, kind: .draining),
        // Streams: a heartbeat after silence, an end at their maximum age; none while closing.
        DeadlineCase(start: .streaming, after: 500, action: .none, kind: .streaming),
        DeadlineCase(start: .streaming, after: 501, action: .heartbeat, kind: .streaming),
        DeadlineCase(start: .streaming, after: 1_001, action: .flush, kind: .drainingStream),
        DeadlineCase(start: .drainingStream, after: 501, action: .none, kind: .drainingStream),
        DeadlineCase(start: .drainingStream, after: 1_001, action: .flush, kind: .drainingStream),
        DeadlineCase(start: .closed, pending: 1, after: 1_000_000, action: .none, kind: .closed),
    ])
    func deadline(_ c: DeadlineCase) {
        var f = Fixture(c.start)
        if c.served {
            f.machine.requestDispatched(
                responder: f.responder, method: .get, version: .http11, keepAlive: true, requestID: 1, now: Self.t0)
            _ = f.machine.responseQueued(keepAlive: true, now: Self.t0)
        }
        f.machine.parserPhase(c.phase, now: Self.t0)
        let result = f.machine.deadline(now: Self.t0 + c.after, pendingBytes: c.pending)
        #expect(result == c.action)
        #expect(f.kind == c.kind)
    }

    @Test func aHeartbeatRestartsTheSilenceClock() {
        var f = Fixture(.streaming)
        let first = f.machine.deadline(now: Self.t0 + 501, pendingBytes: 0)
        #expect(first == .heartbeat)
        let second = f.machine.deadline(now: Self.t0 + 1_000, pendingBytes: 0)
        #expect(second == .none)
        let result = f.machine.deadline(now: Self.t0 + 1_002, pendingBytes: 0)
        #expect(result == .flush)  // age counts from the start
    }

    @Test func aClockThatSeemsToGoBackwardsNeverTimesOut() {
        var f = Fixture(.reading)
        f.machine.parserPhase(.head, now: Self.t0)
        f.machine.outputProgressed(now: Self.t0)
        let result = f.machine.deadline(now: Self.t0 - 5_000, pendingBytes: 1)
        #expect(result == .none)
        #expect(ConnectionStateMachine.elapsed(since: 10, now: 3) == 0)
    }

    // MARK: Shutdown and close

    @Test(arguments: [
        (Start.accepted, true, ConnectionStateMachine.ShutdownAction.close, Kind.accepted),
        (.reading, true, .close, .reading),
        (.reading, false, .none, .draining),
        (.responding, false, .none, .responding),
        (.streaming, false, .flush, .drainingStream),
        (.drainingStream, false, .flush, .drainingStream),
        (.draining, true, .close, .draining),
        (.draining, false, .none, .draining),
        (.closed, true, .none, .closed),
    ])
    func shutdownRequested(
        _ start: Start, _ outputEmpty: Bool, _ expected: ConnectionStateMachine.ShutdownAction, _ kind: Kind
    ) {
        var f = Fixture(start)
        let result = f.machine.shutdownRequested(outputEmpty: outputEmpty)
        #expect(result == expected)
        #expect(f.kind == kind)
        if start == .responding {
            // The in-flight reply still goes out, with Connection: close, and cannot become a stream.
            let current = f.machine.inFlight(sequence: 1)
            #expect(current?.keepAlive == false && current?.shuttingDown == true)
            #expect(f.machine.eventStreamAllowed(sequence: 1) == nil)
        }
    }

    @Test(arguments: [
        (Start.accepted, false, false, false),
        (.reading, true, false, false),
        (.responding, true, true, false),
        (.streaming, true, false, true),
        (.draining, true, false, false),
        (.drainingStream, true, false, true),
    ])
    func close(_ start: Start, _ deregister: Bool, _ cancels: Bool, _ terminates: Bool) throws {
        var f = Fixture(start)
        let closing = f.machine.close()
        let action = try #require(closing)
        #expect(f.kind == .closed)
        #expect(action.deregister == deregister)
        #expect((action.responder === f.responder) == cancels && (cancels || action.responder == nil))
        #expect((action.stream === f.stream) == terminates && (terminates || action.stream == nil))
        // Closing is done once: a second close finds nothing to do, and nothing reopens.
        let again = f.machine.close()
        #expect(again == nil)
        f.machine.registered(Self.readOnly)
        #expect(f.kind == .closed && f.machine.interestChange == nil)
    }
}

extension ConnectionStateMachineTests.Queries {
    init(_ a: Bool, _ b: Bool, _ c: Bool, _ d: Bool, _ e: Bool, _ g: Bool) {
        self.init(
            canDispatch: a, acceptsRequestBytes: b, acceptsStreamOutput: c, isDraining: d, isRegistered: e,
            isClosed: g)
    }
}

/// A reply sink that drops everything (the machine never calls it; responders and streams need one).
final class NullSink: ResponseSink {
    func deliver(_ response: HTTPResponse, sequence: UInt64) {}
    func beginStream(_ stream: EventStream, headers: HTTPHeaders, sequence: UInt64) {}
    func streamWrite(_ bytes: [UInt8]) {}
    func streamClose() {}
    func noteRoute(_ pattern: String, sequence: UInt64) {}
}
