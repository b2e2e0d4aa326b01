/// A Prometheus-style histogram: counts of observations at or below each upper bound (`le`),
/// their sum and count. Bounds are fixed at creation, increasing; the `+Inf` bucket is implied.
/// A value type: `GatewayMetrics` keeps one per label set under its lock.
package struct Histogram: Sendable, Equatable {
    /// Request latency bounds in seconds: 1 ms … 60 s. Most answers take well under 10 ms; an
    /// approval a person gives, or a long poll (25 s hold), lands in the upper buckets.
    package static let latencyBounds: [Double] = [
        0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60,
    ]

    /// The finite upper bounds, increasing.
    package let bounds: [Double]
    /// Per-bucket (not cumulative) counts; one more than `bounds` (the last is `+Inf`).
    private var counts: [UInt64]
    /// Sum of the observed values.
    package private(set) var sum: Double = 0
    /// Number of observations.
    package private(set) var count: UInt64 = 0

    /// - Parameter bounds: increasing finite upper bounds (unsorted or non-finite ones are dropped).
    package init(bounds: [Double] = Histogram.latencyBounds) {
        var clean: [Double] = []
        for bound in bounds where bound.isFinite && (clean.last.map { bound > $0 } ?? true) { clean.append(bound) }
        self.bounds = clean
        counts = Array(repeating: 0, count: clean.count + 1)
    }

    /// Records one value: it falls in the first bucket whose bound is ≥ value (`le` is inclusive).
    /// NaN is counted in `+Inf` and left out of the sum.
    package mutating func observe(_ value: Double) {
        var index = bounds.count
        // Binary search for the first bound >= value.
        var low = 0
        var high = bounds.count
        while low < high {
            let middle = (low + high) / 2
            if bounds[middle] >= value { high = middle } else { low = middle + 1 }
        }
        if !value.isNaN { index = low }
        counts[index] &+= 1
        count &+= 1
        if !value.isNaN { sum += value }
    }

    /// `(le, cumulative count)` pairs, the last one `(+Inf, count)`.
    package var cumulativeBuckets: [(Double, UInt64)] {
        var running: UInt64 = 0
        var result: [(Double, UInt64)] = []
        result.reserveCapacity(counts.count)
        for (index, bucket) in counts.enumerated() {
            running &+= bucket
            result.append((index < bounds.count ? bounds[index] : .infinity, running))
        }
        return result
    }
}
