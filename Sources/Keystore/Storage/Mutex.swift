import Foundation

/// A tiny lock for the few mutable fields of this module's Sendable classes (NSLock-backed; the
/// Synchronization module's `Mutex` needs macOS 15, above the package's platform floor).
final class Mutex: @unchecked Sendable {
    private let lock = NSLock()

    func withLock<R, E: Error>(_ body: () throws(E) -> R) throws(E) -> R {
        lock.lock()
        defer { lock.unlock() }
        return try body()
    }
}

extension Mutex {
    /// A value guarded by its own lock.
    final class Protected<Value>: @unchecked Sendable {
        // @unchecked Sendable: `value` is only touched inside `mutex.withLock`.
        private var value: Value
        private let lock = NSLock()

        init(_ value: Value) { self.value = value }

        func withValue<R, E: Error>(_ body: (inout Value) throws(E) -> R) throws(E) -> R {
            lock.lock()
            defer { lock.unlock() }
            return try body(&value)
        }
    }
}
