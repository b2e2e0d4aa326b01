import Logging
import Primitives
import SignerCore

extension GatewayService {
    /// The message table of polkadot-js/extension `handlers/Tabs.ts` (docs/reference/polkadot-extension.md §1.3).
    func dispatch(_ request: WireRequest, _ client: ClientIdentity) async throws -> Outcome {
        let id = request.id
        let source = client.source
        switch request.message {
        case "pub(phishing.redirectIfDenied)":
            // Needs no authorization. We cannot redirect a tab; the bridge may act on `true`.
            return .reply(WireReply(id: id, .response(.bool(isDenied(source)))))
        case "pub(authorize.tab)":
            return try await authorize(request, client)
        default:
            break
        }
        // Every other message needs a connected source (Tabs.ts ensureUrlAuthorized).
        let allowed = try center.requireEnabled(source)
        switch request.message {
        case "pub(ping)":
            return .reply(WireReply(id: id, .response(true)))
        case "pub(accounts.list)":
            let anyType = request.request["anyType"]?.boolValue ?? false
            return .reply(WireReply(id: id, .response(await accountList(allowed, anyType: anyType))))
        case "pub(accounts.subscribe)":
            // The first push goes out before the reply, as in polkadot-js (combineLatest fires at once).
            guard var state = sessions[client.session] else { throw SignerError(.invalidInput, "no session") }
            state.subscriptions.insert(id)
            sessions[client.session] = state
            deliver(WireReply(id: id, .subscription(await accountList(allowed, anyType: false))), to: client.session)
            return .reply(WireReply(id: id, .response(.string(id))))
        case "pub(accounts.unsubscribe)":
            guard let subscription = request.request["id"]?.stringValue else {
                throw SignerError(.invalidInput, "field id")
            }
            let removed = sessions[client.session]?.subscriptions.remove(subscription) != nil
            return .reply(WireReply(id: id, .response(.bool(removed))))
        case "pub(metadata.list)":
            let known = await metadata.known().map { item -> JSONValue in
                ["genesisHash": .string(item.genesisHash), "specVersion": .integer(item.specVersion)]
            }
            return .reply(WireReply(id: id, .response(.array(known))))
        case "pub(metadata.provide)":
            let proposal = try await metadataProposal(request.request)
            let approval = try center.requestMetadata(
                source: source, session: client.session, proposal: proposal, now: clock.now)
            return await queued(approval, request, client, account: nil)
        case "pub(bytes.sign)":
            let (account, subject) = try await bytesRequest(request.request, allowed: allowed)
            let approval = try center.requestSignature(
                source: source, session: client.session, subject: subject, now: clock.now)
            return await queued(approval, request, client, account: account)
        case "pub(extrinsic.sign)":
            let (account, subject) = try await extrinsicRequest(request.request, allowed: allowed)
            let approval = try center.requestSignature(
                source: source, session: client.session, subject: subject, now: clock.now)
            return await queued(approval, request, client, account: account)
        case "pub(rpc.listProviders)":
            return .reply(WireReply(id: id, .response(.object([:]))))
        default:
            throw GatewayError(.unknownMessage, request.message)
        }
    }

    func authorize(_ request: WireRequest, _ client: ClientIdentity) async throws -> Outcome {
        if isDenied(client.source) { throw GatewayError(.notAllowed, "denied host") }
        if storingAuthorizations.contains(client.source) {
            throw SignerError(.authorizationPending, "an authorization is being stored")
        }
        let name = request.request["origin"]?.stringValue ?? ""
        switch try center.requestAuthorization(
            source: client.source, declaredName: name, session: client.session, now: clock.now)
        {
        case .authorized(let keys):
            return .reply(WireReply(id: request.id, .response(await authResponse(keys))))
        case .queued(let approval):
            return await queued(approval, request, client, account: nil)
        }
    }

    /// Registers the waiter, then either decides at once (automatic mode) or tells the client to
    /// wait for the reply on its event stream.
    func queued(
        _ approval: PendingApproval<ApprovalSubject>, _ request: WireRequest, _ client: ClientIdentity,
        account: SignerAccount?
    ) async -> Outcome {
        waiters[approval.id] = Waiter(
            session: client.session, requestID: request.id, account: account)
        if options.approvalMode == .automatic {
            if let reply = try? await decide(approval.id, approve: true, accounts: nil, deliverReply: false).reply {
                return .reply(reply)
            }
        }
        notifyUI()
        for listener in approvalListeners.values { listener.yield(approval) }
        return .pending
    }

