import Primitives
import SignerCore

/// The tabs and token clients the gateway talks to, as one object (no I/O, no clock reads: time comes
/// in as `now`): each session's resumable event log, its live listeners and account subscriptions,
/// and the fairness budgets that admit a new session or stream. ``GatewayService`` owns one and
/// shares it with the ``ApprovalCoordinator`` and the bridge adapters, all on the service's actor
/// (it is not `Sendable`): the coordinator only hands it replies to deliver, the polkadot-js adapter
/// its account subscriptions.
///
/// Invariants: a session belongs to the source that created it (`sessionMismatch` otherwise); at
/// most `maxSessions` in total, `maxSessionsPerSource`, `maxSessionsPerOwner`, and
/// `maxSessionsUnconnected` for sources not in the grant book; streams per session and per source
/// are bounded.
final class SessionHub {
    private(set) var sessions: [String: SessionState] = [:]
    let options: GatewayOptions
    let serverID: String
    private var nextListenerID: UInt64 = 0
    /// Set by ``endAll()`` at shutdown: no stream opens any more.
    private(set) var ended = false

    init(options: GatewayOptions, serverID: String) {
        self.options = options
        self.serverID = serverID
    }

    /// Records activity of `client`, creating its session within the budgets.
    /// - Throws: `GatewayError.sessionMismatch` when the session belongs to another source,
    ///   `.tooManySessions` (HTTP 503) naming the budget a new session would exceed.
    func touch(_ client: ClientIdentity, now: Duration, isConnected: (String) -> Bool) throws {
        if var state = sessions[client.session] {
            guard state.source == client.source else {
                throw GatewayError(.sessionMismatch, "the session belongs to another source")
            }
            state.lastActivity = now
            sessions[client.session] = state
        } else {
            try admit(source: client.source, isConnected: isConnected)
            sessions[client.session] = SessionState(source: client.source, now: now)
        }
    }

    /// Fairness budgets for a new session: per source, per owner, strangers together, then the
    /// global bound (one pass over the table; a new session is rare next to its requests).
    func admit(source: String, isConnected: (String) -> Bool) throws {
        guard sessions.count < options.maxSessions else {
            throw GatewayError(.tooManySessions, "\(options.maxSessions) sessions are open")
        }
        let owner = SiteOwner.key(of: source)
        let connected = isConnected(source)
        var sameSource = 0
        var sameOwner = 0
        var unconnected = 0
        var connectedCache: [String: Bool] = [:]
        for state in sessions.values {
            if state.source == source { sameSource += 1 }
            if SiteOwner.key(of: state.source) == owner { sameOwner += 1 }
            if !connected {
                let isConnected = connectedCache[state.source] ?? isConnected(state.source)
                connectedCache[state.source] = isConnected
                if !isConnected { unconnected += 1 }
            }
        }
        guard sameSource < options.maxSessionsPerSource else {
            throw GatewayError(.tooManySessions, "the source has \(sameSource) sessions")
        }
        guard sameOwner < options.maxSessionsPerOwner else {
            throw GatewayError(.tooManySessions, "the source's owner has \(sameOwner) sessions")
        }
        guard connected || unconnected < options.maxSessionsUnconnected else {
            throw GatewayError(.tooManySessions, "\(unconnected) sessions of sites not connected")
        }
    }

    /// The source a session belongs to, if it exists.
    func source(of session: String) -> String? { sessions[session]?.source }

    /// Removes a session, ending its listeners. - Returns: whether it existed.
    @discardableResult
    func remove(_ session: String) -> Bool {
        guard let state = sessions.removeValue(forKey: session) else { return false }
        for listener in state.listeners.values { listener.finish() }
        return true
    }

    /// Sessions with no open stream idle for longer than `sessionIdleTimeout`.
    func idle(now: Duration) -> [String] {
        sessions.compactMap { id, state in
            state.listeners.isEmpty && now - state.lastActivity > options.sessionIdleTimeout ? id : nil
        }
    }

    /// Appends a reply to a session's log (delivering it to open streams).
    func deliver(_ reply: WireReply, to session: String) {
        guard var state = sessions[session] else { return }
        state.append(reply, serverID: serverID)
        sessions[session] = state
    }

    /// Delivers `reply(subscription)` for every account subscription of every session of `source`.
    func deliverToSubscriptions(of source: String, _ reply: (String) -> WireReply) {
        for (session, state) in sessions where state.source == source {
            for subscription in state.subscriptions.sorted() { deliver(reply(subscription), to: session) }
        }
    }

    /// Delivers `reply` to every session of `source`.
    func deliver(_ reply: WireReply, toSource source: String) {
        for (session, state) in sessions where state.source == source { deliver(reply, to: session) }
    }

    /// Adds an account subscription. - Returns: false when the session does not exist.
    func subscribe(_ session: String, id: String) -> Bool {
        guard sessions[session] != nil else { return false }
        sessions[session]?.subscriptions.insert(id)
        return true
    }

    /// Removes an account subscription. - Returns: whether it existed.
    func unsubscribe(_ session: String, id: String) -> Bool {
        sessions[session]?.subscriptions.remove(id) != nil
    }

    /// Opens a listener on a session: the kept events after `after` first, then live ones.
    /// - Throws: `.tooManySessions` when the session or its source has too many open streams.
    /// - Returns: the listener's id (to remove it) and the stream; nil id when the session is gone
    ///   or the hub has ended (the stream is finished then).
    func listen(
        _ client: ClientIdentity, after: UInt64?, continuation: AsyncStream<SessionEvent>.Continuation
    ) throws -> UInt64? {
        guard !ended else {
            continuation.finish()
            return nil
        }
        let open = sessions[client.session]?.listeners.count ?? 0
        guard open < options.maxStreamsPerSession else {
            throw GatewayError(.tooManySessions, "the session has \(open) open streams")
        }
        let ofSource = sessions.values.reduce(0) { $0 + ($1.source == client.source ? $1.listeners.count : 0) }
        guard ofSource < options.maxStreamsPerSource else {
            throw GatewayError(.tooManySessions, "the source has \(ofSource) open streams")
        }
        guard var state = sessions[client.session] else { return nil }
        nextListenerID += 1
        for event in state.replay(after: after) { continuation.yield(event) }
        state.listeners[nextListenerID] = continuation
        sessions[client.session] = state
        return nextListenerID
    }

    /// Shutdown: every listener ends (its stream finishes; a held long-poll answers with no events),
    /// and any opened later ends at once.
    func endAll() {
        ended = true
        for state in sessions.values {
            for listener in state.listeners.values { listener.finish() }
        }
    }

    /// Removes a listener (its stream ended), counting it as activity.
    func removeListener(_ id: UInt64, session: String, now: Duration) {
        guard var state = sessions[session] else { return }
        state.listeners[id] = nil
        state.lastActivity = now
        sessions[session] = state
    }

    /// The kept events of a session after a resume point.
    func replay(_ session: String, after: UInt64?) -> [SessionEvent] { sessions[session]?.replay(after: after) ?? [] }
}
