import Journal
import Keystore
import Logging
import Primitives
import SignerCore

/// Builds and appends the journal's entries for the approval coordinator (docs/journal.md): a
/// decision (before its reply leaves), a request that went away undecided, a refusal by a rule.
/// Holds no state: what the grant book and the journal budget say is passed in by the caller, so
/// every entry is built from the same facts the decision was taken on. Never records a payload or
/// a reason text that may quote input; an append that fails is logged (origin, approval, the
/// store's reason).
struct JournalRecorder: Sendable {
    /// Where entries go; nil when no journal is kept.
    let journal: (any SigningJournal)?
    /// Resolves account keys and addresses to the address the journal records.
    let signer: any RequestSigner
    /// Tells which wire methods ask a person (only those are journaled as refusals).
    let registry: MethodRegistry
    let logger: Logger

    /// What an append did.
    enum Written: Equatable {
        /// No journal is kept.
        case notKept
        /// The entry is stored.
        case stored
        /// The journal refused it (logged).
        case failed
    }

    /// Records a decision before its reply leaves (docs/journal.md §7); `signature` is what was
    /// signed, if anything. When it is not stored, a signature must be withheld (``ApprovalLifecycle``).
    nonisolated(nonsending) func decided(
        _ decision: ApprovalCenter.Decision, verdict: ApprovalLifecycle.Verdict, automatic: Bool,
        signature: [UInt8]?, detail: String, appName: String
    ) async -> Written {
        guard let journal else { return .notKept }
        let approval = decision.approval
        let recorded: JournalDecision =
            switch verdict {
            // A failed signature was still approved; its `detail` says why nothing was signed.
            case .approved, .failed: automatic ? .autoApproved : .approved
            case .rejected: .rejected
            }
        let content = JournalRecords.content(
            source: approval.source, appName: appName, subject: approval.subject, decision: recorded,
            detail: detail, result: signature ?? [], shownLimit: journal.shownLimit)
        return await append(content, metadata: ["approval": "\(approval.id)", "origin": "\(approval.source)"])
    }

    /// Records a request that went away undecided (expired, revoked, tab closed, client gone), when
    /// `budget` grants a place (``JournalBudget``: a stranger's are few and shared by all strangers;
    /// the rest are only logged), so dropping connections cannot grow the journal. `budget` is
    /// asked only when a journal is kept.
    nonisolated(nonsending) func abandoned(
        _ approval: PendingApproval<ApprovalSubject>, _ decision: JournalDecision, _ detail: String,
        appName: String, budget: () -> Bool
    ) async -> Written {
        guard let journal else { return .notKept }
        guard budget() else {
            logger.debug(
                "journal budget spent; entry not written",
                metadata: ["origin": "\(approval.source)", "decision": "\(decision.rawValue)"])
            return .notKept
        }
        let content = JournalRecords.content(
            source: approval.source, appName: appName, subject: approval.subject, decision: decision,
            detail: detail, shownLimit: journal.shownLimit)
        return await append(content, metadata: ["approval": "\(approval.id)", "origin": "\(approval.source)"])
    }

    /// The wire method and account a refused bridge request is journaled under, or nil when it is
    /// not journaled (a method that asks no person, or a name no protocol registered).
    func refusalSubject(_ request: WireRequest, _ error: any Error) -> (method: String, account: String)? {
        guard let method = registry.method(named: request.message), method.asksAPerson,
            (error as? GatewayError)?.code != .unknownMessage
        else { return nil }
        var account = ""
        if let address = request.request["address"]?.stringValue, let key = signer.accountKey(forAddress: address) {
            account = JournalRecords.address(ofKey: key)
        }
        return (request.message, account)
    }

    /// Records a refusal of `method` (a method that asks a person) for a connected site (`site`) or
    /// a denied host, when `budget` grants a place (asked only then).
    nonisolated(nonsending) func refused(
        method: String, _ source: String, site: AuthorizedSite?, account: String = "", _ error: any Error,
        budget: (_ connected: Bool) -> Bool
    ) async -> Written {
        guard journal != nil else { return .notKept }
        let denied = (error as? GatewayError)?.code == .notAllowed
        guard site != nil || denied, budget(site != nil) else { return .notKept }
        let content = JournalRecords.refused(
            method: method, source: source, appName: site?.appName ?? "", account: account,
            rule: Self.ruleName(error))
        return await append(content, metadata: ["origin": "\(source)"])
    }

    /// The stable code of a refusal (never its reason text, which may quote input).
    static func ruleName(_ error: any Error) -> String {
        if let error = error as? SignerError { return error.code.description }
        if let error = error as? GatewayError { return error.code.description }
        return "invalidInput"
    }

    /// The account addresses of granted keys, for an authorization's `detail`.
    static func grantedDetail(_ keys: [String]) -> String {
        keys.isEmpty ? "no accounts" : "accounts: " + keys.map(JournalRecords.address(ofKey:)).joined(separator: ", ")
    }

    private nonisolated(nonsending) func append(_ content: JournalEntry.Content, metadata: Logger.Metadata) async
        -> Written
    {
        guard let journal else { return .notKept }
        do {
            try await journal.append(content, fulfilling: JournalExpectation.current)
            return .stored
        } catch {
            var metadata = metadata
            metadata["reason"] = "\(error)"
            logger.error("journal entry not stored", metadata: metadata)
            return .failed
        }
    }
}

extension MethodRegistry.Method {
    /// Whether requests of this method are put to a person (and so journaled).
    var asksAPerson: Bool {
        switch self {
        case .polkadot(let method):
            switch method {
            case .authorizeTab, .extrinsicSign, .bytesSign, .metadataProvide: true
            case .phishingRedirectIfDenied, .ping, .accountsList, .accountsSubscribe, .accountsUnsubscribe,
                .metadataList, .rpcListProviders:
                false
            }
        case .icon(let method):
            switch method {
            case .address, .jsonRpc, .signing, .connect: true
            case .hasAccount, .hasAddress: false
            }
        case .icrc(let method):
            // Journaled by the ICP approval path (`adapterDecision`), not as bridge refusals.
            switch method {
            case .requestPermissions, .accounts, .callCanister, .signEnvelopes: true
            case .permissions, .supportedStandards, .status: false
            }
        }
    }
}
