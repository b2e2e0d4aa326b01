import EthereumCodec
import Primitives
import SignerCore

/// `eth_sendTransaction` and `eth_signTransaction` (docs/reference/ethereum.md §8.3): the request
/// is checked, nonce, gas and fees are filled from the site's chain endpoint BEFORE the person sees
/// anything, the rows show exactly the final transaction, and its signing hash (computed before
/// asking) is the approval's `requestId` and what is signed. Sending returns the hash only after the
/// endpoint accepted exactly that signed transaction.
extension EthereumService {
    func transaction(_ params: JSONValue, origin: String, send: Bool) async throws(EthereumRPCError) -> JSONValue {
        let method = send ? "eth_sendTransaction" : "eth_signTransaction"
        guard let list = params.arrayValue, let first = list.first else {
            throw .invalidParams("Invalid params: expected [transaction].")
        }
        var request: EthereumTransactionRequest
        do {
            request = try EthereumTransactionRequest(json: first)
        } catch {
            throw .params(error, "the transaction")
        }
        let account = try await authorizedAccount(request.from.checksummed, origin: origin)
        let chain = try await signingChain(of: origin)
        if let asked = request.chainId, asked != chain {
            throw .invalidParams("Invalid params: the transaction names chain \(asked); the site's chain is \(chain).")
        }
        // Without an endpoint nothing can be sent (or filled): said before anyone is asked.
        let rpc: (any EthereumRPC)?
        let complete =
            request.nonce != nil && request.gas != nil
            && (request.type == .dynamicFee
                ? request.maxFeePerGas != nil && request.maxPriorityFeePerGas != nil : request.gasPrice != nil)
        if send || !complete {
            rpc = try await endpoint(for: chain)
        } else {
            rpc = try? await endpoint(for: chain)
        }
        if let rpc { try await fill(&request, rpc) }
        let tx: EthereumTransaction
        do {
            tx = try request.transaction(chainId: chain)
        } catch {
            throw .params(error, "the transaction")
        }
        let (sentence, rows) = await describe(tx, from: account, origin: origin, chain: chain, send: send)
        let hash = tx.signingHash
        let approval = AdapterApproval(
            method: method, title: sentence, summary: Self.warningsFirst(rows), requestId: hash, wallet: "ethereum",
            sentence: sentence, account: account.address)
        // Filling waited on the endpoint: the site may have been revoked meanwhile.
        _ = try await authorizedAccount(account.address, origin: origin)
        let signer = self.signer
        let from = request.from
        let signed: SignedEthereumTransaction?
        do {
            signed = try await approver.decideAndSign(
                origin: origin, approval,
                sign: {
                    let signature = try signer.signEthereumHash(hash, account: account)
                    let signed = try tx.signed(signature: signature)
                    guard try signed.recoverSender() == from else {
                        throw EthereumRPCError.internalError("the signature does not recover to the sender")
                    }
                    return (signed, signature)
                })
        } catch {
            throw .internalError("Internal error: \(EthereumText.excerpt(error.reason, 160))")
        }
        guard let signed else { throw .rejected("User rejected the request.") }
        let raw = EthereumText.hex(signed.raw)
        guard send, let rpc else { return .string(raw) }
        let expected = EthereumText.hex(signed.hash)
        let answer = try await rpc.request("eth_sendRawTransaction", [.string(raw)])
        guard let returned = answer.stringValue, returned.lowercased() == expected else {
            throw .internalError(
                "Internal error: the endpoint answered a transaction hash other than the one Sigil signed (\(expected))."
            )
        }
        return .string(expected)
    }

