import SignerCore

/// Where connected sites are kept between runs (the keystore's state store; memory in dev mode).
public protocol AuthorizationPersistence: Sendable {
    /// The stored records.
    func load() async throws -> [AuthorizedSite]
    /// Replaces the stored records (called after every change).
    func save(_ sites: [AuthorizedSite]) async throws
}

/// Authorizations kept in memory only (dev mode and tests).
public actor InMemoryAuthorizations: AuthorizationPersistence {
    private var sites: [AuthorizedSite]

    /// Creates a store holding `sites`.
    public init(_ sites: [AuthorizedSite] = []) { self.sites = sites }

    public func load() -> [AuthorizedSite] { sites }
    public func save(_ sites: [AuthorizedSite]) { self.sites = sites }
}
