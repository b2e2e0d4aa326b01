import CSodium

/// The one libsodium initialiser (`sodium_init`), run once, thread-safely (a global `let` is lazily
/// initialised exactly once). Every module that calls libsodium calls ``ensureInitialized()`` first.
package enum Sodium {
    private static let initialized: Bool = sodium_init() >= 0

    /// Initialises libsodium if needed. - Returns: whether it is usable (it only fails to
    /// initialise when the system has no randomness source; every randomness use checks that).
    @inline(__always)
    @discardableResult
    package static func ensureInitialized() -> Bool { initialized }
}