    /// Fills nonce (`pending` count), gas (`eth_estimateGas`) and fees (EIP-1559 from the latest
    /// block's base fee and `eth_maxPriorityFeePerGas`; `eth_gasPrice` for legacy and type 1, and
    /// when the chain has no base fee and the site named no type).
    func fill(_ request: inout EthereumTransactionRequest, _ rpc: any EthereumRPC) async throws(EthereumRPCError) {
        let from = JSONValue.string(request.from.lowercased)
        if request.nonce == nil {
            request.nonce = try Self.quantity64(
                await rpc.request("eth_getTransactionCount", [from, "pending"]), "eth_getTransactionCount")
        }
        if request.gas == nil {
            var call: [String: JSONValue] = ["from": from]
            if let to = request.to { call["to"] = .string(to.lowercased) }
            if let value = request.value { call["value"] = .string(value.quantity) }
            if let data = request.data, !data.isEmpty { call["data"] = .string(EthereumText.hex(data)) }
            request.gas = try Self.quantity64(
                await rpc.request("eth_estimateGas", [.object(call)]), "eth_estimateGas")
        }
        switch request.type {
        case .legacy, .accessList:
            if request.gasPrice == nil {
                request.gasPrice = try Self.quantity(await rpc.request("eth_gasPrice", []), "eth_gasPrice")
            }
        case .dynamicFee:
            guard request.maxFeePerGas == nil || request.maxPriorityFeePerGas == nil else { return }
            let block = try await rpc.request("eth_getBlockByNumber", ["latest", false])
            guard let baseText = block["baseFeePerGas"]?.stringValue,
                let baseFee = try? EthereumQuantity.parse(baseText)
            else {
                // No base fee: a pre-London chain; only a request that named no type or fee becomes legacy.
                guard request.maxFeePerGas == nil, request.maxPriorityFeePerGas == nil else {
                    throw .invalidParams("Invalid params: the chain has no base fee; EIP-1559 fees cannot be used.")
                }
                request.type = .legacy
                request.gasPrice = try Self.quantity(await rpc.request("eth_gasPrice", []), "eth_gasPrice")
                return
            }
            let tip: UInt256
            if let given = request.maxPriorityFeePerGas {
                tip = given
            } else {
                let suggested = try await Self.suggestedTip(rpc)
                tip = request.maxFeePerGas.map { min($0, suggested) } ?? suggested
            }
            if request.maxFeePerGas == nil {
                guard let doubled = baseFee.multipliedReportingOverflow(by: 2), let cap = doubled.adding(tip) else {
                    throw .internalError("Internal error: the endpoint's base fee is out of range.")
                }
                request.maxFeePerGas = cap
            }
            request.maxPriorityFeePerGas = tip
        }
    }

    /// `eth_maxPriorityFeePerGas`, else the median (50th percentile) reward of the last 5 blocks'
    /// `eth_feeHistory` (the largest of them, so a quiet block does not undercut the tip).
    static func suggestedTip(_ rpc: any EthereumRPC) async throws(EthereumRPCError) -> UInt256 {
        if let answer = try? await rpc.request("eth_maxPriorityFeePerGas", []),
            let tip = try? quantity(answer, "eth_maxPriorityFeePerGas")
        {
            return tip
        }
        let history = try await rpc.request("eth_feeHistory", ["0x5", "latest", [50]])
        let rewards = (history["reward"]?.arrayValue ?? []).prefix(1024).compactMap { block in
            block.arrayValue?.first.flatMap { try? quantity($0, "eth_feeHistory") }
        }
        guard let tip = rewards.max() else {
            throw .internalError("Internal error: the endpoint suggested no priority fee (eth_feeHistory).")
        }
        return tip
    }

    static func quantity(_ value: JSONValue, _ method: String) throws(EthereumRPCError) -> UInt256 {
        guard let text = value.stringValue, let q = try? EthereumQuantity.parse(text) else {
            throw .internalError("Internal error: the endpoint's \(method) answer is not a quantity.")
        }
        return q
    }

    static func quantity64(_ value: JSONValue, _ method: String) throws(EthereumRPCError) -> UInt64 {
        guard let q = try quantity(value, method).uint64 else {
            throw .internalError("Internal error: the endpoint's \(method) answer is out of range.")
        }
        return q
    }

