import Logging
import Primitives
import SignerCore

/// The polkadot-js extension protocol (docs/protocol.md; polkadot-js/extension `handlers/Tabs.ts`):
/// the bridge's `pub(…)` messages, dispatched exhaustively over ``PolkadotMethod``, turned into
/// approvals of the one ``ApprovalCoordinator`` (a connection, a metadata update, a signature) or
/// answered at once. It owns the protocol's shapes: typed parameters and results, the account list
/// a site sees, a connection's answer, the sign step of an approved request. Failures are thrown
/// and mapped to polkadot-js's error strings by the service (the registry's error mapper).
///
/// A value with no state of its own. What it needs from the core is ``BridgeQueue`` (the grant book's
/// answers, the queue, the waiter) and, for account subscriptions, the ``SessionHub``; its async
/// methods run on the service's actor with them (`nonisolated(nonsending)`), so a request takes no
/// extra hop.
struct PolkadotAdapter: Sendable {
    let signer: any RequestSigner
    let metadata: any MetadataRegistry

    /// The message table of polkadot-js/extension `handlers/Tabs.ts` (docs/reference/polkadot-extension.md §1.3).
    nonisolated(nonsending) func dispatch(
        _ method: PolkadotMethod, _ request: WireRequest, _ client: ClientIdentity, core: some BridgeQueue,
        sessions: SessionHub
    ) async throws -> GatewayService.Outcome {
        let id = request.id
        let source = client.source
        switch method {
        case .phishingRedirectIfDenied:
            // We cannot redirect a tab; the bridge may act on `true`.
            return try Self.reply(Polkadot.PhishingRedirectIfDenied.self, id, core.isDenied(source))
        case .authorizeTab:
            let params = try request.params(Polkadot.AuthorizeTab.self)
            return try await authorize(request, client, declaredName: params.origin ?? "", core: core)
        case .ping:
            return try Self.reply(Polkadot.Ping.self, id, true)
        case .accountsList:
            let params = try request.params(Polkadot.AccountsList.self)
            let allowed = try core.requireEnabled(source)
            return try Self.reply(
                Polkadot.AccountsList.self, id, injectedAccounts(allowed, anyType: params.anyType ?? false))
        case .accountsSubscribe:
            let allowed = try core.requireEnabled(source)
            // The first push goes out before the reply, as in polkadot-js (combineLatest fires at once).
            guard sessions.subscribe(client.session, id: id) else { throw SignerError(.invalidInput, "no session") }
            sessions.deliver(WireReply(id: id, .subscription(accountList(allowed, anyType: false))), to: client.session)
            return try Self.reply(Polkadot.AccountsSubscribe.self, id, id)
        case .accountsUnsubscribe:
            let params = try request.params(Polkadot.AccountsUnsubscribe.self)
            let removed = sessions.unsubscribe(client.session, id: params.id)
            return try Self.reply(Polkadot.AccountsUnsubscribe.self, id, removed)
        case .metadataList:
            let known = await metadata.known().map {
                Polkadot.KnownMetadata(genesisHash: $0.genesisHash, specVersion: $0.specVersion)
            }
            return try Self.reply(Polkadot.MetadataList.self, id, known)
        case .metadataProvide:
            let proposal = try await metadataProposal(try request.params(Polkadot.MetadataProvide.self))
            let approval = try core.requestUpdate(PolkadotApproval.of(proposal, source: source), from: client)
            return await core.queued(
                approval, request, client, sign: nil, scheme: nil, store: storeStep(proposal), replies: self)
        case .bytesSign:
            let params = try request.params(Polkadot.BytesSign.self)
            let account = try core.account(params.address, allowed: try core.requireEnabled(source))
            let message = signer.prepareMessage(data: params.data, address: account.address, account: account)
            let approval = try core.requestSignature(
                PolkadotApproval.of(message, account: account, source: source), from: client)
            return await core.queued(
                approval, request, client, sign: signStep(message, id: approval.id), scheme: account.type,
                replies: self)
        case .extrinsicSign:
            let payload = try request.params(Polkadot.ExtrinsicSign.self)
            guard case .object = payload else { throw SignerError(.invalidInput, "payload is not an object") }
            guard let address = payload["address"]?.stringValue else {
                throw SignerError(.invalidInput, "field address")
            }
            let account = try core.account(address, allowed: try core.requireEnabled(source))
            let prepared = try signer.prepareExtrinsic(payload: payload, account: account)
            let blindAllowed = prepared.isBlind ? await core.isBlindSigningAllowed(source) : false
            let checked = try prepared.checkedForBlindSigning(allowed: blindAllowed)
            let approval = try core.requestSignature(
                PolkadotApproval.of(checked, account: account, source: source), from: client)
            return await core.queued(
                approval, request, client, sign: signStep(checked, id: approval.id), scheme: account.type,
                replies: self)
        case .rpcListProviders:
            return try Self.reply(Polkadot.RpcListProviders.self, id, [:])
        }
    }

