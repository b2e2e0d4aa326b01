/// One request waiting for a person's decision, as held by ``ApprovalQueue``.
package struct PendingApproval<Subject: Sendable>: Sendable, Identifiable {
    /// Queue-unique id, increasing in arrival order. Not secret: the approval endpoints are
    /// protected by the approval token, not by the unguessability of this id.
    package let id: UInt64
    /// Who asks: the site's origin (`https://app.example:8443`) or a token client's source name.
    package let source: String
    /// The tab (bridge session) that asked, if any; its requests go away with it.
    package let session: String?
    /// When the request arrived, on the queue's monotonic clock.
    package let createdAt: Duration
    /// When the request expires unless decided.
    package let deadline: Duration
    /// What is asked (authorization, a signature, a metadata update).
    package let subject: Subject
    /// A site not yet connected asking to connect: counted in the queue's connection-request pool.
    package let isConnectionRequest: Bool

    package init(
        id: UInt64, source: String, session: String?, createdAt: Duration, deadline: Duration, subject: Subject,
        isConnectionRequest: Bool = false
    ) {
        self.id = id
        self.source = source
        self.session = session
        self.createdAt = createdAt
        self.deadline = deadline
        self.subject = subject
        self.isConnectionRequest = isConnectionRequest
    }
}

extension PendingApproval: Equatable where Subject: Equatable {}
