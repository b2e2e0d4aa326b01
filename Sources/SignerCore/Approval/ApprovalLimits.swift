/// Bounds on what may wait for a person, so that one site (or all of them together) cannot exhaust
/// memory or the person's attention.
public struct ApprovalLimits: Sendable, Equatable {
    /// Most requests one source may have waiting at once (authorization, signing and metadata together).
    public var maxPendingPerSource: Int
    /// Most requests waiting at once, over all sources.
    public var maxPendingTotal: Int
    /// How long a request may wait for a decision before it is answered as cancelled.
    public var approvalTimeout: Duration

    /// Creates limits. Defaults: 8 per source, 64 in total, 10 minutes.
    public init(maxPendingPerSource: Int = 8, maxPendingTotal: Int = 64, approvalTimeout: Duration = .seconds(600)) {
        self.maxPendingPerSource = maxPendingPerSource
        self.maxPendingTotal = maxPendingTotal
        self.approvalTimeout = approvalTimeout
    }
}
