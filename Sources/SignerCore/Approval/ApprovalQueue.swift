import Primitives
/// The queue of requests waiting for a person: a pure state machine (no threads, no I/O, no clock
/// reads; every operation that depends on time takes `now`). FIFO across sources and tabs, like the
/// polkadot-js signing queue (extension-base `State.ts`).
///
/// Invariants: at most `limits.maxPendingPerSource` entries per source and `limits.maxPendingTotal`
/// in total; every entry has `deadline = createdAt + limits.approvalTimeout`; ids are never reused.
package struct ApprovalQueue<Subject: Sendable>: Sendable {
    /// The bounds this queue enforces.
    package let limits: ApprovalLimits
    /// Waiting requests, oldest first.
    package private(set) var entries: [PendingApproval<Subject>] = []
    private var lastID: UInt64 = 0

    /// Creates an empty queue.
    package init(limits: ApprovalLimits = ApprovalLimits()) { self.limits = limits }

    /// Adds a request. Connection requests (`isConnectionRequest`) fill a pool of their own, bounded
    /// in total and per ``SiteOwner``; every other request counts against `maxPendingTotal`.
    /// - Throws: `SignerError.tooManyPending` when the source, its owner or its pool is full.
    package mutating func enqueue(
        source: String, session: String?, subject: Subject, now: Duration, isConnectionRequest: Bool = false
    ) throws -> PendingApproval<Subject> {
        let pooled = entries.reduce(0) { $0 + ($1.isConnectionRequest == isConnectionRequest ? 1 : 0) }
        if isConnectionRequest {
            guard pooled < limits.maxPendingAuthorizations else {
                throw SignerError(
                    .tooManyPending, "\(limits.maxPendingAuthorizations) connection requests are waiting")
            }
            let owner = SiteOwner.key(of: source)
            let sameOwner = entries.reduce(0) {
                $0 + ($1.isConnectionRequest && SiteOwner.key(of: $1.source) == owner ? 1 : 0)
            }
            guard sameOwner < limits.maxPendingAuthorizationsPerOwner else {
                throw SignerError(.tooManyPending, "the site's owner has \(sameOwner) connection requests waiting")
            }
        } else {
            guard pooled < limits.maxPendingTotal else {
                throw SignerError(.tooManyPending, "the approval queue is full (\(limits.maxPendingTotal) requests)")
            }
        }
        guard pendingCount(source: source) < limits.maxPendingPerSource else {
            throw SignerError(.tooManyPending, "the source has \(limits.maxPendingPerSource) requests waiting")
        }
        lastID += 1
        let entry = PendingApproval(
            id: lastID, source: source, session: session, createdAt: now,
            deadline: now + limits.approvalTimeout, subject: subject, isConnectionRequest: isConnectionRequest)
        entries.append(entry)
        return entry
    }

    /// The waiting request with this id, if any.
    package func entry(id: UInt64) -> PendingApproval<Subject>? { entries.first { $0.id == id } }

    /// How many requests the source has waiting.
    package func pendingCount(source: String) -> Int { entries.reduce(0) { $0 + ($1.source == source ? 1 : 0) } }

    /// Removes and returns the request with this id (a decision was made).
    /// - Throws: `SignerError.unknownApproval` if it is not waiting (decided, expired, or unknown).
    package mutating func take(id: UInt64) throws -> PendingApproval<Subject> {
        guard let index = entries.firstIndex(where: { $0.id == id }) else {
            throw SignerError(.unknownApproval, "no pending approval \(id)")
        }
        return entries.remove(at: index)
    }

    /// Removes and returns every request whose deadline is at or before `now`.
    package mutating func expire(now: Duration) -> [PendingApproval<Subject>] {
        removeAll { $0.deadline <= now }
    }

    /// Removes and returns every request of a tab that went away.
    package mutating func removeSession(_ session: String) -> [PendingApproval<Subject>] {
        removeAll { $0.session == session }
    }

    /// Removes and returns every request of a source (revoked, or shutdown of its client).
    package mutating func removeSource(_ source: String) -> [PendingApproval<Subject>] {
        removeAll { $0.source == source }
    }

    /// The earliest deadline, for scheduling the next `expire(now:)`.
    package var nextDeadline: Duration? { entries.map(\.deadline).min() }

    private mutating func removeAll(where match: (PendingApproval<Subject>) -> Bool) -> [PendingApproval<Subject>] {
        let removed = entries.filter(match)
        if !removed.isEmpty { entries.removeAll(where: match) }
        return removed
    }
}
