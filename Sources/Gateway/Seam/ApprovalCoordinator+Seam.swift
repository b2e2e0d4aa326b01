import Journal
import Logging
import Primitives
import SignerCore

/// The seam's side of the coordinator (``ApprovalSeam``, ``GrantBook``; ``GatewayService`` exposes
/// them to the adapters): every adapter's request joins the one approval queue (approval page,
/// terminal, automatic mode, expiry, journal) and the adapter awaits the answer. A signature is made
/// here, between the decision and its journal entry, so the entry records it and is durable before
/// the signature leaves, as for every protocol.
extension ApprovalCoordinator {
    /// ``ApprovalSeam/decide(origin:_:)``.
    nonisolated(nonsending) func decide(origin: String, _ request: AdapterApproval) async -> Bool? {
        switch await adapterDecision(origin: origin, request: request, sign: nil) {
        case .approved: return true
        case .rejected: return false
        case .withdrawn, .failed, .alreadyWaiting: return nil
        }
    }

    /// ``ApprovalSeam/decideIfNoneWaiting(origin:_:)``.
    nonisolated(nonsending) func decideIfNoneWaiting(origin: String, _ request: AdapterApproval) async
        -> WaitingAnswer
    {
        switch await adapterDecision(origin: origin, request: request, sign: nil, exclusive: true) {
        case .approved: return .answered(true)
        case .rejected: return .answered(false)
        case .withdrawn, .failed: return .answered(nil)
        case .alreadyWaiting: return .alreadyWaiting
        }
    }

    /// ``ApprovalSeam/decideAndSign(origin:_:sign:)``.
    nonisolated(nonsending) func decideAndSign<T: Sendable>(
        origin: String, _ request: AdapterApproval, sign: @escaping @Sendable () throws -> (T, [UInt8])
    ) async throws(GatewayError) -> T? {
        let outcome = await adapterDecision(
            origin: origin, request: request,
            sign: {
                let (value, signature) = try sign()
                return AdapterSigned(value: value, signature: signature)
            })
        switch outcome {
        case .rejected, .withdrawn, .alreadyWaiting: return nil
        case .failed(let error): throw error
        case .approved(let signed):
            guard let value = signed?.value as? T else { throw GatewayError(.signingFailed, "nothing was signed") }
            return value
        }
    }

    /// Queues the request and waits for a person (or the automatic mode; expiry, revocation or the
    /// client going away: `.withdrawn`). A stranger's request takes a place of the connection
    /// requests' pool (``ApprovalCenter/requestAdapter(source:request:now:)``). When the waiting task is
    /// cancelled (the HTTP client dropped its connection), the prompt is withdrawn at once: work for
    /// a vanished client stops.
    /// With `exclusive`, a request of the same protocol and method already waiting for `origin`
    /// answers `.alreadyWaiting` and nothing is queued (checked and queued without suspending).
    nonisolated(nonsending) func adapterDecision(
        origin: String, request: AdapterApproval, sign: ApprovalWaiter.Sign?, exclusive: Bool = false
    ) async -> AdapterOutcome {
        guard !Task.isCancelled else { return .withdrawn }
        if exclusive,
            center.queue.entries.contains(where: { entry in
                guard entry.source == origin, case .adapter(let waiting) = entry.subject else { return false }
                return waiting.wallet == request.wallet && waiting.method == request.method
            })
        {
            return .alreadyWaiting
        }
        let approval: PendingApproval<ApprovalSubject>
        do {
            approval = try center.requestAdapter(source: origin, request: request, now: clock.now)
        } catch {
            logger.debug("adapter request refused", metadata: ["origin": "\(origin)", "reason": "\(error)"])
            return .withdrawn
        }
        let id = approval.id
        let host = self.host
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                waiters[id] = ApprovalWaiter(
                    delivery: .adapter(continuation), sign: sign, scheme: sign == nil ? nil : request.wallet)
                if options.approvalMode == .automatic {
                    Task { await host?.decideAutomatically(id) }
                } else {
                    show(approval)
                }
            }
        } onCancel: {
            Task { await host?.withdraw(id, "the client went away") }
        }
    }

    nonisolated(nonsending) func withdrawWaiting(origin: String, wallet: String, reason: String) async {
        let ids = center.queue.entries.compactMap { entry -> UInt64? in
            guard entry.source == origin, case .adapter(let request) = entry.subject, request.wallet == wallet else {
                return nil
            }
            return entry.id
        }
        for id in ids { await withdraw(id, reason) }
    }

    /// Withdraws a waiting request whose client went away: recorded as `cancelled` (within the
    /// journal budget) and answered to whoever still waits.
    nonisolated(nonsending) func withdraw(_ id: UInt64, _ detail: String) async {
        guard let approval = center.withdraw(id: id) else { return }
        notifyUI()
        await answerCancelled(approval, .cancelled, detail)
    }

    // MARK: The grant book for adapters

    /// The account keys granted to `origin` (``GrantBook``): the same ``AuthorizationBook`` record
    /// every protocol's connection is kept in, stored first and applied to memory once stored.
    func grantedAccounts(_ origin: String) -> [String]? { center.book.site(origin)?.accounts }

    /// ``GrantBook/setGrantedAccounts(_:appName:accounts:ownKey:)``.
    nonisolated(nonsending) func setGrantedAccounts(
        _ origin: String, appName: String, accounts: [String], ownKey: @Sendable (String) -> Bool
    ) async throws {
        let current = center.book.site(origin)
        var keys = (current?.accounts ?? []).filter { !ownKey($0) }
        for key in accounts where !keys.contains(key) { keys.append(key) }
        let site = AuthorizedSite(
            source: origin, appName: current?.appName.isEmpty == false ? current?.appName ?? appName : appName,
            accounts: keys)
        guard site != current else { return }
        storingAuthorizations.insert(origin)
        defer { storingAuthorizations.remove(origin) }
        await apply(try await stored("grant", origin, { try await persistence.grant(site) }))
    }

    func observeRevocations(_ observer: @escaping @Sendable (String, [String]) async -> Void) {
        revocationObservers.append(observer)
    }

    func push(_ origin: String, event: String, payload: JSONValue) {
        hub.deliver(WireReply(id: event, .subscription(payload)), toSource: origin)
    }
}
