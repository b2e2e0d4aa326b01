import Keystore
import Primitives
import SignerCore
import StateStore

/// ICRC-25 scopes in Keystore's state database, one setting per origin and scope
/// (`icrc.scope.<method>.<origin>` = `granted` | `denied`), so every write is field-level (one row,
/// one statement) and a running `sigil serve` and `sigil origins` on the same data directory see each
/// other's changes. The blind-signing switch is the one every protocol reads
/// (``StateStoreBlindSigning``, docs/blind-signing.md) and is never written here. Scopes count only
/// while the origin is in the grant book (``GatewayService``'s view); revoking clears them.
///
/// An earlier version kept one JSON record per origin (`icrc.permissions.<origin>`); it was not tied
/// to the grant book, so it is no longer read (such a site asks again) and is deleted by ``clear(_:)``.
package struct StateStoreIcrcPermissions: IcrcPermissionStore {
    let store: any StateStore

    /// Uses `store` (shared with other processes on the same file).
    package init(store: any StateStore) { self.store = store }

    /// The setting key of one scope of `origin`.
    package static func key(_ method: IcrcMethod, _ origin: String) -> String {
        "icrc.scope.\(method.name).\(origin)"
    }

    /// The key of the earlier per-origin record.
    package static func legacyKey(_ origin: String) -> String { "icrc.permissions." + origin }

    package func load(_ origin: String) async throws -> IcrcSitePermissions? {
        var permissions = IcrcSitePermissions(
            blindSigning: try await StateStoreBlindSigning(store: store).isAllowed(origin))
        for method in IcrcMethod.scoped {
            guard let text = try store.setting(Self.key(method, origin)) else { continue }
            permissions.scopes[method.name] = IcrcSitePermissions.State(rawValue: text)
        }
        return permissions
    }

    package func setScopes(_ states: [String: IcrcSitePermissions.State], for origin: String) async throws {
        var values: [String: String?] = [:]
        for method in IcrcMethod.scoped {
            guard let state = states[method.name] else { continue }
            values.updateValue(state.rawValue, forKey: Self.key(method, origin))
        }
        try await store.setSettings(values)
    }

    package func clear(_ origin: String) async throws {
        // `updateValue(nil, …)` keeps the key with a nil value (a deletion); `values[key] = nil` would drop it.
        var values: [String: String?] = [:]
        for key in IcrcMethod.scoped.map({ Self.key($0, origin) }) + [Self.legacyKey(origin)] {
            values.updateValue(nil, forKey: key)
        }
        try await store.setSettings(values)
    }

    /// The scopes granted to `origin` (for `sigil origins list`), by method name, sorted.
    package func grantedScopes(_ origin: String) throws -> [String] {
        try IcrcMethod.scoped.compactMap { method in
            try store.setting(Self.key(method, origin)) == IcrcSitePermissions.State.granted.rawValue
                ? method.name : nil
        }.sorted()
    }
}
