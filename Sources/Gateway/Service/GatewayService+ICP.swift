import Primitives
import SignerCore

/// The ICRC layer's person: ICRC requests join the same approval queue as polkadot-js requests
/// (approval page, terminal, automatic mode, expiry, journal), and the ICRC layer awaits the answer.
/// A call is signed here, between the decision and its journal entry, so the entry records the
/// signature (`sender_sig`) and is durable before the signature leaves, as for every protocol.
extension GatewayService: IcrcApprover {
    public nonisolated func decide(origin: String, title: String, rows: [SummaryRow]) async -> Bool {
        let request = IcpApprovalRequest(method: Icrc.RequestPermissions.name, title: title, summary: rows)
        if case .approved = await icpDecision(origin: origin, request: request, sign: nil) { return true }
        return false
    }

    public nonisolated func decideAndSign<T: Sendable>(
        origin: String, method: IcrcMethod, title: String, rows: [SummaryRow], requestId: [UInt8],
        sign: @escaping @Sendable () throws -> (T, [UInt8])
    ) async throws(IcrcError) -> T? {
        let request = IcpApprovalRequest(method: method.name, title: title, summary: rows, requestId: requestId)
        let outcome = await icpDecision(
            origin: origin, request: request,
            sign: {
                let (value, signature) = try sign()
                return IcpSigned(value: value, signature: signature)
            })
        switch outcome {
        case .rejected: return nil
        case .failed(let error): throw error
        case .approved(let signed):
            guard let value = signed?.value as? T else { throw IcrcError(.genericError, "nothing was signed") }
            return value
        }
    }

    /// Queues the request and waits for a person (or the automatic mode, or expiry: `.rejected`).
    func icpDecision(origin: String, request: IcpApprovalRequest, sign: IcpWaiter.Sign?) async -> IcpOutcome {
        let approval: PendingApproval<ApprovalSubject>
        do {
            approval = try center.requestIcp(source: origin, request: request, now: clock.now)
        } catch {
            return .rejected
        }
        if options.approvalMode == .automatic {
            return await withCheckedContinuation { continuation in
                icpWaiters[approval.id] = IcpWaiter(continuation: continuation, sign: sign)
                Task { _ = try? await self.decide(approval.id, approve: true, accounts: nil, deliverReply: false) }
            }
        }
        return await withCheckedContinuation { continuation in
            icpWaiters[approval.id] = IcpWaiter(continuation: continuation, sign: sign)
            notifyUI()
            for listener in approvalListeners.values { listener.yield(approval) }
        }
    }

    /// The decided step for an ICP approval: signs an approved call (before its journal entry).
    /// - Returns: the signature to journal, the detail, and the outcome to resume the ICRC layer with
    ///   once the entry is stored (`finish`).
    func icpSigned(_ waiter: IcpWaiter?, approved: Bool) -> (signature: [UInt8]?, detail: String, outcome: IcpOutcome) {
        guard approved else { return (nil, "", .rejected) }
        guard let sign = waiter?.sign else { return (nil, "", .approved(nil)) }
        do {
            let signed = try sign()
            return (signed.signature, "", .approved(signed))
        } catch {
            return (
                nil, "signing failed: \(Self.ruleName(error))",
                .failed(IcrcError(.genericError, "the call could not be signed: \(Self.ruleName(error))"))
            )
        }
    }
}

/// An ICRC request waiting for its person, and how to sign it once approved (nil for permissions).
struct IcpWaiter {
    typealias Sign = @Sendable () throws -> IcpSigned
    let continuation: CheckedContinuation<IcpOutcome, Never>
    let sign: Sign?
}

/// What an approved ICP request signed: the ICRC layer's result and the signature bytes journaled.
struct IcpSigned: Sendable {
    /// `decideAndSign`'s `T`, read back with `as? T`.
    let value: any Sendable
    let signature: [UInt8]
}

/// How an ICP approval ended, for the waiting ICRC layer.
enum IcpOutcome: Sendable {
    case rejected
    /// Approved; what was signed (nil for a permission).
    case approved(IcpSigned?)
    /// Approved but not signed, or the signature could not be journaled (and is withheld).
    case failed(IcrcError)
}