    func accountList(_ keys: [String], anyType: Bool) async -> JSONValue {
        Self.accountList(signer.accounts(), keys, anyType: anyType)
    }

    /// The accounts of `all` whose keys are in `keys` (only the standard types unless `anyType`).
    static func accountList(_ all: [SignerAccount], _ keys: [String], anyType: Bool) -> JSONValue {
        let standard: Set<String> = ["ed25519", "sr25519", "ecdsa", "ethereum"]
        return .array(all.filter { keys.contains($0.key) && (anyType || standard.contains($0.type)) }.map(\.json))
    }

    func authResponse(_ keys: [String]) async -> JSONValue {
        let all = signer.accounts()
        let addresses = all.filter { keys.contains($0.key) }.map { JSONValue.string($0.address) }
        return ["result": true, "authorizedAccounts": .array(addresses)]
    }

    func isDenied(_ source: String) -> Bool {
        guard !options.deniedHosts.isEmpty, let host = SiteOrigin(source)?.host else { return false }
        var labels = host.split(separator: ".")
        while !labels.isEmpty {
            if options.deniedHosts.contains(labels.joined(separator: ".")) { return true }
            labels.removeFirst()
        }
        return false
    }

    /// Resolves the `address` field to an account the source may use.
    func account(_ request: JSONValue, allowed: [String]) async throws -> SignerAccount {
        guard let address = request["address"]?.stringValue else { throw SignerError(.invalidInput, "field address") }
        guard let key = signer.accountKey(forAddress: address), allowed.contains(key),
            let account = signer.accounts().first(where: { $0.key == key })
        else { throw SignerError(.unknownAccount, "account not available to the source") }
        return account
    }

    func bytesRequest(_ request: JSONValue, allowed: [String]) async throws -> (SignerAccount, ApprovalSubject) {
        let account = try await account(request, allowed: allowed)
        guard let data = request["data"]?.stringValue else { throw SignerError(.invalidInput, "field data") }
        let prepared = signer.prepareMessage(data: data, address: account.address, account: account)
        return (account, .signBytes(prepared))
    }

    func extrinsicRequest(_ request: JSONValue, allowed: [String]) async throws -> (SignerAccount, ApprovalSubject) {
        guard case .object = request else { throw SignerError(.invalidInput, "payload is not an object") }
        let account = try await account(request, allowed: allowed)
        return (account, .signExtrinsic(try signer.prepareExtrinsic(payload: request, account: account)))
    }

    func metadataProposal(_ def: JSONValue) async throws -> MetadataProposal {
        guard case .object = def else { throw SignerError(.invalidInput, "metadata is not an object") }
        guard let genesis = def["genesisHash"]?.stringValue?.lowercased(),
            Hex.isValid(genesis, prefix: .required, byteCount: 32)
        else {
            throw SignerError(.invalidInput, "field genesisHash")
        }
        guard let spec = def["specVersion"]?.integer(as: UInt32.self) else {
            throw SignerError(.invalidInput, "field specVersion")
        }
        let chain = AppName(declared: def["chain"]?.stringValue ?? "").text
        let known = await metadata.known().first { $0.genesisHash == genesis }?.specVersion
        var summary = [
            SummaryRow("chain", chain.isEmpty ? "(unnamed)" : chain),
            SummaryRow("genesis", genesis),
            SummaryRow("upgrade", "spec \(known.map(String.init) ?? "<unknown>") → \(spec) for \(chain)"),
        ]
        if let symbol = def["tokenSymbol"]?.stringValue, let decimals = def["tokenDecimals"]?.integer(as: UInt8.self) {
            summary.append(
                SummaryRow("token", "\(AppName(declared: symbol).text) (\(decimals) decimals)"))
        }
        if let known, known >= spec {
            summary.append(SummaryRow("warning", "this is not newer than the stored metadata", warning: true))
        }
        return MetadataProposal(
            genesisHash: genesis, chain: chain, specVersion: spec, knownSpecVersion: known,
            definitionJSON: def.encoded(), summary: summary)
    }
}
