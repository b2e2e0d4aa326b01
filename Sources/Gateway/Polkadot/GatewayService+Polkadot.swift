import Logging
import Primitives
import SignerCore

extension GatewayService {
    /// Looks the message up in the typed registry and dispatches it exhaustively.
    /// - Throws: `GatewayError.unknownMessage` for a name no protocol registered.
    func dispatch(_ request: WireRequest, _ client: ClientIdentity) async throws -> Outcome {
        guard let method = registry.method(named: request.message) else {
            throw GatewayError(.unknownMessage, request.message)
        }
        if method.type.needsConnectedSite {
            // polkadot-js Tabs.ts ensureUrlAuthorized: before the parameters are even read.
            _ = try center.requireEnabled(client.source)
        }
        switch method {
        case .polkadot(let polkadot): return try await dispatch(polkadot, request, client)
        case .icon(let icon): return await dispatchIcon(icon, request, client)
        case .icrc:
            // ICRC methods speak JSON-RPC 2.0 at `POST /v1/icrc` (and the ICRC-29 relay), where
            // `IcrcService` dispatches them; on this transport they are answered as not supported.
            throw GatewayError(.unknownMessage, "ICRC methods are answered at POST /v1/icrc")
        }
    }

    /// The message table of polkadot-js/extension `handlers/Tabs.ts` (docs/reference/polkadot-extension.md §1.3).
    func dispatch(_ method: PolkadotMethod, _ request: WireRequest, _ client: ClientIdentity) async throws -> Outcome {
        let id = request.id
        let source = client.source
        switch method {
        case .phishingRedirectIfDenied:
            // We cannot redirect a tab; the bridge may act on `true`.
            return try reply(Polkadot.PhishingRedirectIfDenied.self, id, isDenied(source))
        case .authorizeTab:
            let params = try Self.params(Polkadot.AuthorizeTab.self, request)
            return try await authorize(request, client, declaredName: params.origin ?? "")
        case .ping:
            return try reply(Polkadot.Ping.self, id, true)
        case .accountsList:
            let params = try Self.params(Polkadot.AccountsList.self, request)
            let allowed = try center.requireEnabled(source)
            return try reply(
                Polkadot.AccountsList.self, id, injectedAccounts(allowed, anyType: params.anyType ?? false))
        case .accountsSubscribe:
            let allowed = try center.requireEnabled(source)
            // The first push goes out before the reply, as in polkadot-js (combineLatest fires at once).
            guard hub.subscribe(client.session, id: id) else { throw SignerError(.invalidInput, "no session") }
            deliver(WireReply(id: id, .subscription(accountList(allowed, anyType: false))), to: client.session)
            return try reply(Polkadot.AccountsSubscribe.self, id, id)
        case .accountsUnsubscribe:
            let params = try Self.params(Polkadot.AccountsUnsubscribe.self, request)
            let removed = hub.unsubscribe(client.session, id: params.id)
            return try reply(Polkadot.AccountsUnsubscribe.self, id, removed)
        case .metadataList:
            let known = await metadata.known().map {
                Polkadot.KnownMetadata(genesisHash: $0.genesisHash, specVersion: $0.specVersion)
            }
            return try reply(Polkadot.MetadataList.self, id, known)
        case .metadataProvide:
            let proposal = try await metadataProposal(try Self.params(Polkadot.MetadataProvide.self, request))
            let approval = try center.requestMetadata(
                source: source, session: client.session, proposal: proposal, now: clock.now)
            return await queued(approval, request, client, account: nil)
        case .bytesSign:
            let params = try Self.params(Polkadot.BytesSign.self, request)
            let account = try account(params.address, allowed: try center.requireEnabled(source))
            let subject = ApprovalSubject.signBytes(
                signer.prepareMessage(data: params.data, address: account.address, account: account))
            let approval = try center.requestSignature(
                source: source, session: client.session, subject: subject, now: clock.now)
            return await queued(approval, request, client, account: account)
        case .extrinsicSign:
            let payload = try Self.params(Polkadot.ExtrinsicSign.self, request)
            guard case .object = payload else { throw SignerError(.invalidInput, "payload is not an object") }
            guard let address = payload["address"]?.stringValue else {
                throw SignerError(.invalidInput, "field address")
            }
            let account = try account(address, allowed: try center.requireEnabled(source))
            let prepared = try signer.prepareExtrinsic(payload: payload, account: account)
            let blindAllowed = prepared.isBlind ? await isBlindSigningAllowed(source) : false
            let subject = ApprovalSubject.signExtrinsic(try prepared.checkedForBlindSigning(allowed: blindAllowed))
            let approval = try center.requestSignature(
                source: source, session: client.session, subject: subject, now: clock.now)
            return await queued(approval, request, client, account: account)
        case .rpcListProviders:
            return try reply(Polkadot.RpcListProviders.self, id, [:])
        }
    }

