import Gateway
import Keystore
import Primitives
import SignerCore

/// Permissions in Keystore's state database (settings `icrc.permissions.<origin>`, JSON), so they
/// persist across restarts like polkadot authorizations. The blind-signing switch is the one every
/// protocol reads (``StateStoreBlindSigning``, docs/blind-signing.md), not the JSON's `blindSigning`
/// field (an earlier version kept it there; such a leftover is ignored, which leaves it off).
struct StateStoreIcrcPermissions: IcrcPermissionStore {
    let store: any StateStore

    init(store: any StateStore) { self.store = store }

    static func key(_ origin: String) -> String { "icrc.permissions." + origin }

    func load(_ origin: String) async throws -> IcrcSitePermissions? {
        let blind = try await StateStoreBlindSigning(store: store).isAllowed(origin)
        guard let text = try store.setting(Self.key(origin)) else {
            return blind ? IcrcSitePermissions(blindSigning: true) : nil
        }
        var permissions = try JSONValueDecoder().decode(IcrcSitePermissions.self, from: JSONValue.parse(text))
        permissions.blindSigning = blind
        return permissions
    }

    func save(_ origin: String, _ permissions: IcrcSitePermissions) async throws {
        try await StateStoreBlindSigning(store: store).setAllowed(permissions.blindSigning, for: origin)
        var scopes = permissions
        scopes.blindSigning = false
        try store.setSetting(Self.key(origin), to: try JSONValueEncoder().encode(scopes).serialized([.sortedKeys]))
    }
}
