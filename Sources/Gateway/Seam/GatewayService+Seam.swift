import Primitives
import SignerCore

/// The seam (``ApprovalSeam``) the JSON-RPC adapters stand on, answered by the one
/// ``ApprovalCoordinator`` on the service's actor: every adapter's request joins the one approval
/// queue and the adapter awaits the answer.
extension GatewayService: ApprovalSeam {
    package func decide(origin: String, _ request: AdapterApproval) async -> Bool? {
        await coordinator.decide(origin: origin, request)
    }

    package func decideIfNoneWaiting(origin: String, _ request: AdapterApproval) async -> WaitingAnswer {
        await coordinator.decideIfNoneWaiting(origin: origin, request)
    }

    package func decideAndSign<T: Sendable>(
        origin: String, _ request: AdapterApproval, sign: @escaping @Sendable () throws -> (T, [UInt8])
    ) async throws(GatewayError) -> T? {
        try await coordinator.decideAndSign(origin: origin, request, sign: sign)
    }

    package func withdrawWaiting(origin: String, wallet: String, reason: String) async {
        await coordinator.withdrawWaiting(origin: origin, wallet: wallet, reason: reason)
    }

    // The coordinator's later work (``ApprovalCoordinator/host``), re-entering the actor.

    /// Approves `id` in automatic mode (an adapter's request, after its waiter is registered).
    func decideAutomatically(_ id: UInt64) async {
        _ = try? await coordinator.decide(id, approve: true, accounts: nil, deliverReply: false)
    }

    /// Withdraws a waiting request whose client went away.
    func withdraw(_ id: UInt64, _ detail: String) async { await coordinator.withdraw(id, detail) }

    func removeListener(ui id: UInt64) { coordinator.uiListeners[id] = nil }
    func removeListener(approvals id: UInt64) { coordinator.approvalListeners[id] = nil }
}

/// The one grant book for adapters (``GrantBook``), kept by the coordinator.
extension GatewayService: GrantBook {
    package func grantedAccounts(_ origin: String) async -> [String]? { coordinator.grantedAccounts(origin) }

    package func setGrantedAccounts(
        _ origin: String, appName: String, accounts: [String], ownKey: @Sendable (String) -> Bool
    ) async throws {
        try await coordinator.setGrantedAccounts(origin, appName: appName, accounts: accounts, ownKey: ownKey)
    }

    package func observeRevocations(_ observer: @escaping @Sendable (String, [String]) async -> Void) {
        coordinator.observeRevocations(observer)
    }

    package func push(_ origin: String, event: String, payload: JSONValue) async {
        coordinator.push(origin, event: event, payload: payload)
    }
}
