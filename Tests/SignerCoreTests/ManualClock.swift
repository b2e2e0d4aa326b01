import SignerCore

/// A clock tests advance by hand (no sleeping).
struct ManualClock: MonotonicClock {
    var now: Duration = .zero
    mutating func advance(_ by: Duration) { now += by }
}