    /// The typed parameters of `M` from the request (absent or `null` reads as `{}`).
    /// - Throws: `SignerError.invalidInput` naming the field (never its value).
    static func params<M: WireMethod>(_: M.Type, _ request: WireRequest) throws -> M.Params {
        let value: JSONValue = request.request == .null ? [:] : request.request
        do {
            return try JSONValueDecoder().decode(M.Params.self, from: value)
        } catch {
            throw SignerError(.invalidInput, "\(M.name): \(error.reason)")
        }
    }

    /// An immediate `{id, response}` with `M`'s typed result.
    func reply<M: WireMethod>(_: M.Type, _ id: String, _ result: M.Result) throws -> Outcome {
        .reply(WireReply(id: id, .response(try JSONValueEncoder().encode(result))))
    }

    func authorize(_ request: WireRequest, _ client: ClientIdentity, declaredName name: String) async throws
        -> Outcome
    {
        if isDenied(client.source) { throw GatewayError(.notAllowed, "denied host") }
        if storingAuthorizations.contains(client.source) {
            throw SignerError(.authorizationPending, "an authorization is being stored")
        }
        switch try center.requestAuthorization(
            source: client.source, declaredName: name, session: client.session, now: clock.now,
            askAgain: await isConnectedByAnotherProtocolOnly(client.source))
        {
        case .authorized(let keys):
            return .reply(WireReply(id: request.id, .response(authResponse(keys))))
        case .queued(let approval):
            return await queued(approval, request, client, account: nil)
        }
    }

    /// Whether the source is in the grant book with no accounts only because the person granted it
    /// Internet Computer scopes (not because a Polkadot connection was rejected): its `authorize.tab`
    /// is then a connection request put to the person (a "no" keeps what it had).
    func isConnectedByAnotherProtocolOnly(_ source: String) async -> Bool {
        guard let site = center.book.site(source), site.accounts.isEmpty else { return false }
        let scopes = (try? await icrcScopes.load(source))?.scopes ?? [:]
        return scopes.values.contains(.granted)
    }

    /// Registers the waiter (with the sign step of a signing request, built now from exactly what is
    /// shown), then either decides at once (automatic mode) or shows it and tells the client to wait
    /// for the reply on its event stream.
    func queued(
        _ approval: PendingApproval<ApprovalSubject>, _ request: WireRequest, _ client: ClientIdentity,
        account: SignerAccount?, icon: IconReplyShape? = nil
    ) async -> Outcome {
        waiters[approval.id] = ApprovalWaiter(
            delivery: .session(session: client.session, requestID: request.id, icon: icon),
            sign: account.flatMap { signStep(approval, $0) }, scheme: account?.type)
        if options.approvalMode == .automatic {
            if let reply = try? await decide(approval.id, approve: true, accounts: nil, deliverReply: false).reply {
                return .reply(reply)
            }
        }
        show(approval)
        return .pending
    }

    /// The bridge protocols' sign steps (polkadot-js and ICON): what an approved request signs, the
    /// prepared request itself (its `PreparedPayload`, its hash), never rebuilt. nil for a request
    /// that signs nothing.
    func signStep(_ approval: PendingApproval<ApprovalSubject>, _ account: SignerAccount) -> ApprovalWaiter.Sign? {
        let signer = self.signer
        let id = String(approval.id)
        switch approval.subject {
        case .signExtrinsic(let request):
            return {
                let result = try signer.signExtrinsic(request)
                var response: JSONValue = ["id": .string(id), "signature": .string(result.signatureHex)]
                if let tx = result.signedTransaction {
                    response = response.adding("signedTransaction", .string(Hex.encode(tx)))
                }
                return AdapterSigned(value: response, signature: result.signatureBytes)
            }
        case .signBytes(let request):
            return {
                let result = try signer.signMessage(request)
                let response = try JSONValueEncoder().encode(
                    Polkadot.SignerResult(id: id, signature: result.signatureHex, signedTransaction: nil))
                return AdapterSigned(value: response, signature: result.signature)
            }
        case .signIcon(let request):
            return {
                let signature = try signer.signIcon(request)
                return AdapterSigned(value: JSONValue.string(signature.base64), signature: signature.signature)
            }
        case .authorize, .provideMetadata, .adapter:
            return nil
        }
    }

    /// Shows a queued request: the approval page and the terminal listeners.
    func show(_ approval: PendingApproval<ApprovalSubject>) {
        _ = waiters[approval.id]?.lifecycle.shown()
        notifyUI()
        for listener in approvalListeners.values { listener.yield(approval) }
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

    /// Whether the deny list names the source's host (the admission gate's list).
    func isDenied(_ source: String) -> Bool { gate.isDenied(source) }

    /// Resolves an address to an account the source may use.
    func account(_ address: String, allowed: [String]) throws -> SignerAccount {
        guard let key = signer.accountKey(forAddress: address), allowed.contains(key),
            let account = signer.accounts().first(where: { $0.key == key })
        else { throw SignerError(.unknownAccount, "account not available to the source") }
        return account
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
