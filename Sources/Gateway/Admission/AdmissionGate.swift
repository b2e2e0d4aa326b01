import SignerCore

/// A way a request enters the dapp port: the method and path of its route. Each route names its
/// entry point when it asks the ``AdmissionGate``; docs/threat-model.md "Checks per entry point"
/// lists what each one passes. The bridge's own routes are here; each protocol adapter declares its
/// route beside its code (`EntryPoint.icrc` in `ICP/`, `.ethereum` in `Ethereum/`, ICON's Connect
/// routes in `Icon/`), so a new protocol adds none here.
package struct EntryPoint: Sendable, Hashable, CustomStringConvertible {
    /// `POST`, `GET`.
    package let method: String
    /// The route's path (`/v1/icrc`).
    package let path: String

    package init(_ method: String, _ path: String) {
        self.method = method
        self.path = path
    }

    /// `POST /v1/icrc`.
    package var description: String { "\(method) \(path)" }

    /// `POST /v1/request`: polkadot-js messages and the ICON relay events of the bridge.
    package static let request = EntryPoint("POST", "/v1/request")
    /// `GET /v1/events` (SSE).
    package static let events = EntryPoint("GET", "/v1/events")
    /// `GET /v1/poll` (long poll).
    package static let poll = EntryPoint("GET", "/v1/poll")
}

/// Why the gate refused a request, before any protocol code saw it. Each route answers it in its
/// protocol's shape (``AdmissionRefusal/httpStatus`` for the transport part).
package enum AdmissionRefusal: Error, Sendable, Equatable, CustomStringConvertible {
    /// The site's owner (or all strangers together) spent its request budget: HTTP 429.
    case rateLimited
    /// The deny list (`--deny-host`) names the site's host: the protocol's "not allowed" answer.
    case deniedHost

    package var description: String {
        switch self {
        case .rateLimited: "rate limited"
        case .deniedHost: "denied host"
        }
    }
}

/// The one gate of the dapp port (the start of the protocol seam): every route calls it through
/// ``GatewayService/admit(_:at:)`` with the identity the transport established (never a body
/// field) before any protocol code runs, and no protocol can go around it. It holds:
///
/// - the deny list (`--deny-host`, matched with subdomains);
/// - admission: the per-owner request rate, larger for owners with a connected site, and the
///   strangers' shared rate (``RequestThrottle``); token clients (`client:NAME`) are not throttled;
/// - the journal budget (``JournalBudget``): how many entries a source may add that no person
///   decided (refusals, expired and cancelled requests).
///
/// Whether a source is connected is the one grant book's answer (``AuthorizationBook``), for every
/// protocol. A pure state machine over an injected time; the approval coordinator owns one, on the
/// service's actor.
package struct AdmissionGate: Sendable {
    /// Hosts the deny list names (lower-case).
    package let deniedHosts: Set<String>
    /// Requests per second per site owner and for all strangers together.
    package private(set) var throttle: RequestThrottle
    /// Entries per source that no person decided.
    package private(set) var journalBudget: JournalBudget

    package init(deniedHosts: Set<String>, rates: RequestThrottle.Rates, now: Duration) {
        self.deniedHosts = deniedHosts
        throttle = RequestThrottle(rates: rates, now: now)
        journalBudget = JournalBudget(now: now)
    }

    /// What ``admit(source:connected:at:now:)`` decided.
    package enum Decision: Sendable, Equatable {
        case admitted
        /// `newlyThrottled`: the owner had no refusal in the last minute (the approval page is told once).
        case refused(AdmissionRefusal, newlyThrottled: Bool)
    }

    /// Admits or refuses one request of `source` at `entry`: the rate first (a refusal costs
    /// nothing else, not even a journal entry), then the deny list.
    package mutating func admit(source: String, connected: Bool, at entry: EntryPoint, now: Duration) -> Decision {
        if !source.hasPrefix("client:") {
            if case .refused(let fresh) = throttle.admit(source: source, connected: connected, now: now) {
                return .refused(.rateLimited, newlyThrottled: fresh)
            }
        }
        if isDenied(source) { return .refused(.deniedHost, newlyThrottled: false) }
        return .admitted
    }

    /// Whether the deny list names `source`'s host or one of its parent domains.
    package func isDenied(_ source: String) -> Bool {
        guard !deniedHosts.isEmpty, let host = SiteOrigin(source)?.host else { return false }
        var labels = host.split(separator: ".")
        while !labels.isEmpty {
            if deniedHosts.contains(labels.joined(separator: ".")) { return true }
            labels.removeFirst()
        }
        return false
    }

    /// Takes one journal place for an entry no person decided. - Returns: whether it may be written.
    package mutating func mayJournal(source: String, connected: Bool, now: Duration) -> Bool {
        journalBudget.take(source: source, connected: connected, now: now)
    }
}

