/// One event on a session's stream: a reply or subscription push, with its resumable event id.
public struct SessionEvent: Sendable, Equatable {
    /// `"<server id>.<sequence>"`: a client resuming with it (SSE `Last-Event-ID`, long-poll
    /// `after`) gets only later events; an id from another server run replays everything kept.
    public let eventID: String
    /// Sequence number within the session, from 1.
    public let sequence: UInt64
    /// The reply.
    public let reply: WireReply
}
