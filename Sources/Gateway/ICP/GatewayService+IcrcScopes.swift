import Primitives
import SignerCore

/// The ICRC adapter's scope store: the coordinator's view of the one grant book
/// (``ApprovalCoordinator/loadScopes(_:)``): scopes count only while the origin is connected.
extension GatewayService: IcrcPermissionStore {
    package func load(_ origin: String) async throws -> IcrcSitePermissions? {
        try await coordinator.loadScopes(origin)
    }

    package func setScopes(_ states: [String: IcrcSitePermissions.State], for origin: String) async throws {
        try await coordinator.setScopes(states, for: origin)
    }

    package func clear(_ origin: String) async throws { try await coordinator.clearScopes(origin) }
}