/// How many journal entries no person decided (refusals, expiries, cancellations) a source may add,
/// so that the journal's growth per unit of traffic is bounded (docs/journal.md §1):
///
/// - a connected site: `connected` entries in a burst, then one per second;
/// - a source the person never connected (a stranger, including a denied host): its owner's
///   bucket (`strangerPerOwner` in a burst, then one per `strangerRefill`) and one bucket shared by
///   all strangers (`strangers` in a burst, then one per `strangerRefill`). However many origins
///   strangers use, together they add at most `strangers` entries plus one per `strangerRefill`.
///
/// Integer state over an injected time; a never-trapping refill (elapsed time is capped).
package struct JournalBudget: Sendable {
    package var connected = 20
    package var strangerPerOwner = 4
    package var strangers = 16
    package var strangerRefill: Duration = .seconds(10)
    /// Most buckets kept; beyond it, full buckets are forgotten (they carry nothing).
    package var maxBuckets = 4096

    private var buckets: [String: (tokens: Int, at: Duration)] = [:]
    private var shared: (tokens: Int, at: Duration)

    package init(now: Duration) { shared = (16, now) }

    /// Takes one place. - Returns: whether one was left.
    package mutating func take(source: String, connected: Bool, now: Duration) -> Bool {
        if connected {
            return take(key: "c " + source, capacity: self.connected, every: .seconds(1), now: now)
        }
        var pool = Self.refilled(shared, capacity: strangers, every: strangerRefill, now: now)
        guard pool.tokens > 0 else {
            shared = pool
            return false
        }
        guard take(key: "s " + SiteOwner.key(of: source), capacity: strangerPerOwner, every: strangerRefill, now: now)
        else {
            shared = pool
            return false
        }
        pool.tokens -= 1
        shared = pool
        return true
    }

    private mutating func take(key: String, capacity: Int, every: Duration, now: Duration) -> Bool {
        var bucket = Self.refilled(buckets[key] ?? (capacity, now), capacity: capacity, every: every, now: now)
        guard bucket.tokens > 0 else {
            buckets[key] = bucket
            return false
        }
        bucket.tokens -= 1
        buckets[key] = bucket
        if buckets.count > maxBuckets {
            buckets = buckets.filter { key, value in
                let isConnected = key.hasPrefix("c ")
                let capacity = isConnected ? connected : strangerPerOwner
                let every = isConnected ? Duration.seconds(1) : strangerRefill
                return Self.refilled(value, capacity: capacity, every: every, now: now).tokens < capacity
            }
        }
        return true
    }

    /// The bucket refilled by one token per whole `every` elapsed (the remainder is kept).
    static func refilled(_ bucket: (tokens: Int, at: Duration), capacity: Int, every: Duration, now: Duration) -> (
        tokens: Int, at: Duration
    ) {
        guard now > bucket.at, every > .zero else { return bucket }
        let elapsed = min(now - bucket.at, .seconds(86_400))
        let periods = Int(elapsed / every)
        guard periods > 0 else { return bucket }
        let tokens = bucket.tokens >= capacity ? bucket.tokens : min(capacity, bucket.tokens + periods)
        return (tokens, bucket.at + every * periods)
    }
}