    /// The one sentence and the rows of the final transaction.
    func describe(_ tx: EthereumTransaction, from: SignerAccount, origin: String, chain: UInt64, send: Bool) async
        -> (String, [SummaryRow])
    {
        var rows: [SummaryRow] = [SummaryRow("site", origin), SummaryRow("from", from.address)]
        var sentence: String
        let value = EthereumText.ether(tx.value)
        let fromAddress = try? EthereumAddress(from.key.lowercased())
        if let to = tx.to {
            rows.append(SummaryRow("to", to.checksummed))
            sentence = "Send \(value) to \(to.checksummed)"
            switch (try? Calldata.decode(tx.data)) ?? .unknown(selector: Array(tx.data.prefix(4)), arguments: []) {
            case .empty: break
            case .known(let call):
                let (callSentence, callRows) = await describeCall(call, contract: to, chain: chain, value: tx.value)
                sentence = callSentence
                rows += callRows
            case .unknown:
                let decodes = (try? Calldata.decode(tx.data)) != nil
                rows.append(
                    SummaryRow(
                        "warning",
                        decodes
                            ? "Sigil cannot decode this contract call; only its selector and bytes are shown."
                            : "The calldata does not decode as the function its selector names; only bytes are shown.",
                        warning: true))
                rows.append(SummaryRow("function selector", EthereumText.hex(Array(tx.data.prefix(4)))))
                rows.append(SummaryRow("data", Self.hexExcerpt(tx.data)))
                sentence =
                    "Call contract \(to.checksummed) (selector \(EthereumText.hex(Array(tx.data.prefix(4)))))"
                    + (tx.value.isZero ? "" : " sending \(value)")
            }
        } else {
            let created = fromAddress.map { EthereumAddress.contractAddress(sender: $0, nonce: tx.nonce).checksummed }
            sentence = "Deploy a new contract (\(tx.data.count) bytes of code)" + (created.map { " at \($0)" } ?? "")
            rows.append(SummaryRow("to", "(none: contract creation)"))
            if let created { rows.append(SummaryRow("new contract", created)) }
            rows.append(SummaryRow("code", Self.hexExcerpt(tx.data)))
        }
        rows.append(SummaryRow("value", value))
        rows.append(SummaryRow("chain", "\(chain) (\(EthereumText.chainHex(chain)))"))
        rows.append(SummaryRow("nonce", String(tx.nonce)))
        rows.append(SummaryRow("gas limit", String(tx.gas)))
        let perGas: UInt256
        switch tx.type {
        case .legacy, .accessList:
            rows.append(SummaryRow("type", tx.type == .legacy ? "0 (legacy, EIP-155)" : "1 (EIP-2930)"))
            rows.append(SummaryRow("gas price", EthereumText.gwei(tx.gasPrice)))
            perGas = tx.gasPrice
        case .dynamicFee:
            rows.append(SummaryRow("type", "2 (EIP-1559)"))
            rows.append(SummaryRow("max fee per gas", EthereumText.gwei(tx.maxFeePerGas)))
            rows.append(SummaryRow("max priority fee per gas", EthereumText.gwei(tx.maxPriorityFeePerGas)))
            perGas = tx.maxFeePerGas
        }
        if let maxFee = perGas.multipliedReportingOverflow(by: tx.gas) {
            rows.append(SummaryRow("max network fee", EthereumText.ether(maxFee)))
            if let total = maxFee.adding(tx.value) { rows.append(SummaryRow("max total", EthereumText.ether(total))) }
        }
        if !tx.accessList.isEmpty { rows.append(SummaryRow("access list", "\(tx.accessList.count) address(es)")) }
        rows.append(SummaryRow("hash signed", EthereumText.hex(tx.signingHash)))
        if !send {
            rows.append(
                SummaryRow(
                    "warning",
                    "The site receives the signed transaction and may send it at any time (it uses nonce \(tx.nonce)).",
                    warning: true))
        }
        let verb = send ? "" : " (sign only; the site sends it)"
        return ("\(sentence) on chain \(chain)\(verb)?", rows)
    }

