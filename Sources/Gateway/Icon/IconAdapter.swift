import Foundation
import IconCodec
import Logging
import Primitives
import SignerCore

/// ICON (docs/protocol.md "ICON"): the ICONex/Hana relay events and ICONex Connect v1, dispatched
/// exhaustively over ``IconMethod`` and turned into approvals of the one ``ApprovalCoordinator``
/// (a connection, a transaction, a blind hash). It owns the protocol's shapes (``IconReplyShape``,
/// the Connect codes of ``IconConnectError``), fills what a send may leave out, and after the
/// journal sends an approved transaction to the node (`--icon-node`).
///
/// A value with no state of its own. What it needs from the core is ``BridgeQueue`` (the grant book's
/// answers, the queue, the waiter); its async methods run on the service's actor with it
/// (`nonisolated(nonsending)`), so a request takes no extra hop.
struct IconAdapter: Sendable {
    let signer: any RequestSigner
    let options: GatewayOptions
    let logger: Logger

    /// ICON messages (relay events and ICONex Connect): every failure becomes an ICON-shaped reply
    /// here (Connect codes), never a polkadot-js error string. `caller`: the URL form's answer
    /// address (``GatewayService/handleIconConnect(_:from:caller:)``).
    nonisolated(nonsending) func dispatch(
        _ method: IconMethod, _ request: WireRequest, _ client: ClientIdentity, caller: String? = nil,
        core: some BridgeQueue
    ) async -> GatewayService.Outcome {
        var shape = IconReplyShape.plain
        do {
            switch method {
            case .hasAccount:
                let any = signer.accounts().contains { $0.type == "icon" }
                return .reply(WireReply(id: request.id, IconGateway.success(shape, ["hasAccount": .bool(any)])))
            case .hasAddress:
                let params = try request.params(Icon.HasAddress.self)
                let address = params.stringValue ?? params["address"]?.stringValue ?? ""
                let allowed = (try? core.requireEnabled(client.source)) ?? []
                let has =
                    allowed.contains(address) && signer.accounts().contains { $0.key == address && $0.type == "icon" }
                return .reply(WireReply(id: request.id, IconGateway.success(shape, ["hasAddress": .bool(has)])))
            case .address:
                return try await bind(request, client, shape: shape, core: core)
            case .jsonRpc:
                let payload = try request.params(Icon.JsonRpc.self)
                shape = .jsonRPC(payload["id"] ?? .null)
                guard case .object = payload else { throw IconConnectError.parseError }
                guard payload["method"]?.stringValue == "icx_sendTransaction" else {
                    throw IconConnectError(-32601, "Method not found (only icx_sendTransaction)")
                }
                guard case .object(let tx)? = payload["params"] else {
                    throw IconConnectError.missingParameter("params")
                }
                return try await queue(.object(filled(tx)), action: .send, request, client, shape: shape, core: core)
            case .signing:
                let params = try request.params(Icon.Signing.self)
                return try await blindSign(params, request, client, shape: shape, core: core)
            case .connect:
                let body = try request.params(Icon.Connect.self)
                guard case .object(let object) = body else { throw IconConnectError.parseError }
                shape = .connect(object["id"] ?? .null)
                return try await connect(object, request, client, shape: shape, caller: caller, core: core)
            }
        } catch {
            logger.debug("ICON request refused", metadata: ["message": "\(request.message)", "reason": "\(error)"])
            return .reply(WireReply(id: request.id, IconGateway.failure(shape, IconConnectError.from(error))))
        }
    }

