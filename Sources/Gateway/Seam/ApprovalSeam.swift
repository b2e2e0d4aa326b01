import Primitives
import SignerCore

/// The seam every protocol adapter stands on (docs/architecture.md, "The seam"). An adapter turns
/// its wire requests into ``AdapterApproval``s and asks here; everything cross-cutting is below this
/// line and written once: the approval queue (the strangers' pool for a site not yet connected, the
/// per-source bounds, expiry), the approval page and the terminal, the automatic mode, the journal
/// (every decision and every signature recorded before a reply leaves), and delivery to the waiting
/// client (a client that went away withdraws its prompt). Identity, the deny list and the request
/// rate are the HTTP route's ``GatewayService/admit(_:at:)``, before the adapter sees the body.
///
/// `sign` runs once, only after the person approved, on exactly what was shown (the adapter built it
/// before asking: nothing is rebuilt after approval); its signature bytes are journaled before the
/// value is returned.
package protocol ApprovalSeam: Sendable {
    /// Queues `request` for `origin` and waits: `true` approved, `false` rejected, nil when nobody
    /// decided (expired, the client went away, the site was revoked, no place in the queue): nothing
    /// may be recorded then.
    func decide(origin: String, _ request: AdapterApproval) async -> Bool?

    /// `decide`, unless `origin` already has a request of the same protocol and method waiting: then
    /// nothing is queued and the answer is `.alreadyWaiting` (EIP-1193 wallets answer a second
    /// connection request with -32002 while the first waits). The check and the queueing are one step.
    func decideIfNoneWaiting(origin: String, _ request: AdapterApproval) async -> WaitingAnswer

    /// Withdraws every request of `origin` and protocol `wallet` still waiting for the person (they
    /// end as nobody decided: journaled `cancelled`, the adapter gets nil). An EIP-1193 chain switch
    /// must not leave prompts made for the old chain approvable (EIP-3326).
    func withdrawWaiting(origin: String, wallet: String, reason: String) async

    /// Queues `request`, and only once approved runs `sign` (its result and the signature bytes to
    /// journal). - Returns: nil when rejected or nobody decided.
    /// - Throws: `GatewayError.signingFailed` (nothing was signed), `.notJournaled` (signed, but the
    ///   entry could not be stored: the signature is withheld).
    func decideAndSign<T: Sendable>(
        origin: String, _ request: AdapterApproval, sign: @escaping @Sendable () throws -> (T, [UInt8])
    ) async throws(GatewayError) -> T?
}

extension ApprovalSeam {
    /// Without a queue (a test double): nothing waits.
    package func withdrawWaiting(origin: String, wallet: String, reason: String) async {}

    /// Without a queue to look into (a test double): `decide`.
    package func decideIfNoneWaiting(origin: String, _ request: AdapterApproval) async -> WaitingAnswer {
        .answered(await decide(origin: origin, request))
    }
}

/// The answer of ``ApprovalSeam/decideIfNoneWaiting(origin:_:)``.
package enum WaitingAnswer: Sendable, Equatable {
    /// `decide`'s answer: approved, rejected, or nil when nobody decided.
    case answered(Bool?)
    /// The origin already has the same request waiting; nothing was queued.
    case alreadyWaiting
}

/// The one grant book as an adapter sees it: a site is connected once, for every protocol, shown on
/// the approval page and in `sigil origins list`, and revoking it there ends every protocol's grant.
/// Account keys of every protocol live in the same record (`AuthorizedSite.accounts`); an adapter
/// reads and writes only the keys of its own kind (`ownKey`).
package protocol GrantBook: Sendable {
    /// The account keys granted to `origin`, or nil when it is not connected.
    func grantedAccounts(_ origin: String) async -> [String]?
    /// Connects `origin` if needed and replaces the keys for which `ownKey` is true with `accounts`
    /// (other protocols' keys are kept). Stored first; memory follows once stored.
    /// - Throws: `GatewayError.notSaved` when the store refused (nothing changed).
    func setGrantedAccounts(
        _ origin: String, appName: String, accounts: [String], ownKey: @Sendable (String) -> Bool
    ) async throws
    /// Whether the person allowed this site blind signing (the one switch every protocol reads).
    func isBlindSigningAllowed(_ origin: String) async -> Bool
    /// Delivers `payload` to every open tab of `origin` as a subscription event with id `event`
    /// (the bridge's event stream; `ethereum.accountsChanged`, …).
    func push(_ origin: String, event: String, payload: JSONValue) async
    /// Calls `observer` with the origin and the account keys it held whenever a site is revoked
    /// (approval page, `sigil origins revoke`, another process), after its waiting requests were
    /// cancelled: an adapter tells its tabs (EIP-1193 `accountsChanged []`) without the core
    /// knowing the protocol.
    func observeRevocations(_ observer: @escaping @Sendable (_ origin: String, _ keys: [String]) async -> Void) async
}
