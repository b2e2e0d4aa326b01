import Testing

@testable import Gateway

/// The token bucket and the per-owner request throttle, driven by an injected time (no waiting).
@Suite struct RequestThrottleTests {
    static func ms(_ n: Int) -> Duration { .milliseconds(n) }

    @Test func aBucketGivesItsBurstThenItsRate() {
        var bucket = TokenBucket(capacity: 4, perSecond: 10, now: .zero)
        for _ in 0..<4 {
            let result = bucket.take(now: .zero)
            #expect(result)
        }
        do {
            let result = !bucket.take(now: .zero)
            #expect(result)
        }
        do {
            let result = !bucket.take(now: Self.ms(99))
            #expect(result)
        }
        let refilled = bucket.take(now: Self.ms(100))
        #expect(refilled)  // 10/s: one token per 100 ms
        do {
            let result = !bucket.take(now: Self.ms(150))
            #expect(result)
        }
        #expect(!bucket.isFull(now: Self.ms(150)))
        #expect(bucket.isFull(now: .seconds(10)))
        // Never more than the capacity, however long it waited.
        for _ in 0..<4 {
            let result = bucket.take(now: .seconds(3600))
            #expect(result)
        }
        do {
            let result = !bucket.take(now: .seconds(3600))
            #expect(result)
        }
    }

    @Test func timeGoingBackwardsGivesNothing() {
        var bucket = TokenBucket(capacity: 1, perSecond: 1, now: .seconds(5))
        do {
            let result = bucket.take(now: .seconds(5))
            #expect(result)
        }
        do {
            let result = !bucket.take(now: .seconds(1))
            #expect(result)
        }
    }

    /// 64 origins of one owner share one bucket; a connected site of another owner keeps working
    /// at full rate while they are refused; strangers of many owners share a global rate.
    @Test func strangersAreThrottledAndAConnectedSiteIsNot() {
        var rates = RequestThrottle.Rates()
        rates.connected = (10, 10)
        rates.stranger = (5, 1)
        rates.strangers = (8, 2)
        var throttle = RequestThrottle(rates: rates, now: .zero)
        var admitted = 0
        for i in 0..<64 {
            if throttle.admit(source: "https://s\(i).evil.example", connected: false, now: .zero) == .admitted {
                admitted += 1
            }
        }
        #expect(admitted == 5, "one owner's 64 origins share its burst")
        for _ in 0..<10 {
            do {
                let result =
                    throttle.admit(source: "https://app.good.example", connected: true, now: .zero) == .admitted
                #expect(result)
            }
        }
        // Other strangers: the shared strangers' bucket (8) has 3 tokens left after evil.example's 5.
        var others = 0
        for i in 0..<20
        where throttle.admit(source: "http://127.0.0.\(i + 2):80\(i)", connected: false, now: .zero)
            == .admitted
        {
            others += 1
        }
        #expect(others == 3)
        let line = throttle.recentlyThrottled(now: .seconds(1))
        #expect(line.first?.owner == "evil.example")
        #expect(line.first?.origins == 59 && line.first?.refused == 59)
        #expect(line.count == 18)
        #expect(throttle.recentlyThrottled(now: .seconds(61)).isEmpty)
    }

    @Test func theFirstRefusalOfAMinuteIsNewTheRestAreNot() {
        var rates = RequestThrottle.Rates()
        rates.stranger = (1, 1)
        var throttle = RequestThrottle(rates: rates, now: .zero)
        do {
            let result = throttle.admit(source: "https://a.example", connected: false, now: .zero) == .admitted
            #expect(result)
        }
        #expect(
            throttle.admit(source: "https://a.example", connected: false, now: .zero) == .refused(newlyThrottled: true))
        #expect(
            throttle.admit(source: "https://a.example", connected: false, now: .zero) == .refused(newlyThrottled: false)
        )
        do {
            let result = throttle.admit(source: "https://a.example", connected: false, now: .seconds(70)) == .admitted
            #expect(result)
        }
        #expect(
            throttle.admit(source: "https://a.example", connected: false, now: .seconds(70))
                == .refused(newlyThrottled: true))
    }

    /// A connected origin and a stranger of the same owner draw from separate buckets, so
    /// alternating between them does not refill either.
    @Test func alternatingConnectedAndStrangerOriginsOfOneOwnerGainsNothing() {
        var rates = RequestThrottle.Rates()
        rates.connected = (3, 1)
        rates.stranger = (2, 1)
        var throttle = RequestThrottle(rates: rates, now: .zero)
        var admitted = 0
        for i in 0..<20 {
            let connected = i % 2 == 0
            let source = connected ? "https://app.example.com" : "https://x\(i).example.com"
            if throttle.admit(source: source, connected: connected, now: .zero) == .admitted { admitted += 1 }
        }
        #expect(admitted == 5)
    }

    @Test func trackedOwnersAreBounded() {
        var rates = RequestThrottle.Rates()
        rates.maxOwners = 4
        rates.stranger = (1, 1)
        rates.strangers = (1000, 1000)
        var throttle = RequestThrottle(rates: rates, now: .zero)
        for i in 0..<4 {
            do {
                let result = throttle.admit(source: "https://o\(i).example", connected: false, now: .zero) == .admitted
                #expect(result)
            }
        }
        // Full table of non-full buckets: a fifth owner is refused rather than growing memory.
        do {
            let result = throttle.admit(source: "https://o9.example", connected: false, now: .zero) != .admitted
            #expect(result)
        }
        // Once the others refilled (full buckets carry nothing), they are forgotten and room is made.
        do {
            let result = throttle.admit(source: "https://o9.example", connected: false, now: .seconds(5)) == .admitted
            #expect(result)
        }
    }
}
