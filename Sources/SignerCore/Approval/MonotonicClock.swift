/// A source of monotonic time for the approval queue, injectable so that expiry is tested by
/// advancing a manual clock instead of sleeping (docs/reference/conventions.md §2).
///
/// `now` is the time elapsed since an arbitrary, fixed starting point; only differences matter.
package protocol MonotonicClock: Sendable {
    /// The current monotonic time. Never decreases.
    var now: Duration { get }
}

/// The process's monotonic clock (`ContinuousClock`, which keeps counting while the machine sleeps,
/// so a request left waiting overnight expires).
package struct SystemMonotonicClock: MonotonicClock {
    private let start: ContinuousClock.Instant

    /// Creates a clock whose zero is the moment of creation.
    package init() { start = ContinuousClock.now }

    package var now: Duration { ContinuousClock.now - start }
}
