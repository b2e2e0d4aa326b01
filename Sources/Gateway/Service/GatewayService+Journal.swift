import Journal
import Keystore
import Logging
import Primitives
import SignerCore

extension GatewayService {
    /// Records a decision before its reply leaves (docs/journal.md §7); `signature` is what was
    /// signed, if anything. - Returns: whether the entry is stored (or no journal is kept): when it
    /// is not, a signature must be withheld (``ApprovalLifecycle``).
    func journaled(
        _ decision: ApprovalCenter.Decision, verdict: ApprovalLifecycle.Verdict, automatic: Bool,
        signature: [UInt8]?, detail: String
    ) async -> Bool {
        guard let journal else { return true }
        let approval = decision.approval
        let recorded: JournalDecision =
            switch verdict {
            // A failed signature was still approved; its `detail` says why nothing was signed.
            case .approved, .failed: automatic ? .autoApproved : .approved
            case .rejected: .rejected
            }
        let content = JournalRecords.content(
            source: approval.source, appName: center.book.site(approval.source)?.appName ?? "",
            subject: approval.subject, decision: recorded, detail: detail, result: signature ?? [],
            shownLimit: journal.shownLimit, account: knownAddress(approval.subject))
        do {
            try await journal.append(content, fulfilling: JournalExpectation.current)
            notifyUI()  // the History view
            return true
        } catch {
            logger.error(
                "journal entry not stored",
                metadata: ["approval": "\(approval.id)", "origin": "\(approval.source)", "reason": "\(error)"])
            return false
        }
    }

    /// Records a request that went away undecided (expired, revoked, tab closed, client gone), within
    /// the source's journal budget (``JournalBudget``: a stranger's are few and shared by all
    /// strangers; the rest are only logged), so dropping connections cannot grow the journal.
    func journalAbandoned(_ approval: PendingApproval<ApprovalSubject>, _ decision: JournalDecision, _ detail: String)
        async
    {
        guard let journal else { return }
        let connected = center.book.site(approval.source) != nil
        guard gate.mayJournal(source: approval.source, connected: connected, now: clock.now) else {
            logger.debug(
                "journal budget spent; entry not written",
                metadata: ["origin": "\(approval.source)", "decision": "\(decision.rawValue)"])
            return
        }
        let content = JournalRecords.content(
            source: approval.source, appName: center.book.site(approval.source)?.appName ?? "",
            subject: approval.subject, decision: decision, detail: detail, shownLimit: journal.shownLimit,
            account: knownAddress(approval.subject))
        do {
            try await journal.append(content, fulfilling: JournalExpectation.current)
            notifyUI()
        } catch {
            logger.error(
                "journal entry not stored",
                metadata: ["approval": "\(approval.id)", "origin": "\(approval.source)", "reason": "\(error)"])
        }
    }

    /// Records a request a rule refused before anyone saw it: a request that would have gone to a
    /// person, from a connected site or a denied host, within the source's journal budget (so an
    /// unconnected page cannot fill the journal; docs/journal.md §1).
    func journalRefusal(_ request: WireRequest, _ client: ClientIdentity, _ error: any Error) async {
        guard let method = registry.method(named: request.message), method.asksAPerson,
            (error as? GatewayError)?.code != .unknownMessage
        else { return }
        var account = ""
        if let address = request.request["address"]?.stringValue, let key = signer.accountKey(forAddress: address) {
            account = JournalRecords.address(ofKey: key)
        }
        await journalRefusal(method: request.message, client.source, account: account, error)
    }

    /// Records a refusal of `method` (a method that asks a person) for a connected site or a denied
    /// host, within the source's journal budget.
    func journalRefusal(method: String, _ source: String, account: String = "", _ error: any Error) async {
        guard let journal else { return }
        let site = center.book.site(source)
        let denied = (error as? GatewayError)?.code == .notAllowed
        guard site != nil || denied, gate.mayJournal(source: source, connected: site != nil, now: clock.now) else {
            return
        }
        let content = JournalRecords.refused(
            method: method, source: source, appName: site?.appName ?? "", account: account,
            rule: Self.ruleName(error))
        do {
            try await journal.append(content, fulfilling: JournalExpectation.current)
            notifyUI()
        } catch {
            logger.error("journal entry not stored", metadata: ["origin": "\(source)", "reason": "\(error)"])
        }
    }

    /// The address the signer lists for the subject's account (it is the generic SS58 the journal
    /// records, without encoding it again), or nil.
    func knownAddress(_ subject: ApprovalSubject) -> String? {
        let key: String
        switch subject {
        case .signExtrinsic(let request): key = request.accountKey
        case .signBytes(let request): key = request.accountKey
        case .signIcon(let request): key = request.accountKey
        case .authorize, .provideMetadata, .adapter: return ""
        }
        return signer.accounts().first { $0.key == key }?.address
    }

    /// The stable code of a refusal (never its reason text, which may quote input).
    static func ruleName(_ error: any Error) -> String {
        if let error = error as? SignerError { return error.code.description }
        if let error = error as? GatewayError { return error.code.description }
        return "invalidInput"
    }

    /// The account addresses of granted keys, for an authorization's `detail`.
    func grantedDetail(_ keys: [String]) -> String {
        keys.isEmpty ? "no accounts" : "accounts: " + keys.map(JournalRecords.address(ofKey:)).joined(separator: ", ")
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
