import SignerCore

/// A token bucket: `capacity` requests at once, refilled at `perSecond`. A state machine over an
/// injected time (a `Duration` since some zero, as ``MonotonicClock`` gives), so tests drive it
/// without waiting. Integer arithmetic only: tokens are counted in millitokens.
package struct TokenBucket: Sendable, Equatable {
    /// Most requests in a burst.
    package let capacity: Int
    /// Requests per second in the long run.
    package let perSecond: Int
    private var millitokens: Int64
    private var last: Duration

    package init(capacity: Int, perSecond: Int, now: Duration) {
        self.capacity = max(1, capacity)
        self.perSecond = max(1, perSecond)
        millitokens = Int64(self.capacity) * 1000
        last = now
    }

    /// Takes one token if there is one.
    /// - Returns: whether the request may go on.
    package mutating func take(now: Duration) -> Bool {
        refill(now: now)
        guard millitokens >= 1000 else { return false }
        millitokens -= 1000
        return true
    }

    /// Whether the bucket is full at `now` (it then carries no information and can be forgotten).
    package func isFull(now: Duration) -> Bool {
        var copy = self
        copy.refill(now: now)
        return copy.millitokens >= Int64(capacity) * 1000
    }

    private mutating func refill(now: Duration) {
        guard now > last else { return }
        let elapsed = now - last
        // millitokens gained = perSecond × elapsed(ms); elapsed is capped so the product cannot overflow.
        let ms = min(elapsed.components.seconds, 86_400) * 1000 + elapsed.components.attoseconds / 1_000_000_000_000_000
        millitokens = min(Int64(capacity) * 1000, millitokens + Int64(perSecond) * ms)
        last = now
    }
}

/// Requests per second per site owner (``SiteOwner``: one host's ports, one domain's subdomains),
/// checked before a request body is parsed: one token bucket per owner, larger for owners with a
/// connected site, and one bucket shared by all owners that have none, so that strangers together
/// cannot take more than a small global rate however many origins they use, while connected sites
/// are never held back by them (issue 15, docs/security.md "Fairness").
///
/// Throttled owners are remembered for the approval page, which lists them in one line.
package struct RequestThrottle: Sendable {
    /// Sizes of the buckets.
    package struct Rates: Sendable, Equatable {
        /// Per owner with a connected site.
        package var connected: (capacity: Int, perSecond: Int) = (256, 128)
        /// Per owner without one.
        package var stranger: (capacity: Int, perSecond: Int) = (32, 8)
        /// All owners without a connected site, together.
        package var strangers: (capacity: Int, perSecond: Int) = (128, 64)
        /// Most owners tracked; beyond it, full buckets are forgotten (they carry nothing).
        package var maxOwners: Int = 4096

        package init() {}

        package static func == (a: Rates, b: Rates) -> Bool {
            a.connected == b.connected && a.stranger == b.stranger && a.strangers == b.strangers
                && a.maxOwners == b.maxOwners
        }
    }

    /// An owner that was refused recently.
    package struct Throttled: Sendable, Equatable {
        /// The owner key (e.g. `example.com`, `127.0.0.1`).
        package var owner: String
        /// Distinct origins of it refused (counted up to 1,000).
        package var origins: Int
        /// Requests refused.
        package var refused: Int
        /// When the last one was refused.
        package var last: Duration
    }

    package let rates: Rates
    private var buckets: [String: TokenBucket] = [:]
    private var strangers: TokenBucket
    private var throttled: [String: (origins: Set<String>, refused: Int, last: Duration)] = [:]

    package init(rates: Rates = Rates(), now: Duration) {
        self.rates = rates
        strangers = TokenBucket(capacity: rates.strangers.capacity, perSecond: rates.strangers.perSecond, now: now)
    }

    /// What ``admit(source:connected:now:)`` decided.
    package enum Decision: Sendable, Equatable {
        case admitted
        /// Refused; `newlyThrottled` when the owner had no refusal in the last minute (the approval
        /// page is told once, not per request).
        case refused(newlyThrottled: Bool)
    }

    /// Admits or refuses one request of `source`.
    /// - Parameter connected: whether the person connected `source`.
    package mutating func admit(source: String, connected: Bool, now: Duration) -> Decision {
        let owner = SiteOwner.key(of: source)
        let rate = connected ? rates.connected : rates.stranger
        // An owner's connected origins and its other origins draw from separate buckets.
        let key = (connected ? "c " : "s ") + owner
        if buckets[key] == nil, buckets.count >= rates.maxOwners {
            buckets = buckets.filter { !$0.value.isFull(now: now) }
            guard buckets.count < rates.maxOwners else { return refuse(owner, source, now) }
        }
        var bucket = buckets[key] ?? TokenBucket(capacity: rate.capacity, perSecond: rate.perSecond, now: now)
        let admitted = bucket.take(now: now)
        buckets[key] = bucket
        guard admitted else { return refuse(owner, source, now) }
        if !connected, !strangers.take(now: now) { return refuse(owner, source, now) }
        return .admitted
    }

    private mutating func refuse(_ owner: String, _ source: String, _ now: Duration) -> Decision {
        let previous = throttled[owner]
        let fresh = previous.map { now - $0.last >= .seconds(60) } ?? true
        var entry = fresh ? (origins: [], refused: 0, last: now) : previous ?? (origins: [], refused: 0, last: now)
        if entry.origins.count < 1000 { entry.origins.insert(source) }
        entry.refused += 1
        entry.last = now
        throttled[owner] = entry
        if throttled.count > 256 {
            throttled = throttled.filter { now - $0.value.last < .seconds(60) }
        }
        return .refused(newlyThrottled: fresh)
    }

    /// Owners refused within `window` before `now`, most refused first.
    package func recentlyThrottled(now: Duration, window: Duration = .seconds(60)) -> [Throttled] {
        throttled.filter { now - $0.value.last < window }
            .map {
                Throttled(
                    owner: $0.key, origins: $0.value.origins.count, refused: $0.value.refused, last: $0.value.last)
            }
            .sorted { ($0.refused, $0.owner) > ($1.refused, $1.owner) }
    }
}
