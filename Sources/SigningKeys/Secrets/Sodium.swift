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

extension UnsafeRawBufferPointer {
    /// The start as `UInt8` for C APIs that take non-null pointers. Only used on buffers known to be
    /// non-empty (fixed-size keys and `SecretBytes`, whose storage is never empty).
    @inline(__always) var u8: UnsafePointer<UInt8> { baseAddress.unsafelyUnwrapped.assumingMemoryBound(to: UInt8.self) }
}

extension UnsafeMutableRawBufferPointer {
    /// See `UnsafeRawBufferPointer.u8`.
    @inline(__always) var u8: UnsafeMutablePointer<UInt8> {
        baseAddress.unsafelyUnwrapped.assumingMemoryBound(to: UInt8.self)
    }
}

extension Array where Element == UInt8 {
    /// Calls `body` with a non-null pointer even when the array is empty (C APIs reject NULL).
    @inline(__always)
    func withNonNullPointer<R>(_ body: (UnsafePointer<UInt8>, Int) throws -> R) rethrows -> R {
        if isEmpty {
            var zero: UInt8 = 0
            return try body(&zero, 0)
        }
        return try withUnsafeBufferPointer { try body($0.baseAddress.unsafelyUnwrapped, count) }
    }
}
