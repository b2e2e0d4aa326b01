import Logging
import Primitives
import SignerCore

extension GatewayService {
    /// A person approves a pending request. For an authorization, `accounts` are the account keys
    /// ticked (unknown keys are ignored).
    /// - Throws: `SignerError.unknownApproval` if it is no longer pending.
    public func approve(_ id: UInt64, accounts: [String] = []) async throws {
        _ = try await decide(id, approve: true, accounts: accounts, deliverReply: true)
    }

    /// A person rejects a pending request (`Cancelled`, `Rejected`, or the authorization rejection).
    /// - Throws: `SignerError.unknownApproval` if it is no longer pending.
    public func reject(_ id: UInt64) async throws {
        _ = try await decide(id, approve: false, accounts: [], deliverReply: true)
    }

    /// Disconnects a source: its waiting requests are cancelled and every open subscription of it
    /// gets an empty account list at once. - Returns: whether it was connected.
    @discardableResult
    public func revoke(_ source: String) async throws -> Bool {
        let (was, dropped) = center.revoke(source)
        for approval in dropped { await answerCancelled(approval) }
        try await persistence.save(center.book.all)
        pushAccounts(to: source, list: .array([]))
        notifyUI()
        return was
    }

    /// Replaces the accounts a connected source sees; open subscriptions get the new list.
    public func setAccounts(_ source: String, accounts: [String]) async throws {
        let known = await directory.accounts().map(\.key)
        try center.setAccounts(source, accounts: accounts, known: known)
        try await persistence.save(center.book.all)
        pushAccounts(to: source, list: await accountList(try center.requireEnabled(source), anyType: false))
        notifyUI()
    }

    /// Brings the in-memory authorizations in line with `stored` (changed by another process, e.g.
    /// `sigil origins revoke`): sources gone are revoked (their tabs get an empty list at once),
    /// sources added or changed are granted and their subscriptions get the new list.
    public func reconcile(with stored: [AuthorizedSite]) async {
        let wanted = Dictionary(stored.map { ($0.source, $0) }, uniquingKeysWith: { _, last in last })
        for site in center.book.all where wanted[site.source] == nil {
            let (_, dropped) = center.revoke(site.source)
            for approval in dropped { await answerCancelled(approval) }
            pushAccounts(to: site.source, list: .array([]))
            notifyUI()
        }
        for site in stored where center.book.site(site.source) != site {
            center.grant(site)
            pushAccounts(to: site.source, list: await accountList(site.accounts, anyType: false))
            notifyUI()
        }
    }

    /// Connected sources.
    public var sites: [AuthorizedSite] { center.book.all }

    /// Requests waiting for a person, oldest first.
    public var pendingApprovals: [PendingApproval<ApprovalSubject>] { center.queue.entries }

    /// A stream that yields whenever pending approvals or sites change (approval page live updates).
    public func changes() -> AsyncStream<Void> {
        let (stream, continuation) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
        nextListenerID += 1
        let id = nextListenerID
        uiListeners[id] = continuation
        continuation.onTermination = { _ in Task { await self.removeUIListener(id) } }
        return stream
    }

    /// A stream of each newly queued approval (the terminal approver).
    public func newApprovals() -> AsyncStream<PendingApproval<ApprovalSubject>> {
        let (stream, continuation) = AsyncStream<PendingApproval<ApprovalSubject>>.makeStream()
        nextListenerID += 1
        let id = nextListenerID
        approvalListeners[id] = continuation
        continuation.onTermination = { _ in Task { await self.removeApprovalListener(id) } }
        return stream
    }

    func removeUIListener(_ id: UInt64) { uiListeners[id] = nil }
    func removeApprovalListener(_ id: UInt64) { approvalListeners[id] = nil }

    func notifyUI() { for listener in uiListeners.values { listener.yield() } }

    func pushAccounts(to source: String, list: JSONValue) {
        for (session, state) in sessions where state.source == source {
            for subscription in state.subscriptions.sorted() {
                deliver(WireReply(id: subscription, .subscription(list)), to: session)
            }
        }
    }

