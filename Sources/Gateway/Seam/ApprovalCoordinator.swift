import Journal
import Logging
import Primitives
import SignerCore

/// The one approval coordinator (docs/architecture.md, "The seam"): the approval queue and the one
/// grant book (``ApprovalCenter``), who waits for each answer (``ApprovalWaiter``), the path from a
/// decision to the waiting client (decide → sign → journal → deliver, ``ApprovalLifecycle``), the
/// stored authorizations and their revisions, the journal entries (``JournalRecorder``) and the
/// approval page's listeners. Every protocol's request ends here: the bridge adapters
/// (``PolkadotAdapter``, ``IconAdapter``) through ``BridgeQueue``, each with its ``BridgeReplies``
/// (the coordinator knows no protocol's wire shapes), the JSON-RPC adapters through the seam
/// (``ApprovalSeam``, ``GrantBook``) that ``GatewayService`` implements on it.
///
/// Isolation: not `Sendable`. ``GatewayService`` owns the one instance and every call runs on the
/// service's actor (the async methods are `nonisolated(nonsending)`: they run on their caller's
/// actor), so a request, its decision and its delivery take no extra actor hop, and a decision is
/// taken without suspending (concurrent requests never see it still queued). Work that must start
/// later (an automatic decision for an adapter, a withdrawal when a client went away, a closed
/// listener) re-enters through ``host``.
final class ApprovalCoordinator {
    let options: GatewayOptions
    let signer: any RequestSigner
    let persistence: any AuthorizationPersistence
    /// The sites the person allowed blind signing (docs/blind-signing.md).
    let blindSigning: any BlindSigningSettings
    /// The Internet Computer scopes of connected sites (valid only while the site is in the book).
    let icrcScopes: any IcrcPermissionStore
    /// Builds and appends the journal's entries (every decision before its reply leaves).
    let recorder: JournalRecorder
    let clock: any MonotonicClock
    let logger: Logger
    /// Signatures and decisions are counted here (`/metrics`).
    let metrics: GatewayMetrics
    /// Where a session's reply goes (shared with the service).
    let hub: SessionHub
    /// The account list a tab's account subscription receives (polkadot-js `accounts.subscribe`,
    /// the only protocol with one) for the granted keys, pushed whenever a grant changes.
    let subscribedAccounts: @Sendable ([String]) -> JSONValue
    /// The service whose actor this runs on; new tasks re-enter through it.
    weak var host: GatewayService?

    var center: ApprovalCenter
    /// The admission gate: the service's routes ask its rate and deny list; its journal budget is
    /// spent here, for entries no person decided.
    var gate: AdmissionGate
    /// Approval id → who waits for the answer.
    var waiters: [UInt64: ApprovalWaiter] = [:]
    var uiListeners: [UInt64: AsyncStream<Void>.Continuation] = [:]
    var approvalListeners: [UInt64: AsyncStream<PendingApproval<ApprovalSubject>>.Continuation] = [:]
    var nextListenerID: UInt64 = 0
    /// The store revisions memory holds (what a stored change must exceed to be applied).
    var revisions: AuthorizationRevisions
    /// Sources whose decided authorization is being stored (they count as pending).
    var storingAuthorizations: Set<String> = []
    /// Adapters told of every revocation (``GrantBook/observeRevocations(_:)``).
    var revocationObservers: [@Sendable (String, [String]) async -> Void] = []

    /// The services the coordinator works with, passed together to its initialiser.
    struct Parts {
        var options: GatewayOptions
        var signer: any RequestSigner
        var persistence: any AuthorizationPersistence
        var blindSigning: any BlindSigningSettings
        var icrcScopes: any IcrcPermissionStore
        var recorder: JournalRecorder
        var clock: any MonotonicClock
        var logger: Logger
        var metrics: GatewayMetrics
    }

    /// A coordinator over the stored authorizations `stored` (and the store's revision, from which
    /// `reconcile()` reads on).
    init(
        _ parts: Parts, stored: AuthorizationChanges, hub: SessionHub,
        subscribedAccounts: @escaping @Sendable ([String]) -> JSONValue
    ) {
        options = parts.options
        signer = parts.signer
        persistence = parts.persistence
        blindSigning = parts.blindSigning
        icrcScopes = parts.icrcScopes
        recorder = parts.recorder
        clock = parts.clock
        logger = parts.logger
        metrics = parts.metrics
        self.hub = hub
        self.subscribedAccounts = subscribedAccounts
        gate = AdmissionGate(deniedHosts: options.deniedHosts, rates: options.requestRates, now: parts.clock.now)
        center = ApprovalCenter(book: AuthorizationBook(stored.sites), limits: options.limits)
        revisions = AuthorizationRevisions(cursor: stored.revision)
    }

    // MARK: Bridge requests

    /// Registers the waiter of a bridge request (with its sign step, built by the adapter from
    /// exactly what is shown), then either decides at once (automatic mode) or shows it and tells
    /// the client to wait for the reply on its event stream.
    nonisolated(nonsending) func queued(
        _ approval: PendingApproval<ApprovalSubject>, _ request: WireRequest, _ client: ClientIdentity,
        sign: ApprovalWaiter.Sign?, scheme: String?, store: ApprovalWaiter.Store?, replies: any BridgeReplies
    ) async -> GatewayService.Outcome {
        waiters[approval.id] = ApprovalWaiter(
            delivery: .session(session: client.session, requestID: request.id, replies: replies), sign: sign,
            scheme: scheme, store: store)
        if options.approvalMode == .automatic {
            if let reply = try? await decide(approval.id, approve: true, accounts: nil, deliverReply: false).reply {
                return .reply(reply)
            }
        }
        show(approval)
        return .pending
    }

