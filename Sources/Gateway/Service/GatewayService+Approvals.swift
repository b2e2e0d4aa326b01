import Primitives
import SignerCore

/// The approval page's and the command line's view of the coordinator (``ApprovalCoordinator``):
/// decisions, connections, the stored authorizations, blind signing, and the live updates.
extension GatewayService {
    /// A person approves a pending request (for an authorization, `accounts` are the keys ticked).
    /// - Throws: `SignerError.unknownApproval` if it is no longer pending; `GatewayError.notSaved`
    ///   when the store refused the authorization (the dapp was answered with an error).
    package func approve(_ id: UInt64, accounts: [String] = []) async throws {
        try await coordinator.approve(id, accounts: accounts)
    }

    /// A person rejects a pending request. - Throws: as ``approve(_:accounts:)``.
    package func reject(_ id: UInt64) async throws { try await coordinator.reject(id) }

    /// Disconnects a source (``ApprovalCoordinator/revoke(_:)``). - Returns: whether it was connected.
    @discardableResult
    package func revoke(_ source: String) async throws -> Bool { try await coordinator.revoke(source) }

    /// Replaces the accounts a connected source sees (``ApprovalCoordinator/setAccounts(_:accounts:)``).
    package func setAccounts(_ source: String, accounts: [String]) async throws {
        try await coordinator.setAccounts(source, accounts: accounts)
    }

    /// Applies the authorization changes stored since the last look (``ApprovalCoordinator/reconcile()``).
    package func reconcile() async throws { try await coordinator.reconcile() }

    /// Applies changes read from the store (``ApprovalCoordinator/reconcile(with:)``).
    package func reconcile(with stored: AuthorizationChanges) async { await coordinator.reconcile(with: stored) }

    /// Whether the person allowed `source` blind signing (``ApprovalCoordinator/isBlindSigningAllowed(_:)``).
    package func isBlindSigningAllowed(_ source: String) async -> Bool {
        await coordinator.isBlindSigningAllowed(source)
    }

    /// The person turns blind signing on or off for one site (``ApprovalCoordinator/setBlindSigning(_:for:)``).
    package func setBlindSigning(_ allowed: Bool, for source: String) async throws {
        try await coordinator.setBlindSigning(allowed, for: source)
    }

    /// The origins blind signing is on for (stored setting and configuration), sorted.
    package func blindSigningOrigins() async -> [String] { await coordinator.blindSigningOrigins() }

    /// Connected sources.
    package var sites: [AuthorizedSite] { coordinator.center.book.all }

    /// Requests waiting for a person, oldest first.
    package var pendingApprovals: [PendingApproval<ApprovalSubject>] { coordinator.center.queue.entries }

    /// A stream that yields whenever pending approvals or sites change (approval page live updates).
    package func changes() -> AsyncStream<Void> { coordinator.changes() }

    /// A stream of each newly queued approval (the terminal approver).
    package func newApprovals() -> AsyncStream<PendingApproval<ApprovalSubject>> { coordinator.newApprovals() }
}
