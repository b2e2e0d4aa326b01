/// A tab's (or token client's) server-side state: the bounded, resumable log of events not yet
/// known to be delivered, its live listeners and its account subscriptions.
struct SessionState {
    let source: String
    var nextSequence: UInt64 = 1
    var log: [SessionEvent] = []
    var listeners: [UInt64: AsyncStream<SessionEvent>.Continuation] = [:]
    var subscriptions: Set<String> = []
    var lastActivity: Duration

    /// Most events kept for replay; older ones are dropped (a client that fell this far behind
    /// reloads). Replies are never lost while the stream reconnects within this window.
    static let maxLog = 256

    init(source: String, now: Duration) {
        self.source = source
        lastActivity = now
    }

    mutating func append(_ reply: WireReply, serverID: String) {
        let event = SessionEvent(eventID: "\(serverID).\(nextSequence)", sequence: nextSequence, reply: reply)
        nextSequence += 1
        log.append(event)
        if log.count > Self.maxLog { log.removeFirst(log.count - Self.maxLog) }
        for listener in listeners.values { listener.yield(event) }
    }

    /// Events after a resume point (`nil` = everything kept).
    func replay(after sequence: UInt64?) -> [SessionEvent] {
        guard let sequence else { return log }
        return log.filter { $0.sequence > sequence }
    }
}