    /// An immediate `{id, response}` with `M`'s typed result.
    static func reply<M: WireMethod>(_: M.Type, _ id: String, _ result: M.Result) throws -> GatewayService.Outcome {
        .reply(WireReply(id: id, .response(try JSONValueEncoder().encode(result))))
    }

    /// `pub(authorize.tab)`: the granted accounts at once for a connected site, else a connection
    /// request put to the person.
    nonisolated(nonsending) func authorize(
        _ request: WireRequest, _ client: ClientIdentity, declaredName name: String, core: some BridgeQueue
    ) async throws -> GatewayService.Outcome {
        if core.isDenied(client.source) { throw GatewayError(.notAllowed, "denied host") }
        try core.requireNoAuthorizationStoring(client.source)
        let askAgain = await core.isConnectedByAnotherProtocolOnly(client.source)
        switch try core.requestAuthorization(client, declaredName: name, askAgain: askAgain, fromLink: false) {
        case .authorized(let keys):
            return .reply(WireReply(id: request.id, .response(authResponse(keys))))
        case .queued(let approval):
            return await core.queued(approval, request, client, replies: self)
        }
    }

    /// The sign step of an approved transaction: what it signs is the prepared request the person
    /// was shown (its `PreparedPayload`, its hash: ``PolkadotApproval`` built the approval from the
    /// same value), never rebuilt. `id` is the approval's, which polkadot-js's result carries.
    func signStep(_ request: ExtrinsicSigningRequest, id: UInt64) -> ApprovalWaiter.Sign {
        let signer = self.signer
        return {
            let result = try signer.signExtrinsic(request)
            var response: JSONValue = ["id": .string(String(id)), "signature": .string(result.signatureHex)]
            if let tx = result.signedTransaction {
                response = response.adding("signedTransaction", .string(Hex.encode(tx)))
            }
            return AdapterSigned(value: response, signature: result.signatureBytes)
        }
    }

    /// The sign step of an approved message: exactly the wrapped bytes shown.
    func signStep(_ request: BytesSigningRequest, id: UInt64) -> ApprovalWaiter.Sign {
        let signer = self.signer
        return {
            let result = try signer.signMessage(request)
            let response = try JSONValueEncoder().encode(
                Polkadot.SignerResult(id: String(id), signature: result.signatureHex, signedTransaction: nil))
            return AdapterSigned(value: response, signature: result.signature)
        }
    }

    /// The store step of an approved metadata update: the definition the person was shown the
    /// summary of, stored under its genesis hash and spec version.
    func storeStep(_ proposal: MetadataProposal) -> ApprovalWaiter.Store {
        let metadata = self.metadata
        return {
            try await metadata.store(
                genesisHash: proposal.genesisHash, specVersion: proposal.specVersion,
                definition: (try? JSONValue.parse(proposal.definitionJSON)) ?? .null)
        }
    }

    /// The accounts `keys` a site may see, as polkadot-js `InjectedAccount`s, in the directory's
    /// order. Only polkadot-js accounts (``SignerAccount/isPolkadotAccount``: sr25519, ed25519,
    /// ecdsa): ICON and Ethereum accounts are their own protocols' (a site granted Ethereum accounts
    /// by the Ethereum adapter never sees them here). `anyType` changes nothing: Sigil has no other
    /// polkadot-js key types.
    func injectedAccounts(_ keys: [String], anyType: Bool) -> [Polkadot.InjectedAccount] {
        signer.accounts().filter { keys.contains($0.key) && $0.isPolkadotAccount }.map(Polkadot.InjectedAccount.init)
    }

    /// The same list as JSON (subscription pushes).
    func accountList(_ keys: [String], anyType: Bool) -> JSONValue {
        (try? JSONValueEncoder().encode(injectedAccounts(keys, anyType: anyType))) ?? .array([])
    }

    /// `authorize.tab`'s result for the granted account keys.
    func authResponse(_ keys: [String]) -> JSONValue {
        let addresses = signer.accounts().filter { keys.contains($0.key) && $0.isPolkadotAccount }.map(\.address)
        let result = Polkadot.AuthorizeResult(result: true, authorizedAccounts: addresses)
        return (try? JSONValueEncoder().encode(result)) ?? ["result": true, "authorizedAccounts": []]
    }

    /// The approval subject of `pub(metadata.provide)`: the definition checked and summarised for
    /// the person (chain, genesis, the upgrade and whether it is newer than what is stored).
    nonisolated(nonsending) func metadataProposal(_ def: JSONValue) async throws -> MetadataProposal {
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
