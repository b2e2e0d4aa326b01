import CSodium

/// libsodium initialisation (`sodium_init`), done once, thread-safely (global `let`s are lazily
/// initialised exactly once).
enum Sodium {
    private static let initialized: Bool = sodium_init() >= 0

    /// Initialises libsodium if needed. libsodium only fails to initialise when no randomness
    /// source exists; every randomness use is checked separately.
    @inline(__always)
    static func ensureInitialized() { _ = initialized }
}
