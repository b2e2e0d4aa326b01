import Foundation
import IconCodec
import Logging
import Primitives
import SignerCore

/// How an ICON reply is shaped (every one carries a Connect v1 `code`, 1 = success).
enum IconReplyShape: Sendable, Equatable {
    /// Relay events: `{code, result}`.
    case plain
    /// ICONex Connect v1: `{id, code, result}` with the request's `id`.
    case connect(JSONValue)
    /// Relay `REQUEST_JSON-RPC`: `{code, result}` where `result` is the JSON-RPC 2.0 response
    /// (`{jsonrpc, id, result}` or `{jsonrpc, id, error: {code, message}}`).
    case jsonRPC(JSONValue)
}

/// ICON reply bodies and titles (docs/protocol.md "ICON").
enum IconGateway {
    static func title(_ request: IconSigningRequest, source: String) -> String {
        switch request.action {
        case .signOnly: "Sign an ICON transaction for \(source)? (the site sends it)"
        case .send: "Sign and send an ICON transaction for \(source)?"
        case .blindHash: "BLIND-sign a hash for \(source)?"
        }
    }

    static func success(_ shape: IconReplyShape, _ result: JSONValue) -> WireReply.Body {
        switch shape {
        case .plain: .response(["code": 1, "result": result])
        case .connect(let id): .response(["id": id, "code": 1, "result": result])
        case .jsonRPC(let id): .response(["code": 1, "result": ["jsonrpc": "2.0", "id": id, "result": result]])
        }
    }

    static func failure(_ shape: IconReplyShape, _ error: IconConnectError) -> WireReply.Body {
        switch shape {
        case .plain: .response(["code": .integer(error.code), "result": .string(error.message)])
        case .connect(let id): .response(["id": id, "code": .integer(error.code), "result": .string(error.message)])
        case .jsonRPC(let id):
            .response([
                "code": .integer(error.code),
                "result": [
                    "jsonrpc": "2.0", "id": id,
                    "error": ["code": .integer(error.code), "message": .string(error.message)],
                ],
            ])
        }
    }

    /// The fields of the v3 transaction (everything else is refused by IconCodec).
    static let defaultStepLimitTransfer = "0x186a0"  // 100,000
    static let defaultStepLimitCall = "0x1e8480"  // 2,000,000

    static func hex(_ value: some BinaryInteger) -> String { "0x" + String(value, radix: 16) }
}

extension GatewayService {
    /// ICON messages: every failure becomes an ICON-shaped reply here (Connect codes), never a
    /// polkadot-js error string.
    /// ICONex Connect's URL form (`GET /icon/connect`): the Connect request of `client` (identified by
    /// `caller`'s origin), whose answer will be sent to `caller`, which the person is shown.
    package func handleIconConnect(_ request: WireRequest, from client: ClientIdentity, caller: String) async throws
        -> Outcome
    {
        try touchSession(client)
        return await dispatchIcon(.connect, request, client, caller: caller)
    }

    func dispatchIcon(
        _ method: IconMethod, _ request: WireRequest, _ client: ClientIdentity, caller: String? = nil
    ) async -> Outcome {
        var shape = IconReplyShape.plain
        do {
            switch method {
            case .hasAccount:
                let any = signer.accounts().contains { $0.type == "icon" }
                return .reply(WireReply(id: request.id, IconGateway.success(shape, ["hasAccount": .bool(any)])))
            case .hasAddress:
                let params = try Self.params(Icon.HasAddress.self, request)
                let address = params.stringValue ?? params["address"]?.stringValue ?? ""
                let allowed = (try? center.requireEnabled(client.source)) ?? []
                let has =
                    allowed.contains(address) && signer.accounts().contains { $0.key == address && $0.type == "icon" }
                return .reply(WireReply(id: request.id, IconGateway.success(shape, ["hasAddress": .bool(has)])))
            case .address:
                return try await iconBind(request, client, shape: shape)
            case .jsonRpc:
                let payload = try Self.params(Icon.JsonRpc.self, request)
                shape = .jsonRPC(payload["id"] ?? .null)
                guard case .object = payload else { throw IconConnectError.parseError }
                guard payload["method"]?.stringValue == "icx_sendTransaction" else {
                    throw IconConnectError(-32601, "Method not found (only icx_sendTransaction)")
                }
                guard case .object(let tx)? = payload["params"] else {
                    throw IconConnectError.missingParameter("params")
                }
                return try await iconQueue(.object(iconFilled(tx)), action: .send, request, client, shape: shape)
            case .signing:
                let params = try Self.params(Icon.Signing.self, request)
                return try await iconBlindSign(params, request, client, shape: shape)
            case .connect:
                let body = try Self.params(Icon.Connect.self, request)
                guard case .object(let object) = body else { throw IconConnectError.parseError }
                shape = .connect(object["id"] ?? .null)
                return try await iconConnect(object, request, client, shape: shape, caller: caller)
            }
        } catch {
            logger.debug("ICON request refused", metadata: ["message": "\(request.message)", "reason": "\(error)"])
            return .reply(WireReply(id: request.id, IconGateway.failure(shape, IconConnectError.from(error))))
        }
    }

