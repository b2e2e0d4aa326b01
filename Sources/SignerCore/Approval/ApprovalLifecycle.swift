/// One approval's life, from queued to its end, as a value (docs/architecture.md, "The approval
/// coordinator"): one `State` enum changed only by mutating transitions that return what the
/// coordinator must do next (show it, sign, journal, deliver). It does no I/O and knows no protocol,
/// so every transition is table-tested on its own (`ApprovalLifecycleTests`), the way
/// `ConnectionStateMachine` drives a connection. The gateway keeps one per waiting approval and is
/// its only caller, inside its actor.
///
/// Transitions (event → next state, action):
/// - `shown`: queued → shown (`notifyPerson`).
/// - `decide(approved:signs:)`: queued or shown → decided; approved with something to sign → `sign`,
///   otherwise `journal(approved or rejected)`.
/// - `signingFinished(succeeded:)`: decided (approved) → signed, `journal(approved)`; a failure →
///   `failed`, `journal(failed)` (nothing was signed, the entry says why).
/// - `journalFinished(stored:)`: from decided, signed or failed → journaled; `deliver` the result,
///   the rejection, the failure, or — when a signature was made but its entry could not be stored —
///   `withheld` (the signature never leaves).
/// - `delivered`: journaled → delivered (terminal).
/// - `withdraw(_:)`: queued or shown → expired or cancelled, `journalAbandoned` then the client gets
///   a cancellation; once decided, a withdrawal changes nothing (the decision runs to its end).
///
/// Invariants (properties of the enum, not flags kept in step): a signature is made only from
/// `decided(approved: true)`, so never without a person's (or the automatic mode's) yes; nothing is
/// delivered before `journaled`, so every reply that carries a signature follows its journal entry;
/// each approval is decided at most once; a terminal state never changes.
package struct ApprovalLifecycle: Sendable, Equatable {
    /// Where the approval is.
    package enum State: Sendable, Equatable {
        /// In the queue; no one has been told yet.
        case queued
        /// On the approval page / the terminal (or about to be decided automatically).
        case shown
        /// A person decided; for an approval that signs, the signature is not made yet.
        case decided(approved: Bool)
        /// Approved and signed; the journal entry is not stored yet.
        case signed
        /// Approved, but signing failed (nothing was signed).
        case failed
        /// The entry is stored (or could not be: `delivery` says what the client gets).
        case journaled(Delivery)
        /// The client has its answer (terminal).
        case delivered(Delivery)
        /// Withdrawn undecided: expired, the tab or client went away, the site was revoked (terminal
        /// once recorded).
        case withdrawn(Withdrawal)
    }

    /// Why an approval was withdrawn undecided.
    package enum Withdrawal: Sendable, Equatable {
        case expired
        case cancelled
    }

    /// What the journal records.
    package enum Verdict: Sendable, Equatable {
        case approved
        case rejected
        /// Approved, but signing failed.
        case failed
    }

    /// What the waiting client gets.
    package enum Delivery: Sendable, Equatable {
        /// The signature (or, for an approval that signs nothing, the yes).
        case result
        /// A person said no.
        case rejection
        /// Approved, but nothing could be signed.
        case failure
        /// Signed, but the journal could not store the entry: the signature is withheld.
        case withheld
        /// Withdrawn undecided.
        case cancellation
    }

    /// What the coordinator must do after a transition.
    package enum Action: Sendable, Equatable {
        /// Show the approval (approval page, terminal listeners).
        case notifyPerson
        /// Run the approval's sign step (built, before it was shown, from exactly what is shown).
        case sign
        /// Store the journal entry with this verdict (a signature, if one was made, included).
        case journal(Verdict)
        /// Record the withdrawal (within the journal budget), then answer the client `cancellation`.
        case journalAbandoned(Withdrawal)
        /// Answer the waiting client.
        case deliver(Delivery)
        /// Nothing to do.
        case none
        /// The event does not apply in this state (a second decision, a late signature): ignored.
        case refused
    }

    package private(set) var state: State = .queued
    /// Whether approving it makes a signature (a sign step exists).
    package let signs: Bool

    package init(signs: Bool) { self.signs = signs }

    /// The person can see it now.
    package mutating func shown() -> Action {
        guard state == .queued else { return .refused }
        state = .shown
        return .notifyPerson
    }

    /// A decision (a person, or the automatic mode).
    package mutating func decide(approved: Bool) -> Action {
        switch state {
        case .queued, .shown:
            state = .decided(approved: approved)
            if approved && signs { return .sign }
            return .journal(approved ? .approved : .rejected)
        default:
            return .refused
        }
    }

    /// The sign step finished.
    package mutating func signingFinished(succeeded: Bool) -> Action {
        guard state == .decided(approved: true), signs else { return .refused }
        state = succeeded ? .signed : .failed
        return .journal(succeeded ? .approved : .failed)
    }

    /// The journal entry was stored (or could not be).
    package mutating func journalFinished(stored: Bool) -> Action {
        let delivery: Delivery
        switch state {
        case .decided(approved: false): delivery = .rejection
        case .decided(approved: true) where !signs: delivery = .result
        case .signed: delivery = stored ? .result : .withheld
        case .failed: delivery = .failure
        default: return .refused
        }
        state = .journaled(delivery)
        return .deliver(delivery)
    }

    /// The client has its answer.
    package mutating func delivered() -> Action {
        guard case .journaled(let delivery) = state else { return .refused }
        state = .delivered(delivery)
        return .none
    }

    /// It went away undecided.
    package mutating func withdraw(_ why: Withdrawal) -> Action {
        switch state {
        case .queued, .shown:
            state = .withdrawn(why)
            return .journalAbandoned(why)
        default:
            return .refused
        }
    }

    /// Whether the approval has reached an end (nothing more will happen to it).
    package var isFinished: Bool {
        switch state {
        case .delivered, .withdrawn: true
        default: false
        }
    }
}
