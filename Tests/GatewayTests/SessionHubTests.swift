import Primitives
import Testing

@testable import Gateway

/// The session hub as a value, without sockets or a clock: ownership, the budgets that admit a new
/// session or stream, delivery and replay, idleness.
@Suite struct SessionHubTests {
    static func hub(_ configure: (inout GatewayOptions) -> Void = { _ in }) -> SessionHub {
        var options = GatewayOptions()
        configure(&options)
        return SessionHub(options: options, serverID: "srv")
    }

    struct BudgetRow: Sendable, CustomTestStringConvertible {
        let name: String
        /// Sessions opened first (source, session).
        let existing: [(String, String)]
        let newcomer: (String, String)
        let connected: Set<String>
        let admitted: Bool
        var testDescription: String { name }
    }

    static let budgets: [BudgetRow] = [
        BudgetRow(
            name: "per source", existing: [("https://a.example", "1"), ("https://a.example", "2")],
            newcomer: ("https://a.example", "3"), connected: [], admitted: false),
        BudgetRow(
            name: "per owner (another subdomain)",
            existing: [("https://a.example", "1"), ("https://b.a.example", "2")],
            newcomer: ("https://c.a.example", "3"), connected: ["https://c.a.example"], admitted: false),
        BudgetRow(
            name: "strangers together", existing: [("https://x.test", "1"), ("https://y.test", "2")],
            newcomer: ("https://z.test", "3"), connected: [], admitted: false),
        BudgetRow(
            name: "a connected site is not a stranger", existing: [("https://x.test", "1"), ("https://y.test", "2")],
            newcomer: ("https://z.test", "3"), connected: ["https://z.test"], admitted: true),
    ]

    @Test(arguments: budgets)
    func budgetsAdmitOrRefuseANewSession(_ row: BudgetRow) throws {
        var hub = Self.hub {
            $0.maxSessionsPerSource = 2
            $0.maxSessionsPerOwner = 2
            $0.maxSessionsUnconnected = 2
        }
        for (source, session) in row.existing {
            try hub.touch(ClientIdentity(source: source, session: session), now: .zero) { _ in false }
        }
        let newcomer = ClientIdentity(source: row.newcomer.0, session: row.newcomer.1)
        var admitted = true
        do {
            try hub.touch(newcomer, now: .zero) { row.connected.contains($0) }
        } catch {
            admitted = false
        }
        #expect(admitted == row.admitted)
        if !row.admitted { #expect(hub.source(of: row.newcomer.1) == nil) }
    }

    @Test func aSessionBelongsToItsSource() throws {
        var hub = Self.hub()
        try hub.touch(ClientIdentity(source: "https://a.example", session: "s"), now: .zero) { _ in true }
        var refused = false
        do {
            try hub.touch(ClientIdentity(source: "https://evil.example", session: "s"), now: .zero) { _ in true }
        } catch {
            refused = (error as? GatewayError)?.code == .sessionMismatch
        }
        #expect(refused)
        #expect(hub.source(of: "s") == "https://a.example")
    }

    @Test func repliesAreKeptForReplayAndReachOnlyTheSourcesSessions() throws {
        var hub = Self.hub()
        try hub.touch(ClientIdentity(source: "https://a.example", session: "a1"), now: .zero) { _ in true }
        try hub.touch(ClientIdentity(source: "https://a.example", session: "a2"), now: .zero) { _ in true }
        try hub.touch(ClientIdentity(source: "https://b.example", session: "b1"), now: .zero) { _ in true }
        hub.deliver(WireReply(id: "r1", .response(true)), to: "a1")
        hub.deliver(WireReply(id: "ethereum.chainChanged", .subscription("0x1")), toSource: "https://a.example")
        #expect(hub.replay("a1", after: nil).map(\.reply.id) == ["r1", "ethereum.chainChanged"])
        #expect(hub.replay("a1", after: 1).map(\.eventID) == ["srv.2"])
        #expect(hub.replay("a2", after: nil).map(\.reply.id) == ["ethereum.chainChanged"])
        #expect(hub.replay("b1", after: nil).isEmpty)
        let subscribed = hub.subscribe("a1", id: "sub")
        #expect(subscribed)
        hub.deliverToSubscriptions(of: "https://a.example") { WireReply(id: $0, .subscription([])) }
        #expect(hub.replay("a1", after: 2).map(\.reply.id) == ["sub"])
        #expect(hub.replay("a2", after: 1).isEmpty)
        let first = hub.unsubscribe("a1", id: "sub")
        let second = hub.unsubscribe("a1", id: "sub")
        #expect(first && !second)
    }

    @Test func idleSessionsWithoutStreamsAreListedAndStreamsAreBounded() throws {
        var hub = Self.hub {
            $0.sessionIdleTimeout = .seconds(60)
            $0.maxStreamsPerSession = 1
        }
        let a = ClientIdentity(source: "https://a.example", session: "a")
        let b = ClientIdentity(source: "https://b.example", session: "b")
        try hub.touch(a, now: .zero) { _ in true }
        try hub.touch(b, now: .zero) { _ in true }
        let (_, continuation) = AsyncStream<SessionEvent>.makeStream()
        let listener = try hub.listen(b, after: nil, continuation: continuation)
        #expect(listener != nil)
        var refused = false
        do { _ = try hub.listen(b, after: nil, continuation: continuation) } catch {
            refused = (error as? GatewayError)?.code == .tooManySessions
        }
        #expect(refused)
        #expect(hub.idle(now: .seconds(61)) == ["a"])
        let removed = hub.remove("a")
        let again = hub.remove("a")
        #expect(removed && !again)
    }

    /// Shutdown: open streams end, and one opened later ends at once (a long-poll then answers).
    @Test func endingTheHubEndsEveryStreamAndLaterOnes() async throws {
        let hub = Self.hub()
        let a = ClientIdentity(source: "https://a.example", session: "a")
        try hub.touch(a, now: .zero) { _ in true }
        let (open, openContinuation) = AsyncStream<SessionEvent>.makeStream()
        #expect(try hub.listen(a, after: nil, continuation: openContinuation) != nil)
        hub.endAll()
        var received = 0
        for await _ in open { received += 1 }
        #expect(received == 0 && hub.ended)
        let (later, laterContinuation) = AsyncStream<SessionEvent>.makeStream()
        #expect(try hub.listen(a, after: nil, continuation: laterContinuation) == nil)
        for await _ in later { received += 1 }
        #expect(received == 0)
    }
}
