import Keystore
import StateStore

/// The sites a person allowed to ask for signatures Sigil cannot describe ("blind signing",
/// docs/blind-signing.md): a Polkadot call that does not decode with the chain's stored metadata,
/// an ICON bare hash (`REQUEST_SIGNING`), an Internet Computer call to a method Sigil has no
/// description for (ICRC-49). Off for every site unless the person turned it on for that exact
/// origin, on the approval page or with `sigil origins blind-signing`; a site can never turn it on
/// itself. Each such request is still shown, with a loud warning first, and needs an approval.
package protocol BlindSigningSettings: Sendable {
    /// Whether `origin` may ask for blind signing (false when never set).
    func isAllowed(_ origin: String) async throws -> Bool
    /// Turns blind signing on or off for `origin`.
    func setAllowed(_ allowed: Bool, for origin: String) async throws
    /// Every origin blind signing is on for, sorted.
    func allowedOrigins() async throws -> [String]
}

/// Blind-signing settings kept in memory only (tests, embedding).
package actor InMemoryBlindSigning: BlindSigningSettings {
    private var allowed: Set<String>

    /// Creates settings with blind signing on for `origins`.
    package init(_ origins: Set<String> = []) { allowed = origins }

    package func isAllowed(_ origin: String) -> Bool { allowed.contains(origin) }

    package func setAllowed(_ on: Bool, for origin: String) {
        if on { allowed.insert(origin) } else { allowed.remove(origin) }
    }

    package func allowedOrigins() -> [String] { allowed.sorted() }
}

/// Blind-signing settings in the keystore's state database, one setting per origin
/// (`blind-signing.<origin>` = `on`), so a running `sigil serve` and `sigil origins blind-signing`
/// on the same data directory see each other's changes and two writers never lose one another's.
package struct StateStoreBlindSigning: BlindSigningSettings {
    let store: any StateStore

    /// Uses `store` (shared with other processes on the same file).
    package init(store: any StateStore) { self.store = store }

    /// The setting key of `origin`.
    package static func key(_ origin: String) -> String { prefix + origin }
    static let prefix = "blind-signing."

    package func isAllowed(_ origin: String) async throws -> Bool {
        try store.setting(Self.key(origin)) == "on"
    }

    package func setAllowed(_ allowed: Bool, for origin: String) async throws {
        try await store.setSetting(Self.key(origin), to: allowed ? "on" : nil)
    }

    package func allowedOrigins() async throws -> [String] {
        try await store.allSettings().compactMap { key, value in
            key.hasPrefix(Self.prefix) && value == "on" ? String(key.dropFirst(Self.prefix.count)) : nil
        }.sorted()
    }
}
