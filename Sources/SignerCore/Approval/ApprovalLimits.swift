/// Bounds on what may wait for a person, so that one site (or all of them together) cannot exhaust
/// memory or the person's attention.
package struct ApprovalLimits: Sendable, Equatable {
    /// Most requests one source may have waiting at once (authorization, signing and metadata together).
    package var maxPendingPerSource: Int
    /// Most requests of connected sites (signatures, metadata) waiting at once, over all sources.
    package var maxPendingTotal: Int
    /// Most connection requests (`authorize.tab` from sites not connected) waiting at once. A pool of
    /// its own: strangers asking to connect never take the places of connected sites' requests.
    package var maxPendingAuthorizations: Int
    /// Most connection requests waiting at once from one owner (``SiteOwner``: the ports of one host,
    /// the subdomains of one domain).
    package var maxPendingAuthorizationsPerOwner: Int
    /// How long a request may wait for a decision before it is answered as cancelled.
    package var approvalTimeout: Duration

    /// Creates limits. Defaults: 8 per source, 64 for connected sites in total, 16 connection
    /// requests (2 per owner), 10 minutes.
    package init(
        maxPendingPerSource: Int = 8, maxPendingTotal: Int = 64, maxPendingAuthorizations: Int = 16,
        maxPendingAuthorizationsPerOwner: Int = 2, approvalTimeout: Duration = .seconds(600)
    ) {
        self.maxPendingPerSource = maxPendingPerSource
        self.maxPendingTotal = maxPendingTotal
        self.maxPendingAuthorizations = maxPendingAuthorizations
        self.maxPendingAuthorizationsPerOwner = maxPendingAuthorizationsPerOwner
        self.approvalTimeout = approvalTimeout
    }
}