    /// ICONex Connect v1 (docs/protocol.md "ICON"): `bind`, `sign`, `sendICX`, `sendToken`.
    nonisolated(nonsending) func connect(
        _ object: JSONObject, _ request: WireRequest, _ client: ClientIdentity, shape: IconReplyShape,
        caller: String?, core: some BridgeQueue
    ) async throws -> GatewayService.Outcome {
        guard object["id"] != nil, let method = object["method"]?.stringValue else {
            throw IconConnectError.invalidRequest
        }
        guard Set(object.keys).isSubset(of: ["id", "method", "params"]) else { throw IconConnectError.invalidRequest }
        let params: JSONObject
        switch object["params"] {
        case nil, .null?: params = [:]
        case .object(let p)?: params = p
        default: throw IconConnectError.parseError
        }
        func require(_ keys: [String]) throws {
            for key in keys where params[key] == nil { throw IconConnectError.missingParameter(key) }
        }
        switch method {
        case "bind":
            return try await bind(request, client, shape: shape, fromLink: caller != nil, core: core)
        case "sign":
            try require(["version", "from", "to", "value", "stepLimit", "timestamp", "nid", "nonce"])
            return try await queue(
                .object(params), action: .signOnly, request, client, shape: shape, caller: caller, core: core)
        case "sendICX":
            try require(["from", "to", "value"])
            return try await queue(
                .object(filled(params)), action: .send, request, client, shape: shape, caller: caller, core: core)
        case "sendToken":
            try require(["from", "to", "value", "contractAddress"])
            guard Set(params.keys).isSubset(of: ["from", "to", "value", "contractAddress"]) else {
                throw IconConnectError.invalidRequest
            }
            guard let contract = params["contractAddress"]?.stringValue, contract.hasPrefix("cx") else {
                throw IconConnectError.invalidParameter("contractAddress")
            }
            guard let to = params["to"], case .string = to, let value = params["value"], case .string = value else {
                throw IconConnectError.invalidParameter("to")
            }
            // Sending and receiving address are compared as v1 does (the token's receiver).
            if params["from"] == to { throw IconConnectError.sameAddress }
            var tx: JSONObject = [:]
            tx["from"] = params["from"]
            tx["to"] = .string(contract)
            tx["dataType"] = "call"
            tx["data"] = ["method": "transfer", "params": ["_to": to, "_value": value]]
            return try await queue(
                .object(filled(tx)), action: .send, request, client, shape: shape, caller: caller, core: core)
        default:
            throw IconConnectError.invalidMethod
        }
    }

    /// The person picks the ICON account for the site (Connect `bind`, relay `REQUEST_ADDRESS`):
    /// a connection request shown again even for a connected site; the answer is the first ICON
    /// account ticked.
    nonisolated(nonsending) func bind(
        _ request: WireRequest, _ client: ClientIdentity, shape: IconReplyShape, fromLink: Bool = false,
        core: some BridgeQueue
    ) async throws -> GatewayService.Outcome {
        guard signer.accounts().contains(where: { $0.type == "icon" }) else { throw IconConnectError.noWallet }
        if core.isDenied(client.source) { throw IconConnectError.cancelled }
        try core.requireNoAuthorizationStoring(client.source)
        switch try core.requestAuthorization(client, declaredName: "", askAgain: true, fromLink: fromLink) {
        case .authorized(let keys):
            guard let address = address(in: keys) else { throw IconConnectError.noWallet }
            return .reply(WireReply(id: request.id, IconGateway.success(shape, .string(address))))
        case .queued(let approval):
            return await core.queued(approval, request, client, replies: IconReplies(adapter: self, shape: shape))
        }
    }

    /// The first ICON account among granted keys, in the directory's order.
    func address(in keys: [String]) -> String? {
        signer.accounts().first { $0.type == "icon" && keys.contains($0.key) }?.address
    }

    /// Fills what a send request may leave out (docs/protocol.md "ICON"): `version` 0x3, `nid`
    /// (`--icon-nid`), `timestamp` (now, µs), `stepLimit` (100,000 for a transfer, 2,000,000 for
    /// anything with data), `nonce` (random). Present fields are never changed.
    func filled(_ tx: JSONObject) -> JSONObject {
        var tx = tx
        if tx["version"] == nil { tx["version"] = "0x3" }
        if tx["nid"] == nil { tx["nid"] = .string(options.iconNetworkID) }
        if tx["timestamp"] == nil { tx["timestamp"] = .string(IconGateway.hex(options.iconWallClock())) }
        if tx["stepLimit"] == nil {
            tx["stepLimit"] = .string(
                tx["dataType"] == nil ? IconGateway.defaultStepLimitTransfer : IconGateway.defaultStepLimitCall)
        }
        if tx["nonce"] == nil { tx["nonce"] = .string(IconGateway.hex(UInt32.random(in: 1...UInt32.max))) }
        return tx
    }