    /// Applies a decision and builds the reply (signing when approved); `accounts == nil` grants
    /// every account (automatic mode). With `deliverReply` the
    /// reply goes to the waiting session's event log; the reply is also returned.
    func decide(_ id: UInt64, approve: Bool, accounts: [String]?, deliverReply: Bool) async throws -> WireReply? {
        let decision: ApprovalCenter.Decision
        if approve {
            // Only an authorization needs the account list; a signing decision is taken without
            // suspending, so concurrent requests never see it still queued.
            var known: [String] = []
            var granted = accounts ?? []
            if case .authorize? = center.queue.entry(id: id)?.subject {
                known = await directory.accounts().map(\.key)
                if accounts == nil { granted = known }
            }
            decision = try center.approve(id: id, accounts: granted, known: known)
        } else {
            decision = try center.reject(id: id)
        }
        let waiter = waiters.removeValue(forKey: id)
        notifyUI()
        let kind = ApprovalState.kind(decision.approval.subject)
        metrics.recordDecision(kind: kind, approved: decision.approved)
        logger.info(
            "approval decided",
            metadata: [
                "approval": "\(id)", "kind": "\(kind)", "origin": "\(decision.approval.source)",
                "decision": "\(decision.approved ? "approved" : "rejected")",
                "by": "\(accounts == nil ? "auto-approve" : "person")",
            ])
        let body: WireReply.Body
        switch decision.approval.subject {
        case .authorize:
            try? await persistence.save(center.book.all)
            body =
                decision.approved
                ? .response(await authResponse(decision.grantedAccounts))
                : .error(WireErrorText.authorizationRejected)
            if decision.approved {
                pushAccounts(
                    to: decision.approval.source, list: await accountList(decision.grantedAccounts, anyType: false))
            }
        case .signExtrinsic:
            body = await signed(decision, waiter) { payload, account in
                let result = try await self.signer.signExtrinsic(payload: payload, account: account)
                var response: [String: JSONValue] = ["id": .string(String(id)), "signature": .string(result.signature)]
                if payload["withSignedTransaction"]?.boolValue == true, let tx = result.signedTransaction {
                    response["signedTransaction"] = .string(tx)
                }
                return .object(response)
            }
        case .signBytes(let request):
            body = await signed(decision, waiter) { _, account in
                let signature = try await self.signer.signMessage(request.message, account: account)
                return ["id": .string(String(id)), "signature": .string(signature)]
            }
        case .provideMetadata(let proposal):
            if decision.approved {
                do {
                    try await metadata.store(
                        genesisHash: proposal.genesisHash, specVersion: proposal.specVersion,
                        definition: (try? JSONValue.parse(proposal.definitionJSON)) ?? .null)
                    body = .response(true)
                } catch {
                    logger.debug("metadata store failed", metadata: ["reason": "\(error)"])
                    body = .error(WireErrorText.rejected)
                }
            } else {
                body = .error(WireErrorText.rejected)
            }
        }
        guard let waiter else { return nil }
        let reply = WireReply(id: waiter.requestID, body)
        if deliverReply { deliver(reply, to: waiter.session) }
        return reply
    }

    private func signed(
        _ decision: ApprovalCenter.Decision, _ waiter: Waiter?,
        _ sign: (JSONValue, GatewayAccount) async throws -> JSONValue
    ) async -> WireReply.Body {
        guard decision.approved else { return .error(WireErrorText.cancelled) }
        guard let waiter, let account = waiter.account else { return .error(WireErrorText.cancelled) }
        do {
            let response = try await sign(waiter.payload, account)
            metrics.recordSignature(scheme: account.type)
            logger.info(
                "signed",
                metadata: [
                    "approval": "\(decision.approval.id)", "kind": "\(ApprovalState.kind(decision.approval.subject))",
                    "scheme": "\(account.type)", "origin": "\(decision.approval.source)",
                ])
            return .response(response)
        } catch {
            logger.debug("signing failed", metadata: ["reason": "\(error)"])
            return .error(WireErrorText.text(for: error, source: decision.approval.source))
        }
    }

    /// Answers a request that went away without a decision (expiry, revocation).
    func answerCancelled(_ approval: PendingApproval<ApprovalSubject>) async {
        guard let waiter = waiters.removeValue(forKey: approval.id) else { return }
        let text: String
        switch approval.subject {
        case .authorize: text = WireErrorText.authorizationCancelled
        case .provideMetadata: text = WireErrorText.rejected
        case .signBytes, .signExtrinsic: text = WireErrorText.cancelled
        }
        deliver(WireReply(id: waiter.requestID, .error(text)), to: waiter.session)
    }
}
