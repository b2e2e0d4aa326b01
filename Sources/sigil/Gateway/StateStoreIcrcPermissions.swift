import Gateway
import Keystore
import Primitives

/// Permissions in Keystore's state database (settings `icrc.permissions.<origin>`, JSON), so they
/// persist across restarts like polkadot authorizations.
struct StateStoreIcrcPermissions: IcrcPermissionStore {
    let store: any StateStore

    init(store: any StateStore) { self.store = store }

    static func key(_ origin: String) -> String { "icrc.permissions." + origin }

    func load(_ origin: String) async throws -> IcrcSitePermissions? {
        guard let text = try store.setting(Self.key(origin)) else { return nil }
        return try JSONValueDecoder().decode(IcrcSitePermissions.self, from: JSONValue.parse(text))
    }

    func save(_ origin: String, _ permissions: IcrcSitePermissions) async throws {
        try store.setSetting(Self.key(origin), to: try JSONValueEncoder().encode(permissions).serialized([.sortedKeys]))
    }
}
