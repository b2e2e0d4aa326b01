import SignerCore
import Testing

/// The approval coordinator's transition table, without I/O: each row is a sequence of events and
/// the actions and end state they must produce.
@Suite struct ApprovalLifecycleTests {
    enum Event: Sendable {
        case shown, approve, reject, signed, signFailed, stored, notStored, delivered, expire, cancel

        func apply(_ lifecycle: inout ApprovalLifecycle) -> ApprovalLifecycle.Action {
            switch self {
            case .shown: lifecycle.shown()
            case .approve: lifecycle.decide(approved: true)
            case .reject: lifecycle.decide(approved: false)
            case .signed: lifecycle.signingFinished(succeeded: true)
            case .signFailed: lifecycle.signingFinished(succeeded: false)
            case .stored: lifecycle.journalFinished(stored: true)
            case .notStored: lifecycle.journalFinished(stored: false)
            case .delivered: lifecycle.delivered()
            case .expire: lifecycle.withdraw(.expired)
            case .cancel: lifecycle.withdraw(.cancelled)
            }
        }
    }

    struct Row: Sendable, CustomTestStringConvertible {
        let name: String
        let signs: Bool
        let events: [Event]
        let actions: [ApprovalLifecycle.Action]
        let end: ApprovalLifecycle.State
        var testDescription: String { name }
    }

    static let rows: [Row] = [
        Row(
            name: "approved signature: shown, decided, signed, journaled, delivered", signs: true,
            events: [.shown, .approve, .signed, .stored, .delivered],
            actions: [.notifyPerson, .sign, .journal(.approved), .deliver(.result), .none],
            end: .delivered(.result)),
        Row(
            name: "automatic mode decides before it is shown", signs: true,
            events: [.approve, .signed, .stored, .delivered],
            actions: [.sign, .journal(.approved), .deliver(.result), .none], end: .delivered(.result)),
        Row(
            name: "rejected: nothing signed, journaled, rejection delivered", signs: true,
            events: [.shown, .reject, .stored, .delivered],
            actions: [.notifyPerson, .journal(.rejected), .deliver(.rejection), .none],
            end: .delivered(.rejection)),
        Row(
            name: "a permission (nothing to sign) approved", signs: false,
            events: [.shown, .approve, .stored, .delivered],
            actions: [.notifyPerson, .journal(.approved), .deliver(.result), .none], end: .delivered(.result)),
        Row(
            name: "signing failed: journaled as failed, failure delivered", signs: true,
            events: [.shown, .approve, .signFailed, .stored, .delivered],
            actions: [.notifyPerson, .sign, .journal(.failed), .deliver(.failure), .none],
            end: .delivered(.failure)),
        Row(
            name: "signed but not journaled: the signature is withheld", signs: true,
            events: [.shown, .approve, .signed, .notStored, .delivered],
            actions: [.notifyPerson, .sign, .journal(.approved), .deliver(.withheld), .none],
            end: .delivered(.withheld)),
        Row(
            name: "a rejection the journal refused is still a rejection", signs: true,
            events: [.reject, .notStored],
            actions: [.journal(.rejected), .deliver(.rejection)], end: .journaled(.rejection)),
        Row(
            name: "expired while shown", signs: true, events: [.shown, .expire],
            actions: [.notifyPerson, .journalAbandoned(.expired)], end: .withdrawn(.expired)),
        Row(
            name: "cancelled before it was shown (the tab went away)", signs: true, events: [.cancel],
            actions: [.journalAbandoned(.cancelled)], end: .withdrawn(.cancelled)),
        Row(
            name: "decided once: a second decision is refused", signs: true,
            events: [.approve, .reject, .approve],
            actions: [.sign, .refused, .refused], end: .decided(approved: true)),
        Row(
            name: "a withdrawal after the decision changes nothing", signs: true,
            events: [.approve, .expire, .cancel, .signed],
            actions: [.sign, .refused, .refused, .journal(.approved)], end: .signed),
        Row(
            name: "a decision after a withdrawal is refused", signs: true, events: [.expire, .approve, .signed],
            actions: [.journalAbandoned(.expired), .refused, .refused], end: .withdrawn(.expired)),
        Row(
            name: "no signature without approval", signs: true, events: [.shown, .signed, .reject, .signed],
            actions: [.notifyPerson, .refused, .journal(.rejected), .refused], end: .decided(approved: false)),
        Row(
            name: "nothing is delivered before the journal", signs: true,
            events: [.approve, .delivered, .signed, .delivered],
            actions: [.sign, .refused, .journal(.approved), .refused], end: .signed),
        Row(
            name: "shown twice is refused", signs: false, events: [.shown, .shown],
            actions: [.notifyPerson, .refused], end: .shown),
        Row(
            name: "a terminal state never changes", signs: true,
            events: [.reject, .stored, .delivered, .delivered, .approve, .cancel, .stored],
            actions: [.journal(.rejected), .deliver(.rejection), .none, .refused, .refused, .refused, .refused],
            end: .delivered(.rejection)),
    ]

    @Test(arguments: rows)
    func transitions(_ row: Row) {
        var lifecycle = ApprovalLifecycle(signs: row.signs)
        var actions: [ApprovalLifecycle.Action] = []
        for event in row.events { actions.append(event.apply(&lifecycle)) }
        #expect(actions == row.actions)
        #expect(lifecycle.state == row.end)
    }

    /// Every sequence of up to four events keeps the invariants: a signature only after an approval,
    /// a delivery only after the journal, and one decision at most.
    @Test func invariantsHoldForEverySequence() {
        let all: [Event] = [.shown, .approve, .reject, .signed, .signFailed, .stored, .notStored, .delivered, .expire]
        var sequences: [[Event]] = [[]]
        for _ in 0..<4 { sequences = sequences.flatMap { s in all.map { s + [$0] } } }
        for signs in [true, false] {
            for sequence in sequences {
                var lifecycle = ApprovalLifecycle(signs: signs)
                var approved = false
                var journaled = false
                var decisions = 0
                for event in sequence {
                    let action = event.apply(&lifecycle)
                    if case .decided(let yes) = lifecycle.state { approved = yes }
                    switch action {
                    case .sign: #expect(approved && signs, "\(sequence)")
                    case .deliver: #expect(!journaled, "\(sequence)"); journaled = true
                    case .journal: if event == .approve || event == .reject { decisions += 1 }
                    default: break
                    }
                    if action == .sign { decisions += 1 }
                }
                #expect(decisions <= 1, "\(sequence)")
            }
        }
    }
}