    /// A known call in words (ERC-20 with the token's symbol and decimals, ERC-721/1155 transfers,
    /// operator approvals with a warning).
    func describeCall(_ call: Calldata.Call, contract: EthereumAddress, chain: UInt64, value: UInt256) async
        -> (String, [SummaryRow])
    {
        var rows: [SummaryRow] = [SummaryRow("function", call.signature)]
        func arg(_ name: String) -> Calldata.Value? { call.arguments.first { $0.name == name }?.value }
        func address(_ name: String) -> String {
            if case .address(let a)? = arg(name) { return a.checksummed }
            return "?"
        }
        func uint(_ name: String) -> UInt256 {
            if case .uint(let n)? = arg(name) { return n }
            return .zero
        }
        let ethSuffix = value.isZero ? "" : " and send \(EthereumText.ether(value))"
        switch call.signature {
        case "transfer(address,uint256)":
            let info = await tokenInfo(contract, chain: chain)
            rows += [
                SummaryRow("token", info.name(contract)), SummaryRow("recipient", address("to")),
                SummaryRow("amount", info.amount(uint("amount"))),
            ]
            if info.decimals == nil {
                rows.append(
                    SummaryRow(
                        "warning", "The token's decimals are unknown; the amount is in base units.", warning: true))
            }
            return (
                "Send \(info.amount(uint("amount"))) of \(info.name(contract)) to \(address("to"))\(ethSuffix)", rows
            )
        case "approve(address,uint256)":
            let info = await tokenInfo(contract, chain: chain)
            let amount = uint("amount")
            let unlimited = amount == .max
            let words = unlimited ? "an UNLIMITED amount" : info.amount(amount)
            rows += [
                SummaryRow("token", info.name(contract)), SummaryRow("spender", address("spender")),
                SummaryRow("amount", unlimited ? "unlimited" : info.amount(amount)),
            ]
            rows.append(
                SummaryRow(
                    "warning", "\(address("spender")) may spend \(words) of your \(info.name(contract)) at any time.",
                    warning: true))
            return ("Allow \(address("spender")) to spend \(words) of \(info.name(contract))\(ethSuffix)", rows)
        case "transferFrom(address,address,uint256)":
            let info = await tokenInfo(contract, chain: chain)
            if info.decimals != nil {
                let amount = info.amount(uint("amountOrTokenId"))
                rows += [
                    SummaryRow("token", info.name(contract)), SummaryRow("from", address("from")),
                    SummaryRow("recipient", address("to")), SummaryRow("amount", amount),
                ]
                return (
                    "Move \(amount) of \(info.name(contract)) from \(address("from")) to \(address("to"))\(ethSuffix)",
                    rows
                )
            }
            let id = uint("amountOrTokenId")
            rows += [
                SummaryRow("collection", contract.checksummed), SummaryRow("token id", id.description),
                SummaryRow("from", address("from")), SummaryRow("recipient", address("to")),
            ]
            return (
                "Transfer token #\(id) of \(contract.checksummed) from \(address("from")) to \(address("to"))\(ethSuffix)",
                rows
            )
        case "safeTransferFrom(address,address,uint256)", "safeTransferFrom(address,address,uint256,bytes)":
            let id = uint("tokenId")
            rows += [
                SummaryRow("collection", contract.checksummed), SummaryRow("token id", id.description),
                SummaryRow("from", address("from")), SummaryRow("recipient", address("to")),
            ]
            return ("Transfer NFT #\(id) of \(contract.checksummed) to \(address("to"))\(ethSuffix)", rows)
        case "safeTransferFrom(address,address,uint256,uint256,bytes)":
            let id = uint("id")
            let amount = uint("amount")
            rows += [
                SummaryRow("collection", contract.checksummed), SummaryRow("token id", id.description),
                SummaryRow("amount", amount.description), SummaryRow("from", address("from")),
                SummaryRow("recipient", address("to")),
            ]
            return (
                "Transfer \(amount) of token #\(id) (ERC-1155) of \(contract.checksummed) to \(address("to"))\(ethSuffix)",
                rows
            )
        case "safeBatchTransferFrom(address,address,uint256[],uint256[],bytes)":
            var ids: [UInt256] = []
            var amounts: [UInt256] = []
            if case .uintArray(let i)? = arg("ids") { ids = i }
            if case .uintArray(let a)? = arg("amounts") { amounts = a }
            rows += [
                SummaryRow("collection", contract.checksummed), SummaryRow("from", address("from")),
                SummaryRow("recipient", address("to")),
            ]
            for (i, id) in ids.prefix(50).enumerated() {
                rows.append(SummaryRow("token #\(id)", i < amounts.count ? amounts[i].description : "?"))
            }
            if ids.count > 50 {
                rows.append(SummaryRow("warning", "\(ids.count - 50) more tokens are not listed.", warning: true))
            }
            return (
                "Transfer \(ids.count) kinds of token (ERC-1155) of \(contract.checksummed) to \(address("to"))\(ethSuffix)",
                rows
            )
        case "setApprovalForAll(address,bool)":
            var approved = false
            if case .bool(let b)? = arg("approved") { approved = b }
            rows += [
                SummaryRow("collection", contract.checksummed), SummaryRow("operator", address("operator")),
                SummaryRow("approved", approved ? "yes" : "no (revoke)"),
            ]
            guard approved else {
                return (
                    "Revoke \(address("operator"))'s access to all your tokens of \(contract.checksummed)\(ethSuffix)",
                    rows
                )
            }
            rows.append(
                SummaryRow(
                    "warning",
                    "\(address("operator")) may move ALL your tokens of collection \(contract.checksummed), now and later.",
                    warning: true))
            return (
                "Give \(address("operator")) control of ALL your tokens of \(contract.checksummed)\(ethSuffix)", rows
            )
        default:
            rows.append(SummaryRow("warning", "A call Sigil knows only by its name: \(call.signature).", warning: true))
            return ("Call \(call.name) on \(contract.checksummed)\(ethSuffix)", rows)
        }
    }
}