    /// Validates and queues an ICON transaction for the person (after the checks a dapp is
    /// answered at once for: no node to send to, no wallet, same sender and receiver, an account
    /// the site may not use).
    nonisolated(nonsending) func queue(
        _ tx: JSONValue, action: IconSigningRequest.Action, _ request: WireRequest, _ client: ClientIdentity,
        shape: IconReplyShape, caller: String? = nil, core: some BridgeQueue
    ) async throws -> GatewayService.Outcome {
        if action == .send, options.iconNode == nil { throw IconConnectError.noNode }
        guard signer.accounts().contains(where: { $0.type == "icon" }) else { throw IconConnectError.noWallet }
        guard let from = tx["from"]?.stringValue else { throw IconConnectError.missingParameter("from") }
        let shownFrom = IconSigningGate.isAddress(from) ? from : ""
        if let to = tx["to"]?.stringValue, to == from { throw IconConnectError.sameAddress }
        let account: SignerAccount
        do {
            account = try core.account(from, allowed: try core.requireEnabled(client.source))
        } catch {
            throw IconConnectError.noMatchedWallet(shownFrom)
        }
        var prepared = try signer.prepareIcon(
            transaction: tx, action: action, account: account, now: options.iconWallClock())
        if let caller {
            // The URL form: where the browser will carry the answer (same origin as the site).
            prepared.summary.append(SummaryRow("answer goes to", IconSummary.safe(caller)))
            prepared.fromLink = true
            prepared.summary.append(SummaryRow("came from", IconSummary.linkWarning(client.source), warning: true))
        }
        let approval = try core.requestSignature(
            IconApproval.of(prepared, source: client.source), from: client)
        return await core.queued(
            approval, request, client, sign: signStep(prepared), scheme: account.type,
            replies: IconReplies(adapter: self, shape: shape, signing: prepared))
    }

    /// `REQUEST_SIGNING {from, hash}`: refused unless the person allowed blind signing for this
    /// origin (`sigil origins blind-signing`, the approval page, or `--icon-blind-signing`); then
    /// queued with a loud warning.
    nonisolated(nonsending) func blindSign(
        _ params: JSONValue, _ request: WireRequest, _ client: ClientIdentity, shape: IconReplyShape,
        core: some BridgeQueue
    ) async throws -> GatewayService.Outcome {
        guard await core.isBlindSigningAllowed(client.source) else {
            throw IconConnectError(-1002, "Invalid request. (blind signing is off for this site)")
        }
        guard let from = params["from"]?.stringValue else { throw IconConnectError.missingParameter("from") }
        guard let text = params["hash"]?.stringValue,
            let hash = try? Hex.decode(text, prefix: .optional), hash.count == 32
        else { throw IconConnectError.invalidParameter("hash") }
        let account: SignerAccount
        do {
            account = try core.account(from, allowed: try core.requireEnabled(client.source))
        } catch {
            throw IconConnectError.noMatchedWallet(IconSigningGate.isAddress(from) ? from : "")
        }
        let prepared = try signer.prepareIconHash(hash: hash, account: account)
        let approval = try core.requestSignature(
            IconApproval.of(prepared, source: client.source), from: client)
        return await core.queued(
            approval, request, client, sign: signStep(prepared), scheme: account.type,
            replies: IconReplies(adapter: self, shape: shape, signing: prepared))
    }

    /// After the journal: a refused journal entry withholds the signature (-4001); a send goes to
    /// the node now, and the answer is the transaction hash only when the node accepted exactly the
    /// transaction that was signed.
    nonisolated(nonsending) func afterJournal(
        _ request: IconSigningRequest, body: WireReply.Body, signature: [UInt8]?, shape: IconReplyShape
    ) async -> WireReply.Body {
        guard case .response(let value) = body else { return IconGateway.failure(shape, .signFailed) }
        guard request.action == .send, value["code"]?.integer(as: Int.self) == 1, let signature else { return body }
        do {
            guard let node = options.iconNode else { throw IconConnectError.noNode }
            guard let tx = request.transaction else { throw IconConnectError.signFailed }
            let signed = tx.signed(signatureBase64: Data(signature).base64EncodedString())
            let hash = try await node.sendTransaction(signed)
            guard hash.lowercased() == tx.transactionHash else {
                throw IconConnectError.network("the node answered another transaction hash")
            }
            logger.info("ICON transaction sent", metadata: ["hash": "\(hash)"])
            return IconGateway.success(shape, .string(tx.transactionHash))
        } catch {
            logger.debug("ICON send failed", metadata: ["reason": "\(error)"])
            return IconGateway.failure(shape, IconConnectError.from(error))
        }
    }

    /// The sign step of an approved ICON request: the prepared transaction or hash itself, never
    /// rebuilt; the answer is the base64 signature.
    func signStep(_ request: IconSigningRequest) -> ApprovalWaiter.Sign {
        let signer = self.signer
        return {
            let signature = try signer.signIcon(request)
            return AdapterSigned(value: JSONValue.string(signature.base64), signature: signature.signature)
        }
    }
}