    /// ICONex Connect v1 (docs/protocol.md "ICON"): `bind`, `sign`, `sendICX`, `sendToken`.
    func iconConnect(
        _ object: JSONObject, _ request: WireRequest, _ client: ClientIdentity, shape: IconReplyShape,
        caller: String? = nil
    ) async throws -> Outcome {
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
            return try await iconBind(request, client, shape: shape, fromLink: caller != nil)
        case "sign":
            try require(["version", "from", "to", "value", "stepLimit", "timestamp", "nid", "nonce"])
            return try await iconQueue(
                .object(params), action: .signOnly, request, client, shape: shape, caller: caller)
        case "sendICX":
            try require(["from", "to", "value"])
            return try await iconQueue(
                .object(iconFilled(params)), action: .send, request, client, shape: shape, caller: caller)
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
            return try await iconQueue(
                .object(iconFilled(tx)), action: .send, request, client, shape: shape, caller: caller)
        default:
            throw IconConnectError.invalidMethod
        }
    }

    /// The person picks the ICON account for the site (Connect `bind`, relay `REQUEST_ADDRESS`):
    /// a connection request shown again even for a connected site; the answer is the first ICON
    /// account ticked.
    func iconBind(
        _ request: WireRequest, _ client: ClientIdentity, shape: IconReplyShape, fromLink: Bool = false
    ) async throws -> Outcome {
        guard signer.accounts().contains(where: { $0.type == "icon" }) else { throw IconConnectError.noWallet }
        if isDenied(client.source) { throw IconConnectError.cancelled }
        if storingAuthorizations.contains(client.source) {
            throw SignerError(.authorizationPending, "an authorization is being stored")
        }
        switch try center.requestAuthorization(
            source: client.source, declaredName: "", session: client.session, now: clock.now, askAgain: true,
            fromLink: fromLink)
        {
        case .authorized(let keys):
            guard let address = iconAddress(in: keys) else { throw IconConnectError.noWallet }
            return .reply(WireReply(id: request.id, IconGateway.success(shape, .string(address))))
        case .queued(let approval):
            return await queued(approval, request, client, account: nil, icon: shape)
        }
    }

    /// The first ICON account among granted keys, in the directory's order.
    func iconAddress(in keys: [String]) -> String? {
        signer.accounts().first { $0.type == "icon" && keys.contains($0.key) }?.address
    }

    /// Fills what a send request may leave out (docs/protocol.md "ICON"): `version` 0x3, `nid`
    /// (`--icon-nid`), `timestamp` (now, µs), `stepLimit` (100,000 for a transfer, 2,000,000 for
    /// anything with data), `nonce` (random). Present fields are never changed.
    func iconFilled(_ tx: JSONObject) -> JSONObject {
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
    func iconQueue(
        _ tx: JSONValue, action: IconSigningRequest.Action, _ request: WireRequest, _ client: ClientIdentity,
        shape: IconReplyShape, caller: String? = nil
    ) async throws -> Outcome {
        if action == .send, options.iconNode == nil { throw IconConnectError.noNode }
        guard signer.accounts().contains(where: { $0.type == "icon" }) else { throw IconConnectError.noWallet }
        guard let from = tx["from"]?.stringValue else { throw IconConnectError.missingParameter("from") }
        let shownFrom = IconSigningGate.isAddress(from) ? from : ""
        if let to = tx["to"]?.stringValue, to == from { throw IconConnectError.sameAddress }
        let account: SignerAccount
        do {
            account = try self.account(from, allowed: try center.requireEnabled(client.source))
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
        let approval = try center.requestSignature(
            source: client.source, session: client.session, subject: .signIcon(prepared), now: clock.now)
        return await queued(approval, request, client, account: account, icon: shape)
    }

    /// `REQUEST_SIGNING {from, hash}`: refused unless the person allowed blind signing for this
    /// origin (`sigil origins blind-signing`, the approval page, or `--icon-blind-signing`); then
    /// queued with a loud warning.
    func iconBlindSign(
        _ params: JSONValue, _ request: WireRequest, _ client: ClientIdentity, shape: IconReplyShape
    ) async throws -> Outcome {
        guard await isBlindSigningAllowed(client.source) else {
            throw IconConnectError(-1002, "Invalid request. (blind signing is off for this site)")
        }
        guard let from = params["from"]?.stringValue else { throw IconConnectError.missingParameter("from") }
        guard let text = params["hash"]?.stringValue,
            let hash = try? Hex.decode(text, prefix: .optional), hash.count == 32
        else { throw IconConnectError.invalidParameter("hash") }
        let account: SignerAccount
        do {
            account = try self.account(from, allowed: try center.requireEnabled(client.source))
        } catch {
            throw IconConnectError.noMatchedWallet(IconSigningGate.isAddress(from) ? from : "")
        }
        let prepared = try signer.prepareIconHash(hash: hash, account: account)
        let approval = try center.requestSignature(
            source: client.source, session: client.session, subject: .signIcon(prepared), now: clock.now)
        return await queued(approval, request, client, account: account, icon: shape)
    }

    /// After the journal: a refused journal entry withholds the signature (-4001); a send goes to
    /// the node now, and the answer is the transaction hash only when the node accepted exactly the
    /// transaction that was signed.
    func iconAfterJournal(
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

    /// The answer to a decided ICON bind (a connection request asked by an ICON message).
    func iconBindDecided(_ decision: ApprovalCenter.Decision, failure: GatewayError?, shape: IconReplyShape)
        -> WireReply.Body
    {
        guard decision.approved, failure == nil else { return IconGateway.failure(shape, .cancelled) }
        guard let address = iconAddress(in: decision.grantedAccounts) else {
            return IconGateway.failure(shape, .cancelled)
        }
        return IconGateway.success(shape, .string(address))
    }
}

/// Small checks shared by the ICON paths.
enum IconSigningGate {
    /// `hx` + 40 lower-case hex digits (safe to echo in a Connect message).
    static func isAddress(_ s: String) -> Bool {
        let u = Array(s.utf8)
        return u.count == 42 && u[0] == UInt8(ascii: "h") && u[1] == UInt8(ascii: "x")
            && u[2...].allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x61 && $0 <= 0x66) }
    }
}
