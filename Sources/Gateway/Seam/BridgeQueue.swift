import Primitives
import SignerCore

/// What a bridge adapter (``PolkadotAdapter``, ``IconAdapter``: protocols answered on a tab's event
/// log, not by one JSON-RPC reply) needs from the core, and nothing more: the grant book's answers
/// for a source, the queue's three kinds of request, and the waiter that delivers the decision to
/// the tab. The ``ApprovalCoordinator`` is the one implementation; the JSON-RPC adapters stand on
/// ``ApprovalSeam`` instead.
///
/// Isolation: an implementation is used on one actor only (the service's); the adapters call it
/// from `nonisolated(nonsending)` methods, so no call crosses an actor.
protocol BridgeQueue: AnyObject {
    /// The account keys granted to `source`.
    /// - Throws: `SignerError.notEnabled` when it is not connected.
    func requireEnabled(_ source: String) throws -> [String]
    /// Resolves an address to an account `source` may use (its granted keys `allowed`).
    /// - Throws: `SignerError.unknownAccount` (the address is never echoed).
    func account(_ address: String, allowed: [String]) throws -> SignerAccount
    /// Whether the deny list names the source's host.
    func isDenied(_ source: String) -> Bool
    /// - Throws: `SignerError.authorizationPending` while a connection of `source` is being stored.
    func requireNoAuthorizationStoring(_ source: String) throws
    /// Whether the source is connected only by another protocol's grant (ICRC scopes): its
    /// connection request is then put to the person.
    nonisolated(nonsending) func isConnectedByAnotherProtocolOnly(_ source: String) async -> Bool
    /// Whether the person allowed `source` blind signing (unreadable counts as off).
    nonisolated(nonsending) func isBlindSigningAllowed(_ source: String) async -> Bool

    /// A connection request of `client` (``ApprovalCenter/requestAuthorization``).
    func requestAuthorization(
        _ client: ClientIdentity, declaredName: String, askAgain: Bool, fromLink: Bool
    ) throws -> ApprovalCenter.AuthorizationOutcome
    /// A signing request of `client` (the source must be connected and granted its account).
    func requestSignature(_ request: AdapterApproval, from client: ClientIdentity) throws
        -> PendingApproval<ApprovalSubject>
    /// A request of `client` that signs nothing but stores what it carries (polkadot-js's metadata
    /// update; the source must be connected).
    func requestUpdate(_ request: AdapterApproval, from client: ClientIdentity) throws
        -> PendingApproval<ApprovalSubject>
    /// Registers who waits (the tab's session, answered in the protocol's words: `replies`) with
    /// the sign step (or the store step), then decides at once (automatic mode) or shows the request.
    nonisolated(nonsending) func queued(
        _ approval: PendingApproval<ApprovalSubject>, _ request: WireRequest, _ client: ClientIdentity,
        sign: ApprovalWaiter.Sign?, scheme: String?, store: ApprovalWaiter.Store?, replies: any BridgeReplies
    ) async -> GatewayService.Outcome
}

extension BridgeQueue {
    /// `queued` for a connection request (nothing signed or stored by the adapter).
    nonisolated(nonsending) func queued(
        _ approval: PendingApproval<ApprovalSubject>, _ request: WireRequest, _ client: ClientIdentity,
        replies: any BridgeReplies
    ) async -> GatewayService.Outcome {
        await queued(approval, request, client, sign: nil, scheme: nil, store: nil, replies: replies)
    }

    /// `queued` for a request that signs.
    nonisolated(nonsending) func queued(
        _ approval: PendingApproval<ApprovalSubject>, _ request: WireRequest, _ client: ClientIdentity,
        sign: @escaping ApprovalWaiter.Sign, scheme: String, replies: any BridgeReplies
    ) async -> GatewayService.Outcome {
        await queued(approval, request, client, sign: sign, scheme: scheme, store: nil, replies: replies)
    }
}

extension ApprovalCoordinator: BridgeQueue {
    func requireEnabled(_ source: String) throws -> [String] { try center.requireEnabled(source) }

    func requestAuthorization(
        _ client: ClientIdentity, declaredName: String, askAgain: Bool, fromLink: Bool
    ) throws -> ApprovalCenter.AuthorizationOutcome {
        try center.requestAuthorization(
            source: client.source, declaredName: declaredName, session: client.session, now: clock.now,
            askAgain: askAgain, fromLink: fromLink)
    }

    func requestSignature(_ request: AdapterApproval, from client: ClientIdentity) throws
        -> PendingApproval<ApprovalSubject>
    {
        try center.requestSignature(source: client.source, session: client.session, request: request, now: clock.now)
    }

    func requestUpdate(_ request: AdapterApproval, from client: ClientIdentity) throws
        -> PendingApproval<ApprovalSubject>
    {
        try center.requestUpdate(source: client.source, session: client.session, request: request, now: clock.now)
    }
}
