import Primitives
/// The rules between sources, their authorizations and the approval queue, as one pure state
/// machine (no threads, no I/O; time comes in as `now`). The gateway owns one instance behind an
/// actor, turns wire messages into calls here and answers waiting requests from the returned values.
///
/// Rules (polkadot-js/extension `handlers/Tabs.ts`, `State.ts`; docs/reference/polkadot-extension.md §1.3):
/// - one pending authorization per source (`authorizationPending`);
/// - every message except `authorize.tab` needs a connected source (`notEnabled`);
/// - a signing request names an account the source may use, checked before it is queued
///   (`unknownAccount`);
/// - rejecting an authorization still records the source with no accounts, so it cannot prompt
///   again until the person revokes it (polkadot-js behaviour, against prompt flooding);
/// - a decided authorization does not change the book by itself: the decision carries the record
///   (`Decision.site`), which the caller stores and then applies with `grant(_:)`, so the book
///   never holds what the store refused;
/// - queue bounds and expiry as in ``ApprovalQueue``.
package struct ApprovalCenter: Sendable {
    /// Connected sources.
    package private(set) var book: AuthorizationBook
    /// Requests waiting for a person.
    package private(set) var queue: ApprovalQueue<ApprovalSubject>

    /// The result of asking to connect.
    package enum AuthorizationOutcome: Sendable, Equatable {
        /// Already connected: answer at once with these account keys.
        case authorized([String])
        /// Queued for a person.
        case queued(PendingApproval<ApprovalSubject>)
    }

    /// A decision on a pending approval, for the gateway to answer the waiting request.
    package struct Decision: Sendable, Equatable {
        /// The request that was decided (already removed from the queue).
        package let approval: PendingApproval<ApprovalSubject>
        /// Whether the person approved.
        package let approved: Bool
        /// For an approved authorization: the account keys granted.
        package let grantedAccounts: [String]
        /// For an authorization: the record to store and then `grant(_:)` (the ticked accounts when
        /// approved, none when rejected); nil for other requests.
        package let site: AuthorizedSite?
    }

    /// Creates a center from stored authorizations.
    package init(book: AuthorizationBook = AuthorizationBook(), limits: ApprovalLimits = ApprovalLimits()) {
        self.book = book
        queue = ApprovalQueue(limits: limits)
    }

    /// `pub(authorize.tab)`.
    /// - Throws: `authorizationPending` if one is already waiting; `tooManyPending`.
    package mutating func requestAuthorization(
        source: String, declaredName: String, session: String?, now: Duration, askAgain: Bool = false,
        fromLink: Bool = false
    ) throws -> AuthorizationOutcome {
        // askAgain: an ICON bind, where the person picks the account each time (ICONex behaviour).
        if !askAgain, let site = book.site(source) { return .authorized(site.accounts) }
        let pending = queue.entries.contains {
            if case .authorize = $0.subject { return $0.source == source }
            return false
        }
        if pending { throw SignerError(.authorizationPending, "an authorization request is already waiting") }
        let entry = try queue.enqueue(
            source: source, session: session,
            subject: .authorize(AuthorizationRequest(declaredName: declaredName, fromLink: fromLink)),
            now: now, isConnectionRequest: true)
        return .queued(entry)
    }

    /// The gate of every message other than `authorize.tab`.
    /// - Returns: the account keys the source may use.
    /// - Throws: `notEnabled`.
    package func requireEnabled(_ source: String) throws -> [String] { try book.accounts(for: source) }

    /// Queues a bridge tab's signing request (polkadot-js `extrinsic.sign`/`bytes.sign`, ICON's
    /// signatures) after checking the source is connected and may use the account.
    /// - Throws: `notEnabled`, `invalidInput` (it signs nothing or names no account),
    ///   `unknownAccount`, `tooManyPending`.
    package mutating func requestSignature(
        source: String, session: String?, request: AdapterApproval, now: Duration
    ) throws -> PendingApproval<ApprovalSubject> {
        _ = try book.accounts(for: source)
        guard !request.requestId.isEmpty, !request.accountKey.isEmpty else {
            throw SignerError(.invalidInput, "not a signing request")
        }
        guard book.allows(source, accountKey: request.accountKey) else {
            throw SignerError(.unknownAccount, "account not authorized for the source")
        }
        return try queue.enqueue(source: source, session: session, subject: .adapter(request), now: now)
    }

    /// Queues a request of a connected source that signs nothing and names no account (a
    /// polkadot-js metadata update: approving it stores what it carries).
    /// - Throws: `notEnabled`, `invalidInput` (it signs), `tooManyPending`.
    package mutating func requestUpdate(
        source: String, session: String?, request: AdapterApproval, now: Duration
    ) throws -> PendingApproval<ApprovalSubject> {
        _ = try book.accounts(for: source)
        guard request.requestId.isEmpty else { throw SignerError(.invalidInput, "a signing request") }
        return try queue.enqueue(source: source, session: session, subject: .adapter(request), now: now)
    }

    /// Queues an Internet Computer request (its own permission rules are checked by the ICRC layer).
    /// A source not in the book is a stranger asking to connect: its request takes a place of the
    /// connection requests' pool (bounded in total and per owner), never one of the connected sites'.
    /// - Throws: `tooManyPending`.
    package mutating func requestAdapter(
        source: String, request: AdapterApproval, now: Duration
    ) throws -> PendingApproval<ApprovalSubject> {
        try queue.enqueue(
            source: source, session: nil, subject: .adapter(request), now: now,
            isConnectionRequest: book.site(source) == nil)
    }

    /// Withdraws a waiting request whose client went away (no decision).
    /// - Returns: the request, or nil when it is no longer waiting.
    package mutating func withdraw(id: UInt64) -> PendingApproval<ApprovalSubject>? { try? queue.take(id: id) }

    /// A person approves. For an authorization, `accounts` are the keys they ticked (filtered to
    /// `known`, the accounts that exist; ignored otherwise), and `Decision.site` the record to store
    /// and `grant(_:)`. An authorization (polkadot-js `authorize`, ICON's connection) never grants an
    /// Ethereum account (``SignerAccount/isEthereumKey(_:)``): those are granted by the Ethereum
    /// adapter through the grant book, for Ethereum sites only (README, "Which sites see which accounts").
    /// - Throws: `unknownApproval`.
    package mutating func approve(id: UInt64, accounts: [String] = [], known: [String] = []) throws -> Decision {
        let approval = try queue.take(id: id)
        guard case .authorize(let request) = approval.subject else {
            return Decision(approval: approval, approved: true, grantedAccounts: [], site: nil)
        }
        let granted = Self.granted(accounts, known: known.filter { !SignerAccount.isEthereumKey($0) })
        let site = AuthorizedSite(source: approval.source, appName: request.appName.text, accounts: granted)
        return Decision(approval: approval, approved: true, grantedAccounts: granted, site: site)
    }

    /// A person rejects. For an authorization, `Decision.site` records the source with no accounts.
    /// - Throws: `unknownApproval`.
    package mutating func reject(id: UInt64) throws -> Decision {
        let approval = try queue.take(id: id)
        var site: AuthorizedSite?
        // A connected site asking again (ICON bind) keeps what it had when the person says no.
        if case .authorize(let request) = approval.subject, book.site(approval.source) == nil {
            site = AuthorizedSite(source: approval.source, appName: request.appName.text, accounts: [])
        }
        return Decision(approval: approval, approved: false, grantedAccounts: [], site: site)
    }

    /// The keys of `accounts` that are in `known`, first occurrence only, in the given order.
    package static func granted(_ accounts: [String], known: [String]) -> [String] {
        var granted: [String] = []
        for key in accounts where known.contains(key) && !granted.contains(key) { granted.append(key) }
        return granted
    }

    /// Removes requests past their deadline; the gateway answers them as cancelled.
    package mutating func expire(now: Duration) -> [PendingApproval<ApprovalSubject>] { queue.expire(now: now) }

    /// Removes the requests of a tab that went away.
    package mutating func endSession(_ session: String) -> [PendingApproval<ApprovalSubject>] {
        queue.removeSession(session)
    }

    /// Disconnects a source and drops its waiting requests.
    /// - Returns: whether it was connected, and the requests dropped (to be answered as cancelled).
    package mutating func revoke(_ source: String) -> (wasConnected: Bool, dropped: [PendingApproval<ApprovalSubject>]) {
        let was = book.revoke(source)
        return (was, queue.removeSource(source))
    }

    /// Records a site as connected exactly as given (a decided authorization once stored, or a
    /// change stored by another process).
    package mutating func grant(_ site: AuthorizedSite) { book.grant(site) }

    /// Replaces the account list of a connected source (the person edits it on the approval page).
    /// - Throws: `notEnabled`.
    package mutating func setAccounts(_ source: String, accounts: [String], known: [String]) throws {
        guard var site = book.site(source) else { throw SignerError(.notEnabled, "source not enabled") }
        site.accounts = Self.granted(accounts, known: known)
        book.grant(site)
    }
}
