import SignerCore

/// How the gateway core behaves (the HTTP-facing settings live in ``GatewayConfiguration``).
package struct GatewayOptions: Sendable {
    /// Who decides on approvals.
    package enum ApprovalMode: Sendable, Equatable {
        /// A person, on the approval page or in the terminal.
        case person
        /// Everything approved at once, every account granted. Only with `--dev` (testing).
        case automatic
    }

    /// Who decides.
    package var approvalMode: ApprovalMode
    /// Queue bounds and approval timeout.
    package var limits: ApprovalLimits
    /// How long a tab's session survives without an open event stream or a request.
    package var sessionIdleTimeout: Duration
    /// Most sessions (tabs, clients) kept at once; a new one beyond it is refused (HTTP 503) until
    /// idle ones expire.
    package var maxSessions: Int = 4096
    /// Most sessions one source (origin, or token client) keeps at once.
    package var maxSessionsPerSource: Int = 32
    /// Most sessions one owner (``SiteOwner``: the ports of one host, the subdomains of one domain)
    /// keeps at once.
    package var maxSessionsPerOwner: Int = 128
    /// Most sessions of sources that are not connected, together: strangers can never take the
    /// places that sites the person connected need (4096 − 512 stay theirs).
    package var maxSessionsUnconnected: Int = 512
    /// Most event streams (`/v1/events`, a waiting `/v1/poll`) open at once on one session.
    package var maxStreamsPerSession: Int = 4
    /// Most event streams open at once over all sessions of one source.
    package var maxStreamsPerSource: Int = 64
    /// Requests per second per site owner, and for all strangers together (``RequestThrottle``).
    package var requestRates = RequestThrottle.Rates()
    /// Hosts the phishing deny list names (lower-case, matched with their subdomains). Empty = none.
    package var deniedHosts: Set<String>
    /// ICON (docs/protocol.md "ICON"): the node signed transactions are sent to (`--icon-rpc`);
    /// without one, sending answers `-9999` "no ICON node configured" before anything is queued.
    package var iconNode: (any IconNode)? = nil
    /// The `nid` Sigil puts into a send request that has none (`--icon-nid`, default `0x1`).
    package var iconNetworkID: String = "0x1"
    /// Origins the person allowed to ask for blind signing of a bare hash (`REQUEST_SIGNING`,
    /// `--icon-blind-signing ORIGIN`). Everyone else is refused.
    package var iconBlindSigningOrigins: Set<String> = []
    /// Wall clock in microseconds since 1970 (ICON timestamps; injectable for tests).
    package var iconWallClock: @Sendable () -> Int64 = { IconClock.nowMicroseconds() }

    /// Creates options. Defaults: a person decides, default limits, 60 s idle sessions, no deny list.
    package init(
        approvalMode: ApprovalMode = .person, limits: ApprovalLimits = ApprovalLimits(),
        sessionIdleTimeout: Duration = .seconds(60), deniedHosts: Set<String> = []
    ) {
        self.approvalMode = approvalMode
        self.limits = limits
        self.sessionIdleTimeout = sessionIdleTimeout
        self.deniedHosts = deniedHosts
    }
}
