import Primitives
import SignerCore

/// The grant book's Internet Computer view (``GatewayService`` is the ``IcrcPermissionStore`` the
/// ICRC adapter sees, answered here): ICRC-25 scopes are kept per origin (``icrcScopes``) but
/// count only while the origin is in the one grant book (``AuthorizationBook``), the same book every
/// protocol's connection is recorded in. A decided scope puts the origin into the book (with no
/// Polkadot accounts) if it is not there yet, so it shows on `/api/state` and in `sigil origins
/// list`; revoking the origin (approval page, `sigil origins revoke`, another process) ends every
/// scope, in memory and across restarts. The blind-signing switch is read fresh at each load and
/// never written here.
extension ApprovalCoordinator {
    nonisolated(nonsending) func loadScopes(_ origin: String) async throws -> IcrcSitePermissions? {
        let blind = await isBlindSigningAllowed(origin)
        guard center.book.site(origin) != nil else { return IcrcSitePermissions(blindSigning: blind) }
        var permissions = try await icrcScopes.load(origin) ?? IcrcSitePermissions()
        permissions.blindSigning = blind
        return permissions
    }

    /// Records decided scopes (only these fields) and, when the origin is not in the grant book yet,
    /// connects it there (one store transaction; memory follows once stored).
    /// - Throws: `GatewayError.notSaved` when the store refused.
    nonisolated(nonsending) func setScopes(_ states: [String: IcrcSitePermissions.State], for origin: String)
        async throws
    {
        try await stored("ICRC scopes", origin, { try await icrcScopes.setScopes(states, for: origin) })
        defer { notifyUI() }
        guard center.book.site(origin) == nil, !storingAuthorizations.contains(origin) else { return }
        storingAuthorizations.insert(origin)
        defer { storingAuthorizations.remove(origin) }
        let site = AuthorizedSite(source: origin, appName: "", accounts: [])
        await apply(try await stored("grant", origin, { try await persistence.grant(site) }))
    }

    nonisolated(nonsending) func clearScopes(_ origin: String) async throws {
        try await stored("ICRC scopes cleared", origin, { try await icrcScopes.clear(origin) })
    }
}
