import Primitives
import SignerCore

/// The ICRC layer's person: ICRC requests join the same approval queue as polkadot-js requests
/// (approval page, terminal, automatic mode, expiry, journal), and the ICRC layer awaits the answer.
extension GatewayService: IcrcApprover {
    public nonisolated func decide(origin: String, title: String, rows: [SummaryRow]) async -> Bool {
        let requestId = rows.first { $0.label == "request id" }?.value
        let method = requestId == nil ? Icrc.RequestPermissions.name : Icrc.CallCanister.name
        return await icpDecision(
            origin: origin,
            request: IcpApprovalRequest(
                method: method, title: title, summary: rows,
                requestId: requestId.flatMap { try? Hex.decode($0, prefix: .required) } ?? []))
    }

    /// Queues the request and waits for a person (or the automatic mode, or expiry: false).
    func icpDecision(origin: String, request: IcpApprovalRequest) async -> Bool {
        let approval: PendingApproval<ApprovalSubject>
        do {
            approval = try center.requestIcp(source: origin, request: request, now: clock.now)
        } catch {
            return false
        }
        if options.approvalMode == .automatic {
            return await withCheckedContinuation { continuation in
                icpWaiters[approval.id] = continuation
                Task { _ = try? await self.decide(approval.id, approve: true, accounts: nil, deliverReply: false) }
            }
        }
        return await withCheckedContinuation { continuation in
            icpWaiters[approval.id] = continuation
            notifyUI()
            for listener in approvalListeners.values { listener.yield(approval) }
        }
    }
}
