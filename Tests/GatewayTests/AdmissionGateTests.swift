import Gateway
import Testing

/// The admission gate as a pure state machine (time passed in): deny list, rate before deny, and
/// the journal budget that bounds what strangers can add to the journal (issue 24 items 3, 4, 7).
@Suite struct AdmissionGateTests {
    @Test(arguments: [
        ("https://evil.example", true), ("https://a.b.evil.example:8443", true), ("http://evil.example", true),
        ("https://notevil.example", false), ("https://evil.example.org", false), ("client:evil.example", false),
        ("http://127.0.0.1:3000", false), ("not an origin", false),
    ])
    func theDenyListMatchesHostsAndTheirSubdomains(source: String, denied: Bool) {
        let gate = AdmissionGate(deniedHosts: ["evil.example"], rates: .init(), now: .zero)
        #expect(gate.isDenied(source) == denied)
    }

    /// A denied host's flood costs nothing beyond the owner's burst: refused for rate first, and only
    /// the admitted ones are told they are denied. Token clients are never throttled nor denied.
    @Test func rateComesBeforeTheDenyList() {
        var gate = AdmissionGate(deniedHosts: ["evil.example"], rates: .init(), now: .zero)
        var denied = 0
        var limited = 0
        for i in 0..<100 {
            switch gate.admit(source: "https://s\(i).evil.example", connected: false, at: .icrc, now: .zero) {
            case .refused(.deniedHost, _): denied += 1
            case .refused(.rateLimited, _): limited += 1
            case .admitted: Issue.record("a denied host was admitted")
            }
        }
        #expect(denied == RequestThrottle.Rates().stranger.capacity && limited == 100 - denied)
        for _ in 0..<1000 {
            #expect(gate.admit(source: "client:bench", connected: false, at: .request, now: .zero) == .admitted)
        }
    }

    /// Strangers together: 16 entries at once however many owners, then one per 10 s; one owner 4.
    /// A connected site: 20, then one per second.
    @Test func theJournalBudgetBoundsStrangersTogether() {
        var budget = JournalBudget(now: .zero)
        var written = 0
        for i in 0..<1000 where budget.take(source: "https://s\(i).example\(i % 50).com", connected: false, now: .zero)
        {
            written += 1
        }
        #expect(written == budget.strangers)
        let at9 = budget.take(source: "https://late.example", connected: false, now: .seconds(9))
        let at10 = budget.take(source: "https://late.example", connected: false, now: .seconds(10))
        let at11 = budget.take(source: "https://later.example", connected: false, now: .seconds(11))
        #expect(!at9 && at10 && !at11)

        var one = JournalBudget(now: .zero)
        var owner = 0
        for i in 0..<100 where one.take(source: "https://a\(i).evil.example", connected: false, now: .zero) {
            owner += 1
        }
        #expect(owner == one.strangerPerOwner)

        var site = JournalBudget(now: .zero)
        var connected = 0
        for _ in 0..<100 where site.take(source: "https://dapp.example", connected: true, now: .zero) { connected += 1 }
        #expect(connected == site.connected)
        let refilled = site.take(source: "https://dapp.example", connected: true, now: .seconds(1))
        #expect(refilled)
    }
}
