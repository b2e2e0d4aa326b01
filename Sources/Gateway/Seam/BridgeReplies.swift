import Primitives
import SignerCore

/// How a bridge protocol (polkadot-js, ICON: answered on a tab's event log) words its answers to a
/// decided request: its envelope and its error mapping, and the last step after the journal. The
/// coordinator decides, signs, journals and delivers what these return, and knows no protocol's
/// shapes; each bridge adapter passes its own with the request it queues
/// (``BridgeQueue/queued(_:_:_:sign:scheme:replies:)``). The JSON-RPC adapters need none: they
/// await their answer (``ApprovalSeam``) and shape it themselves.
protocol BridgeReplies: Sendable {
    /// A decided connection request: `granted` the account keys the person ticked (empty when
    /// rejected), `failure` set when the grant could not be stored (nothing changed).
    func connection(approved: Bool, granted: [String], failure: GatewayError?) -> WireReply.Body

    /// A decided request that stores what it carries (polkadot-js's metadata update): `stored` nil
    /// when the person said no, false when the store refused.
    func stored(_ stored: Bool?) -> WireReply.Body

    /// A decided signing request, before the journal's say: `value` is the sign step's answer
    /// (`.result`), `error` why signing failed (`.failure`).
    func signature(_ delivery: ApprovalLifecycle.Delivery, value: (any Sendable)?, error: (any Error)?, source: String)
        -> WireReply.Body

    /// The protocol's last step once the entry is durable and just before `body` leaves (ICON sends
    /// an approved transaction to its node here). `signature` is what was signed and journaled.
    func afterJournal(
        _ subject: ApprovalSubject, _ delivery: ApprovalLifecycle.Delivery, body: WireReply.Body, signature: [UInt8]?
    ) async -> WireReply.Body

    /// A request that ended with no decision (expired, the client went away, the site was revoked).
    func cancelled(_ subject: ApprovalSubject) -> WireReply.Body
}

extension BridgeReplies {
    /// Nothing after the journal: the answer leaves as it is.
    func afterJournal(
        _ subject: ApprovalSubject, _ delivery: ApprovalLifecycle.Delivery, body: WireReply.Body, signature: [UInt8]?
    ) async -> WireReply.Body {
        body
    }
}
