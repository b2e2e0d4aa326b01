import Primitives
import SignerCore

/// The approval page's view of the gateway (`GET /api/state`): pending requests with everything a
/// person needs to decide, connected sites, accounts, and how to install the bridge.
enum ApprovalState {
    static func json(
        service: GatewayService, directory: any AccountDirectory, endpoints: GatewayEndpoints, bookmarklet: String = ""
    ) async -> JSONValue {
        let accounts = directory.accounts()
        // Rows are capped per request and across the state (SignerCore ApprovalDetails): "N more"
        // and the full text on demand (`GET /api/details?id=`).
        var budget = ApprovalDetails.maxStateCharacters
        let pending = await service.pendingApprovals.map { approval -> JSONValue in
            var item: [String: JSONValue] = [
                "id": .integer(approval.id), "kind": .string(kind(approval.subject)),
                "source": .string(DisplayText.visible(approval.source)),
                "title": .string(DisplayText.clipped(DisplayText.visible(title(approval)), 300)),
            ]
            if case .authorize(let request) = approval.subject {
                item["appName"] = .string(DisplayText.visible(request.appName.text))
                item["suspicious"] = .bool(request.appName.isSuspicious)
            }
            let shown = ApprovalDetails.shown(rows(approval.subject), budget: &budget)
            item["summary"] = .array(shown.json)
            item["moreRows"] = .integer(shown.hiddenRows)
            item["partial"] = .bool(shown.isPartial)
            // The sentence first, the addresses it names, its warnings (SignerCore ApprovalHeadline).
            var headline = ApprovalHeadline(approval.subject, source: approval.source, accounts: accounts)
            headline.warnings = Array(headline.warnings.prefix(ApprovalDetails.maxWarnings))
            for (key, value) in headline.json { item[key] = value }
            return .object(item)
        }
        let sites = await service.sites.map { site -> JSONValue in
            [
                "source": .string(site.source), "appName": .string(DisplayText.visible(site.appName)),
                "accounts": .array(site.accounts.map(JSONValue.string)),
            ]
        }
        let throttled = await service.recentlyThrottled().map { entry -> JSONValue in
            ["owner": .string(entry.owner), "origins": .integer(entry.origins), "refused": .integer(entry.refused)]
        }
        let blind = await service.blindSigningOrigins().map(JSONValue.string)
        return [
            "pending": .array(pending), "sites": .array(sites), "throttled": .array(throttled),
            "blindSigning": .array(blind),
            "accounts": .array(
                accounts.map {
                    [
                        "key": .string($0.key), "address": .string($0.address),
                        "name": $0.name.map(JSONValue.string) ?? .null, "type": .string($0.type),
                        "short": .string(AddressText.short($0.address)), "identicon": identicon($0),
                    ]
                }),
            "bridgeURL": .string(endpoints.bridgeURL), "bookmarklet": .string(bookmarklet),
        ]
    }

    /// The rows of a request (a connection has none).
    static func rows(_ subject: ApprovalSubject) -> [SummaryRow] {
        switch subject {
        case .authorize: []
        case .adapter(let request): request.summary
        }
    }

    /// One pending request's Details in full (`GET /api/details?id=`): `{id, text}`, or nil.
    static func details(service: GatewayService, id: UInt64) async -> JSONValue? {
        guard let approval = await service.pendingApprovals.first(where: { $0.id == id }) else { return nil }
        return ["id": .integer(id), "text": .string(ApprovalDetails.fullText(rows(approval.subject)))]
    }

    /// The Polkadot identicon colours of a 32-byte Substrate account (`null` for ICON, Ethereum, ICP).
    static func identicon(_ account: SignerAccount) -> JSONValue {
        guard !account.address.hasPrefix("hx"), let id = try? Hex.decode(account.key, prefix: .required),
            id.count == 32
        else { return .null }
        return .array(PolkadotIdenticon.colours(accountId: id).map(JSONValue.string))
    }

    static func kind(_ subject: ApprovalSubject) -> String {
        switch subject {
        case .authorize: "authorize"
        case .adapter(let request): request.kind
        }
    }

    static func title(_ approval: PendingApproval<ApprovalSubject>) -> String {
        switch approval.subject {
        case .authorize: "Connect \(approval.source)?"
        case .adapter(let request): request.title
        }
    }
}
