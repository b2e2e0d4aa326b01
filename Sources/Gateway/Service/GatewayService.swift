import Journal
import Keystore
import Logging
import Primitives
import SignerCore

/// The gateway's session hub and router: admits each dapp-port request (``AdmissionGate``), keeps
/// each tab's resumable event log (``SessionHub``), dispatches bridge messages to their protocol's
/// adapter (``PolkadotAdapter``, ``IconAdapter``), and exposes the one ``ApprovalCoordinator`` (the
/// queue, the grant book, decide → sign → journal → deliver) as the seam the JSON-RPC adapters stand
/// on (``ApprovalSeam``, ``GrantBook``, ``IcrcPermissionStore``) and to the approval page. One
/// instance per `sigil serve`; an actor, so every state change (its own, the hub's, the
/// coordinator's) is serialized on it. Time is read only from the injected clock; `tick()` does the
/// periodic work (expiry, idle sessions) so tests drive it with a manual clock.
///
/// Security: the site identity is the ``ClientIdentity`` the HTTP layer derived from `Origin` (or a
/// bearer token), never anything in the message. Errors sent to clients are the fixed polkadot-js
/// strings of ``WireErrorText``; reasons go to the log only (at debug), never payloads or keys.
package actor GatewayService {
    /// Random per process; lets clients detect a restart (their waiting requests are gone).
    package nonisolated let serverID: String
    /// Where every decision is recorded before its reply leaves (docs/journal.md); nil: none kept.
    package nonisolated let journal: (any SigningJournal)?
    /// Every method of every protocol, by wire name, with each protocol's error mapper.
    let registry: MethodRegistry
    let clock: any MonotonicClock
    let logger: Logger
    /// Signatures and decisions are counted here (`/metrics`).
    package nonisolated let metrics: GatewayMetrics
    /// The tabs and token clients: event logs, listeners, subscriptions, session budgets.
    let hub: SessionHub
    /// The approval queue, the grant book, decisions, the journal (runs on this actor).
    let coordinator: ApprovalCoordinator
    /// The bridge protocols (`POST /v1/request`).
    let polkadot: PolkadotAdapter
    let icon: IconAdapter

    /// What `handle` produced.
    package enum Outcome: Sendable, Equatable {
        /// The reply, now.
        case reply(WireReply)
        /// Queued for a person; the reply will arrive on the session's event stream.
        case pending
    }

    /// Creates the service, loading stored authorizations (and the store's revision, from which
    /// `reconcile()` reads on).
    package init(
        options: GatewayOptions, signer: any RequestSigner,
        metadata: any MetadataRegistry, persistence: any AuthorizationPersistence,
        clock: any MonotonicClock = SystemMonotonicClock(), serverID: String, logger: Logger,
        metrics: GatewayMetrics = GatewayMetrics(), journal: (any SigningJournal)? = nil,
        blindSigning: any BlindSigningSettings = InMemoryBlindSigning(),
        icrcScopes: any IcrcPermissionStore = InMemoryIcrcPermissions()
    ) async throws {
        self.journal = journal
        let registry = try MethodRegistry.standard()
        self.registry = registry
        self.clock = clock
        hub = SessionHub(options: options, serverID: serverID)
        self.serverID = serverID
        self.logger = logger
        self.metrics = metrics
        polkadot = PolkadotAdapter(signer: signer, metadata: metadata)
        icon = IconAdapter(signer: signer, options: options, logger: logger)
        let parts = ApprovalCoordinator.Parts(
            options: options, signer: signer, persistence: persistence,
            blindSigning: blindSigning, icrcScopes: icrcScopes,
            recorder: JournalRecorder(journal: journal, signer: signer, registry: registry, logger: logger),
            clock: clock, logger: logger, metrics: metrics)
        coordinator = ApprovalCoordinator(
            parts, stored: try await persistence.load(), hub: hub,
            subscribedAccounts: { [polkadot] keys in polkadot.accountList(keys, anyType: false) })
        coordinator.host = self
    }

    // MARK: Requests

    /// The admission gate (``AdmissionGate``) every dapp-port route calls before any protocol code:
    /// the request rate of the client's owner (and, for a source the person has not connected, the
    /// strangers' shared one; token clients are not throttled), then the deny list. Called before
    /// the body is parsed; a rate refusal is HTTP 429 and costs nothing else.
    /// - Returns: nil when admitted, else the refusal for the route to answer in its protocol's shape.
    package func admit(_ client: ClientIdentity, at entry: EntryPoint) -> AdmissionRefusal? {
        let connected = coordinator.center.book.site(client.source) != nil
        // Refusals are counted by /metrics as HTTP 429 of the route.
        switch coordinator.gate.admit(source: client.source, connected: connected, at: entry, now: clock.now) {
        case .admitted: return nil
        case .refused(let refusal, let newlyThrottled):
            if newlyThrottled {
                logger.notice("site owner throttled", metadata: ["owner": "\(SiteOwner.key(of: client.source))"])
                coordinator.notifyUI()
            }
            return refusal
        }
    }

    /// Whether a `POST /v1/request` of `client` passes the gate (``admit(_:at:)``).
    package func admitRequest(from client: ClientIdentity) -> Bool {
        admit(client, at: .request) != .rateLimited
    }

    /// Site owners refused by the throttle in the last minute (the approval page's one line).
    package func recentlyThrottled() -> [RequestThrottle.Throttled] {
        coordinator.gate.throttle.recentlyThrottled(now: clock.now)
    }

    /// Handles one request from an identified client.
    /// - Throws: `GatewayError.sessionMismatch` when the session belongs to another source (the
    ///   HTTP layer answers 403), `.tooManySessions` when a new session would exceed the bound
    ///   (503); every other failure is an `{id, error}` reply.
    package func handle(_ request: WireRequest, from client: ClientIdentity) async throws -> Outcome {
        try touchSession(client)
        do {
            return try await dispatch(request, client)
        } catch {
            // The reason (never the payload) at debug only; the site gets its protocol's error shape.
            logger.debug("request refused", metadata: ["message": "\(request.message)", "reason": "\(error)"])
            if let refused = coordinator.recorder.refusalSubject(request, error) {
                await coordinator.journalRefusal(method: refused.method, client.source, account: refused.account, error)
            }
            let wireProtocol = registry.method(named: request.message)?.type.wireProtocol ?? .polkadot
            let body = registry.errorMapper(for: wireProtocol).body(for: error, source: client.source)
            return .reply(WireReply(id: request.id, body))
        }
    }

    /// Ends a session now (the tab said goodbye): its waiting requests are dropped, its
    /// subscriptions end.
    package func closeSession(_ session: String, source: String) {
        guard hub.source(of: session) == source else { return }
        dropSession(session)
    }

    /// Periodic work: expire requests past their deadline (answered as cancelled) and drop sessions
    /// idle for longer than `sessionIdleTimeout` with no open stream.
    package func tick() async {
        let now = clock.now
        let expired = coordinator.center.expire(now: now)
        for approval in expired { await coordinator.answerCancelled(approval, .expired, "approval timeout") }
        for id in hub.idle(now: now) { dropSession(id) }
        if !expired.isEmpty { coordinator.notifyUI() }
    }

    /// The earliest moment `tick()` has work (for the run loop).
    package var nextDeadline: Duration? { coordinator.center.queue.nextDeadline }

    func touchSession(_ client: ClientIdentity) throws {
        let book = coordinator.center.book
        try hub.touch(client, now: clock.now) { book.site($0) != nil }
    }

    func dropSession(_ session: String) {
        guard hub.remove(session) else { return }
        let dropped = coordinator.center.endSession(session)
        for approval in dropped {
            coordinator.waiters[approval.id] = nil
            Task { await self.coordinator.journalAbandoned(approval, .cancelled, "the tab went away") }
        }
        if !dropped.isEmpty { coordinator.notifyUI() }
    }

    /// Looks the message up in the typed registry and dispatches it exhaustively to its protocol's
    /// adapter. - Throws: `GatewayError.unknownMessage` for a name no protocol registered.
    func dispatch(_ request: WireRequest, _ client: ClientIdentity) async throws -> Outcome {
        guard let method = registry.method(named: request.message) else {
            throw GatewayError(.unknownMessage, request.message)
        }
        if method.type.needsConnectedSite {
            // polkadot-js Tabs.ts ensureUrlAuthorized: before the parameters are even read.
            _ = try coordinator.center.requireEnabled(client.source)
        }
        switch method {
        case .polkadot(let polkadot):
            return try await self.polkadot.dispatch(polkadot, request, client, core: coordinator, sessions: hub)
        case .icon(let icon): return await self.icon.dispatch(icon, request, client, core: coordinator)
        case .icrc:
            // ICRC methods speak JSON-RPC 2.0 at `POST /v1/icrc` (and the ICRC-29 relay), where
            // `IcrcService` dispatches them; on this transport they are answered as not supported.
            throw GatewayError(.unknownMessage, "ICRC methods are answered at POST /v1/icrc")
        }
    }

    /// ICONex Connect's URL form (`GET /icon/connect`): the Connect request of `client` (identified by
    /// `caller`'s origin), whose answer will be sent to `caller`, which the person is shown.
    package func handleIconConnect(_ request: WireRequest, from client: ClientIdentity, caller: String) async throws
        -> Outcome
    {
        try touchSession(client)
        return await icon.dispatch(.connect, request, client, caller: caller, core: coordinator)
    }

    // MARK: Event streams

    /// Opens a listener on a session's events: first the kept events after `after` (a sequence
    /// number from an event id of this server run; `nil` replays everything kept), then live ones.
    /// The stream ends when the session ends. Creates the session if it does not exist yet.
    /// - Throws: `GatewayError.sessionMismatch` when the session belongs to another source.
    /// - Throws: `.tooManySessions` (HTTP 503) when the session already has
    ///   `GatewayOptions.maxStreamsPerSession` open streams or its source `maxStreamsPerSource`.
    package func events(for client: ClientIdentity, after: UInt64?) throws -> AsyncStream<SessionEvent> {
        try touchSession(client)
        let (stream, continuation) = AsyncStream<SessionEvent>.makeStream(bufferingPolicy: .bufferingNewest(512))
        guard let listenerID = try hub.listen(client, after: after, continuation: continuation) else { return stream }
        let session = client.session
        continuation.onTermination = { _ in Task { await self.removeListener(listenerID, session: session) } }
        return stream
    }

    /// Shutdown (`sigil serve` on SIGTERM, before its servers stop): every event stream ends and every
    /// held long-poll answers now, with no events, instead of holding its connection through the
    /// server's grace period; streams and polls opened later end at once (``SessionHub/endAll()``).
    package func endEventStreams() { hub.endAll() }

    /// The kept events after a resume point, without waiting (long-poll answers at once when this
    /// is not empty). Creates the session if it does not exist yet.
    /// - Throws: `GatewayError.sessionMismatch` when the session belongs to another source.
    package func keptEvents(for client: ClientIdentity, after: UInt64?) throws -> [SessionEvent] {
        try touchSession(client)
        return hub.replay(client.session, after: after)
    }

    /// Parses the resume point of an event id (`"<server>.<n>"`): the sequence if it is from this
    /// server run, `nil` (replay everything) otherwise.
    package nonisolated func sequence(ofEventID eventID: String?) -> UInt64? {
        guard let eventID, let dot = eventID.lastIndex(of: "."), eventID[..<dot] == serverID[...] else { return nil }
        return UInt64(eventID[eventID.index(after: dot)...])
    }

    func removeListener(_ id: UInt64, session: String) {
        hub.removeListener(id, session: session, now: clock.now)
    }
}
