import Gateway
import Primitives
import SignerCore
import Testing

/// Denial of service between sites: one origin, many origins of one owner, or many strangers cannot
/// take the sessions or the approval places a connected site needs (regression tests: each failed
/// before the budgets existed).
@Suite struct FairnessTests {
    func ping(_ service: GatewayService, source: String, session: String) async throws -> WireReply? {
        try await service.send("pub(ping)", source: source, session: session)
    }

    /// One origin minting session ids (about 70 per second filled the table of 4,096 before) stops at
    /// its own budget; the connected site and other sites still get sessions.
    @Test func oneOriginCannotFillTheSessionTable() async throws {
        let service = try await Fixture.service(sites: Fixture.connected())
        var admitted = 0
        for i in 0..<5000 {
            do {
                _ = try await ping(service, source: "http://evil.example", session: "e\(i)")
                admitted += 1
            } catch let error as GatewayError where error.code == .tooManySessions {
                break
            }
        }
        #expect(admitted == GatewayOptions().maxSessionsPerSource)
        #expect(try await ping(service, source: Fixture.site, session: "mine") == WireReply(id: "r1", .response(true)))
        _ = try await ping(service, source: "http://other.example", session: "o1")
    }

    /// Many ports (or subdomains) of one host are one owner.
    @Test func manyOriginsOfOneOwnerShareOneBudget() async throws {
        let service = try await Fixture.service(sites: Fixture.connected())
        var admitted = 0
        for port in 1000..<1400 {
            for tab in 0..<2 {
                do {
                    _ = try await ping(
                        service, source: "http://a\(port % 7).evil.example:\(port)", session: "\(port)-\(tab)")
                    admitted += 1
                } catch let error as GatewayError where error.code == .tooManySessions {}
            }
        }
        #expect(admitted == GatewayOptions().maxSessionsPerOwner)
        #expect(try await ping(service, source: Fixture.site, session: "mine") != nil)
    }

    /// Request rate: 64 origins of one owner hammering are refused after their owner's burst, and
    /// all strangers together after the strangers' burst, before any parsing; the connected site
    /// keeps being admitted, and token clients are never throttled.
    @Test func floodingStrangersAreThrottledNotTheConnectedSite() async throws {
        let service = try await Fixture.service(sites: Fixture.connected())
        let rates = GatewayOptions().requestRates
        var admitted = 0
        for i in 0..<1000 {
            let client = ClientIdentity(source: "https://s\(i % 64).evil.example", session: "evil\(i % 64)xxxx")
            if await service.admitRequest(from: client) { admitted += 1 }
        }
        #expect(admitted == rates.stranger.capacity)
        for i in 0..<(rates.connected.capacity) {
            #expect(await service.admitRequest(from: ClientIdentity(source: Fixture.site, session: "mine\(i)xxxx")))
        }
        var strangers = 0
        for i in 0..<1000
        where await service.admitRequest(
            from: ClientIdentity(source: "http://10.0.\(i / 250).\(i % 250)", session: "sxxxxxxx"))
        {
            strangers += 1
        }
        #expect(strangers == rates.strangers.capacity - rates.stranger.capacity)
        for _ in 0..<1000 {
            #expect(await service.admitRequest(from: ClientIdentity(source: "client:bench", session: "benchxxx")))
        }
        let throttled = await service.recentlyThrottled()
        #expect(throttled.first?.owner == "evil.example" && throttled.first?.origins == 64)
    }

    /// Strangers together keep below their share; a connected site is admitted after they are refused.
    @Test func strangersTogetherLeaveRoomForConnectedSites() async throws {
        let service = try await Fixture.service(sites: Fixture.connected())
        var refused = 0
        for i in 0..<600 {
            do { _ = try await ping(service, source: "http://s\(i).example", session: "s\(i)") } catch let error
                as GatewayError where error.code == .tooManySessions
            { refused += 1 }
        }
        #expect(refused == 600 - GatewayOptions().maxSessionsUnconnected)
        for tab in 0..<20 {
            #expect(try await ping(service, source: Fixture.site, session: "mine\(tab)") != nil)
        }
    }

    /// One `authorize.tab` from each of 64 origins filled the global pending queue for up to 600 s and
    /// locked every site out of prompts; connection requests now have a pool of their own.
    @Test func strangersAskingToConnectDoNotLockOutAConnectedSite() async throws {
        let service = try await Fixture.service(sites: Fixture.connected())
        var refused = 0
        for i in 0..<64 {
            let reply = try await service.send(
                "pub(authorize.tab)", ["origin": "x"], source: "http://site\(i).example", session: "t\(i)")
            if reply?.body == .error("Too many pending requests. Try again later.") { refused += 1 }
        }
        #expect(refused == 64 - ApprovalLimits().maxPendingAuthorizations)
        let sign = try await service.send(
            "pub(bytes.sign)", ["address": .string(TestAccounts.alice.address), "data": "hi"], session: "mine")
        #expect(sign == nil, "queued for the person, not refused")
        #expect(await service.pendingApprovals.contains { $0.source == Fixture.site })
    }

    @Test func oneOwnerGetsTwoConnectionPrompts() async throws {
        let service = try await Fixture.service()
        var queued = 0
        for port in 2000..<2010 {
            let reply = try await service.send(
                "pub(authorize.tab)", ["origin": "x"], source: "https://evil.example:\(port)", session: "p\(port)")
            if reply == nil { queued += 1 }
        }
        #expect(queued == ApprovalLimits().maxPendingAuthorizationsPerOwner)
        #expect(
            try await service.send("pub(authorize.tab)", ["origin": "y"], source: Fixture.other, session: "o") == nil)
    }

    @Test(arguments: [
        ("https://app.example:8443", "app.example"), ("http://a.b.evil.example", "evil.example"),
        ("http://127.0.0.1:9000", "127.0.0.1"), ("http://[::1]:80", "[::1]"), ("client:bench", "client:bench"),
        ("http://localhost:3000", "localhost"),
    ])
    func ownersGroupPortsAndSubdomains(source: String, owner: String) {
        #expect(SiteOwner.key(of: source) == owner)
    }
}
