import Dispatch

/// Where the state store's blocking calls run for async callers: a dispatch queue of its own, never
/// a Swift concurrency thread. A transaction waits for SQLite's locks and syncs to disk (a grant, a
/// setting, the authorizations' reconcile); on the cooperative pool — one thread per core — that
/// would stall every other request meanwhile. (GRDB's async API does the same for its own calls; the
/// store's protocol stays synchronous so the command line calls it directly.)
package enum StateStoreWork {
    private static let queue = DispatchQueue(label: "sigil.state.work", attributes: .concurrent)

    /// Runs `body` on the state queue and resumes with its result.
    package static func run<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            queue.async { continuation.resume(with: Result { try body() }) }
        }
    }
}
