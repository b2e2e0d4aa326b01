import Synchronization

/// A promise that one entry will be appended soon: the gateway takes one when a request is decided
/// (its entry follows once it is signed). Group commit waits a little for promised entries before
/// committing, so entries of concurrent signatures share one transaction (docs/journal.md §7).
///
/// Ends exactly once: when its entry is appended (``SigningJournal/append(_:fulfilling:)``), or when
/// it is dropped without one (every path out of the coordinator is covered by `deinit`), so a
/// broken promise can delay a commit by at most the writer's gathering window, never block it.
package final class JournalExpectation: Sendable {
    private let onDrop: Mutex<(@Sendable () -> Void)?>

    /// The promise of the request this task is handling (the dapp route sets it; the journal's
    /// append keeps it), or nil.
    @TaskLocal package static var current: JournalExpectation?

    /// - Parameter onDrop: called once if the promise ends without its entry being appended.
    package init(onDrop: @escaping @Sendable () -> Void) { self.onDrop = Mutex(onDrop) }

    /// Ends the promise as kept (its entry is being appended): `onDrop` will not run.
    /// - Returns: whether it was still open.
    package func fulfil() -> Bool { onDrop.withLock { $0.take() } != nil }

    deinit { onDrop.withLock { $0.take() }?() }
}
