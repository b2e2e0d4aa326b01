import Primitives
import Testing

@testable import SignerCore

@Suite struct ApprovalQueueTests {
    let limits = ApprovalLimits(maxPendingPerSource: 2, maxPendingTotal: 3, approvalTimeout: .seconds(60))

    @Test func entriesKeepArrivalOrderAndGetIncreasingIDs() throws {
        var queue = ApprovalQueue<String>(limits: limits)
        let a = try queue.enqueue(source: "https://a.example", session: "s1", subject: "one", now: .zero)
        let b = try queue.enqueue(source: "https://b.example", session: "s2", subject: "two", now: .seconds(1))
        #expect(a.id < b.id)
        #expect(queue.entries.map(\.subject) == ["one", "two"])
        #expect(b.deadline == .seconds(61))
    }

    @Test func aSourceCannotExceedItsPendingBound() throws {
        var queue = ApprovalQueue<String>(limits: limits)
        _ = try queue.enqueue(source: "https://a.example", session: nil, subject: "1", now: .zero)
        _ = try queue.enqueue(source: "https://a.example", session: nil, subject: "2", now: .zero)
        #expect(throws: SignerError(.tooManyPending, "")) {
            try queue.enqueue(source: "https://a.example", session: nil, subject: "3", now: .zero)
        }
        _ = try queue.enqueue(source: "https://b.example", session: nil, subject: "4", now: .zero)
    }

    @Test func theWholeQueueIsBounded() throws {
        var queue = ApprovalQueue<String>(limits: limits)
        for (i, source) in ["a", "b", "c"].enumerated() {
            _ = try queue.enqueue(source: source, session: nil, subject: "\(i)", now: .zero)
        }
        #expect(throws: SignerError(.tooManyPending, "")) {
            try queue.enqueue(source: "d", session: nil, subject: "x", now: .zero)
        }
    }

    @Test func takingRemovesOnceAndUnknownIDsThrow() throws {
        var queue = ApprovalQueue<String>(limits: limits)
        let a = try queue.enqueue(source: "a", session: nil, subject: "x", now: .zero)
        #expect(try queue.take(id: a.id).subject == "x")
        #expect(throws: SignerError(.unknownApproval, "")) { try queue.take(id: a.id) }
        #expect(throws: SignerError(.unknownApproval, "")) { try queue.take(id: 999) }
    }

    @Test func requestsExpireExactlyAtTheirDeadlineOnTheManualClock() throws {
        var clock = ManualClock()
        var queue = ApprovalQueue<String>(limits: limits)
        _ = try queue.enqueue(source: "a", session: nil, subject: "early", now: clock.now)
        clock.advance(.seconds(30))
        _ = try queue.enqueue(source: "b", session: nil, subject: "late", now: clock.now)
        #expect(queue.nextDeadline == .seconds(60))
        clock.advance(.seconds(29))
        #expect(queue.expire(now: clock.now).isEmpty)
        clock.advance(.seconds(1))
        #expect(queue.expire(now: clock.now).map(\.subject) == ["early"])
        clock.advance(.seconds(30))
        #expect(queue.expire(now: clock.now).map(\.subject) == ["late"])
        #expect(queue.nextDeadline == nil)
    }

    @Test func aClosedTabTakesOnlyItsOwnRequests() throws {
        var queue = ApprovalQueue<String>(limits: limits)
        _ = try queue.enqueue(source: "a", session: "tab1", subject: "1", now: .zero)
        _ = try queue.enqueue(source: "a", session: "tab2", subject: "2", now: .zero)
        _ = try queue.enqueue(source: "b", session: "tab1", subject: "3", now: .zero)
        #expect(queue.removeSession("tab1").map(\.subject) == ["1", "3"])
        #expect(queue.entries.map(\.subject) == ["2"])
        #expect(queue.removeSource("a").map(\.subject) == ["2"])
        #expect(queue.entries.isEmpty)
    }

    @Test func freedSlotsCanBeReused() throws {
        var queue = ApprovalQueue<String>(limits: limits)
        let a = try queue.enqueue(source: "a", session: nil, subject: "1", now: .zero)
        _ = try queue.enqueue(source: "a", session: nil, subject: "2", now: .zero)
        _ = try queue.take(id: a.id)
        let c = try queue.enqueue(source: "a", session: nil, subject: "3", now: .zero)
        #expect(c.id > a.id)
        #expect(queue.pendingCount(source: "a") == 2)
    }
}
