import Journal
import Keystore
import Logging
import Primitives
import SignerCore

/// The decision path: one path from a decision to the waiting client, for every protocol,
/// driven by each approval's ``ApprovalLifecycle``: decide → (sign) → journal → deliver. A
/// connection and a metadata update have their own decided step (storing the grant, the metadata);
/// every signature is made by the waiter's sign step, and only once the journal has its entry does
/// anything leave.
extension ApprovalCoordinator {
    /// What `decide` did: the reply (nil when nobody waits on a session) and, for an authorization the
    /// store refused, the error for the person's front end.
    struct Decided {
        var reply: WireReply?
        var failure: GatewayError?
    }

    /// What the decided step produced before the journal.
    private struct Step {
        var signed: AdapterSigned?
        var signError: (any Error)?
        /// The body of a connection or a metadata update (their own decided step).
        var body: WireReply.Body?
        var failure: GatewayError?
        var detail = ""
    }

    /// Applies a decision; `accounts == nil` grants every account (automatic mode). An authorization
    /// is stored first and reaches memory only once stored; if the store refuses, the reply is an
    /// error and memory is unchanged. With `deliverReply` a session's reply goes to its event log; it
    /// is also returned.
    nonisolated(nonsending) func decide(_ id: UInt64, approve: Bool, accounts: [String]?, deliverReply: Bool)
        async throws -> Decided
    {
        let decision: ApprovalCenter.Decision
        if approve {
            // Only an authorization needs the account list; a signing decision is taken without
            // suspending, so concurrent requests never see it still queued.
            var known: [String] = []
            var granted = accounts ?? []
            if case .authorize? = center.queue.entry(id: id)?.subject {
                known = signer.accounts().map(\.key)
                if accounts == nil { granted = known }
            }
            decision = try center.approve(id: id, accounts: granted, known: known)
        } else {
            decision = try center.reject(id: id)
        }
        // Until it is stored, the source counts as having a pending authorization (no second prompt).
        if let site = decision.site { storingAuthorizations.insert(site.source) }
        var waiter = waiters.removeValue(forKey: id)
        notifyUI()
        let kind = ApprovalState.kind(decision.approval.subject)
        metrics.recordDecision(kind: kind, approved: decision.approved)
        var lifecycle = waiter?.lifecycle ?? ApprovalLifecycle(signs: false)
        var action = lifecycle.decide(approved: decision.approved)
        var step = await decidedStep(decision, waiter)
        if action == .sign, let sign = waiter?.sign {
            do {
                step.signed = try sign()
                metrics.recordSignature(scheme: waiter?.scheme ?? "")
            } catch {
                logger.debug("signing failed", metadata: ["reason": "\(error)"])
                step.signError = error
                step.detail = "signing failed: \(JournalRecorder.ruleName(error))"
            }
            action = lifecycle.signingFinished(succeeded: step.signed != nil)
        } else if decision.approved, waiter == nil, decision.approval.subject.signs {
            step.detail = "nobody waited: not signed"
        } else if decision.approved, waiter?.store == nil, case .adapter(let request) = decision.approval.subject,
            !request.storedDigest.isEmpty
        {
            step.detail = "nobody waited: not stored"
        }
        // One line per decision (docs/observability.md), after the sign step so that it says
        // whether a signature was made: `scheme` is there exactly when one was.
        if logger.logLevel <= .info {
            var metadata: Logger.Metadata = [
                "approval": "\(id)", "kind": "\(kind)", "origin": "\(decision.approval.source)",
                "decision": "\(decision.approved ? "approved" : "rejected")",
                "by": "\(accounts == nil ? "auto-approve" : "person")",
            ]
            if step.signed != nil { metadata["scheme"] = "\(waiter?.scheme ?? "")" }
            logger.info("approval decided", metadata: metadata)
        }
        // The journal entry is durable before any reply (and so any signature) leaves.
        var stored = true
        if case .journal(let verdict) = action {
            stored = await journaled(
                decision, verdict: verdict, automatic: accounts == nil, signature: step.signed?.signature,
                detail: step.detail)
        }
        guard case .deliver(let delivery) = lifecycle.journalFinished(stored: stored) else {
            return Decided(reply: nil, failure: step.failure)
        }
        _ = lifecycle.delivered()
        waiter?.lifecycle = lifecycle
        guard let waiter else { return Decided(reply: nil, failure: step.failure) }
        switch waiter.delivery {
        case .adapter(let continuation):
            continuation.resume(returning: Self.adapterOutcome(delivery, step))
            return Decided(reply: nil, failure: step.failure)
        case .session(let session, let requestID, let replies):
            var body =
                step.body
                ?? replies.signature(
                    delivery, value: step.signed?.value, error: step.signError, source: decision.approval.source)
            body = await replies.afterJournal(
                decision.approval.subject, delivery, body: body, signature: step.signed?.signature)
            let reply = WireReply(id: requestID, body)
            if deliverReply { hub.deliver(reply, to: session) }
            return Decided(reply: reply, failure: step.failure)
        }
    }

