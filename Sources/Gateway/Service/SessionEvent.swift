/// One event on a session's stream: a reply or subscription push, with its resumable event id.
package struct SessionEvent: Sendable, Equatable {
    /// `"<server id>.<sequence>"`: a client resuming with it (SSE `Last-Event-ID`, long-poll
    /// `after`) gets only later events; an id from another server run replays everything kept.
    package let eventID: String
    /// Sequence number within the session, from 1.
    package let sequence: UInt64
    /// The reply.
    package let reply: WireReply
}