    /// Shows a queued request: the approval page and the terminal listeners.
    func show(_ approval: PendingApproval<ApprovalSubject>) {
        _ = waiters[approval.id]?.lifecycle.shown()
        notifyUI()
        for listener in approvalListeners.values { listener.yield(approval) }
    }

    /// Whether the deny list names the source's host (the admission gate's list).
    func isDenied(_ source: String) -> Bool { gate.isDenied(source) }

    /// Resolves an address to an account the source may use (its granted keys `allowed`).
    /// - Throws: `SignerError.unknownAccount` (the address is never echoed).
    func account(_ address: String, allowed: [String]) throws -> SignerAccount {
        guard let key = signer.accountKey(forAddress: address), allowed.contains(key),
            let account = signer.account(key: key)
        else { throw SignerError(.unknownAccount, "account not available to the source") }
        return account
    }

    /// Whether a connection of `source` is being stored (a second prompt must wait).
    /// - Throws: `SignerError.authorizationPending` when it is.
    func requireNoAuthorizationStoring(_ source: String) throws {
        if storingAuthorizations.contains(source) {
            throw SignerError(.authorizationPending, "an authorization is being stored")
        }
    }

    /// Whether the source is in the grant book with no accounts only because the person granted it
    /// Internet Computer scopes (not because a Polkadot connection was rejected): its `authorize.tab`
    /// is then a connection request put to the person (a "no" keeps what it had).
    nonisolated(nonsending) func isConnectedByAnotherProtocolOnly(_ source: String) async -> Bool {
        guard let site = center.book.site(source), site.accounts.isEmpty else { return false }
        let scopes = (try? await icrcScopes.load(source))?.scopes ?? [:]
        return scopes.values.contains(.granted)
    }

    /// Whether the person allowed `source` blind signing (docs/blind-signing.md): the stored per-site
    /// setting, or `--icon-blind-signing` in the configuration. A store that cannot be read counts as
    /// off (the request is refused, nothing is signed blind).
    nonisolated(nonsending) func isBlindSigningAllowed(_ source: String) async -> Bool {
        if options.iconBlindSigningOrigins.contains(source) { return true }
        do {
            return try await blindSigning.isAllowed(source)
        } catch {
            logger.warning("blind-signing setting unreadable; treated as off", metadata: ["reason": "\(error)"])
            return false
        }
    }

    // MARK: Listeners

    /// A stream that yields whenever pending approvals or sites change (approval page live updates).
    func changes() -> AsyncStream<Void> {
        let (stream, continuation) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
        nextListenerID += 1
        let id = nextListenerID
        uiListeners[id] = continuation
        let host = self.host
        continuation.onTermination = { _ in Task { await host?.removeListener(ui: id) } }
        return stream
    }

    /// A stream of each newly queued approval (the terminal approver).
    func newApprovals() -> AsyncStream<PendingApproval<ApprovalSubject>> {
        let (stream, continuation) = AsyncStream<PendingApproval<ApprovalSubject>>.makeStream()
        nextListenerID += 1
        let id = nextListenerID
        approvalListeners[id] = continuation
        let host = self.host
        continuation.onTermination = { _ in Task { await host?.removeListener(approvals: id) } }
        return stream
    }

    func notifyUI() { for listener in uiListeners.values { listener.yield() } }

    func pushAccounts(to source: String, list: JSONValue) {
        hub.deliverToSubscriptions(of: source) { WireReply(id: $0, .subscription(list)) }
    }

    // MARK: Journal

    /// Records a decision before its reply leaves (``JournalRecorder/decided``). - Returns: whether
    /// the entry is stored (or no journal is kept): when it is not, a signature must be withheld.
    nonisolated(nonsending) func journaled(
        _ decision: ApprovalCenter.Decision, verdict: ApprovalLifecycle.Verdict, automatic: Bool,
        signature: [UInt8]?, detail: String
    ) async -> Bool {
        let written = await recorder.decided(
            decision, verdict: verdict, automatic: automatic, signature: signature, detail: detail,
            appName: center.book.site(decision.approval.source)?.appName ?? "")
        if written == .stored { notifyUI() }  // the History view
        return written != .failed
    }

    /// Records a request that went away undecided, within the source's journal budget.
    nonisolated(nonsending) func journalAbandoned(
        _ approval: PendingApproval<ApprovalSubject>, _ decision: JournalDecision, _ detail: String
    ) async {
        let connected = center.book.site(approval.source) != nil
        let now = clock.now
        let written = await recorder.abandoned(
            approval, decision, detail, appName: center.book.site(approval.source)?.appName ?? "",
            budget: { self.gate.mayJournal(source: approval.source, connected: connected, now: now) })
        if written == .stored { notifyUI() }
    }

    /// Records a refusal of `method` (a method that asks a person) for a connected site or a denied
    /// host, within the source's journal budget (so an unconnected page cannot fill the journal).
    nonisolated(nonsending) func journalRefusal(
        method: String, _ source: String, account: String = "", _ error: any Error
    ) async {
        let now = clock.now
        let written = await recorder.refused(
            method: method, source, site: center.book.site(source), account: account, error,
            budget: { self.gate.mayJournal(source: source, connected: $0, now: now) })
        if written == .stored { notifyUI() }
    }
}