    /// The decided step of a connection (the grant stored, then applied) and of a request that
    /// stores what it carries (its waiter's store step: polkadot-js's metadata update); nothing for a
    /// request that signs (its sign step runs in `decide`).
    private nonisolated(nonsending) func decidedStep(_ decision: ApprovalCenter.Decision, _ waiter: ApprovalWaiter?)
        async -> Step
    {
        var step = Step()
        switch decision.approval.subject {
        case .authorize:
            if let site = decision.site {
                defer { storingAuthorizations.remove(site.source) }
                do throws(GatewayError) {
                    await apply(try await stored("grant", site.source, { try await persistence.grant(site) }))
                } catch {
                    step.failure = error
                }
            }
            step.body = waiter?.replies?.connection(
                approved: decision.approved, granted: decision.grantedAccounts, failure: step.failure)
            if decision.approved {
                step.detail =
                    step.failure != nil ? "not saved" : JournalRecorder.grantedDetail(decision.grantedAccounts)
            }
        case .adapter:
            guard let store = waiter?.store else { break }
            guard decision.approved else {
                step.body = waiter?.replies?.stored(nil)
                break
            }
            do {
                try await store()
                step.body = waiter?.replies?.stored(true)
            } catch {
                logger.debug("store failed", metadata: ["reason": "\(error)"])
                step.body = waiter?.replies?.stored(false)
                step.detail = "not stored"
            }
        }
        return step
    }

    /// An adapter's outcome for a decided request.
    private static func adapterOutcome(_ delivery: ApprovalLifecycle.Delivery, _ step: Step) -> AdapterOutcome {
        switch delivery {
        case .result: .approved(step.signed)
        case .rejection: .rejected
        case .cancellation: .withdrawn
        case .failure:
            .failed(
                GatewayError(
                    .signingFailed,
                    "the request could not be signed: \(step.signError.map(JournalRecorder.ruleName) ?? "no signer")"))
        case .withheld: .failed(GatewayError(.notJournaled, "the signature was withheld: it could not be journaled"))
        }
    }

    /// Answers a request that went away without a decision (expiry, revocation, the client gone),
    /// once the journal has recorded it as `outcome` (within the journal budget).
    nonisolated(nonsending) func answerCancelled(
        _ approval: PendingApproval<ApprovalSubject>, _ outcome: JournalDecision, _ detail: String
    ) async {
        var waiter = waiters.removeValue(forKey: approval.id)
        _ = waiter?.lifecycle.withdraw(outcome == .expired ? .expired : .cancelled)
        await journalAbandoned(approval, outcome, detail)
        guard let waiter else { return }
        switch waiter.delivery {
        case .adapter(let continuation):
            continuation.resume(returning: .withdrawn)
        case .session(let session, let requestID, let replies):
            hub.deliver(WireReply(id: requestID, replies.cancelled(approval.subject)), to: session)
        }
    }
}
