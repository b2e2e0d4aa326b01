import EthereumCodec
import Primitives
import SignerCore

/// The EIP-1193 provider's wallet side (docs/protocol.md "Ethereum"): one JSON-RPC 2.0 request in,
/// one JSON-RPC 2.0 reply out, with EIP-1193/EIP-1474 error codes. The origin is the transport's
/// word (HTTP `Origin`, a token's identity), never a field of the request.
///
/// - Connection (EIP-1102, EIP-2255): asked through the ``ApprovalSeam`` and kept in the one
///   ``GrantBook`` as the `0x` + 40 hex keys of the site's record; like MetaMask's default choice,
///   one account is granted: the first Ethereum account (the "selected" one).
/// - Chains: each site has a current chain (memory only; the first configured endpoint's chain, else
///   1); only chains of a configured endpoint (`--eth-rpc`) are usable.
/// - Signing: every hash is computed from what the person is shown before asking (the
///   ``AdapterApproval/requestId``) and `sign` signs exactly it; nothing is rebuilt after approval.
///   Numbers are integers (`UInt256`, `UInt64`) throughout; never floating point.
/// - Read-only methods in ``forwarded`` go to the endpoint of the site's chain; everything else
///   unknown is 4200.
package actor EthereumService {
    let signer: any RequestSigner
    let grants: any GrantBook
    let approver: any ApprovalSeam
    let endpoints: [any EthereumRPC]
    /// Wall clock in seconds since 1970 (SIWE expiry checks).
    let now: @Sendable () -> UInt64
    /// The chain id each endpoint answered (index into `endpoints`), learned at first use.
    var learned: [Int: UInt64] = [:]
    /// Each site's current chain (memory only).
    var siteChains: [String: UInt64] = [:]

    /// The read-only methods forwarded to the site's chain endpoint without a prompt.
    package static let forwarded: Set<String> = [
        "eth_call", "eth_getBalance", "eth_blockNumber", "eth_estimateGas", "eth_getTransactionReceipt",
        "eth_getTransactionByHash", "eth_getTransactionCount", "eth_gasPrice", "eth_maxPriorityFeePerGas",
        "eth_feeHistory", "eth_getCode", "eth_getLogs", "eth_getBlockByNumber", "eth_getBlockByHash",
        "eth_getStorageAt",
    ]

    package init(
        signer: any RequestSigner, grants: any GrantBook, approver: any ApprovalSeam, endpoints: [any EthereumRPC],
        now: @escaping @Sendable () -> UInt64 = { IcrcService.wallClock() / 1_000_000_000 }
    ) {
        self.signer = signer
        self.grants = grants
        self.approver = approver
        self.endpoints = endpoints
        self.now = now
    }

    /// Whether a grant-book key is an Ethereum account key (`0x` + 40 hex digits).
    package static let isOwnKey: @Sendable (String) -> Bool = { key in
        key.utf8.count == 42 && key.hasPrefix("0x")
            && key.utf8.dropFirst(2).allSatisfy { c in
                (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66)
            }
    }

    // MARK: Requests

    /// Handles a request body (the bytes of one JSON-RPC 2.0 object).
    package func handle(body: [UInt8], origin: String) async -> JSONValue {
        guard let json = try? JSONValue.parse(body, limits: JSONLimits(maxDepth: 64, maxBytes: 1 << 20)) else {
            return Self.reply(id: .null, error: .parse)
        }
        guard case .object = json, json["jsonrpc"]?.stringValue == "2.0" else {
            return Self.reply(id: json["id"] ?? .null, error: .invalidRequest("Invalid request: not JSON-RPC 2.0."))
        }
        let id = json["id"] ?? .null
        guard id.stringValue != nil || id.integer(as: Int64.self) != nil else {
            return Self.reply(id: .null, error: .invalidRequest("Invalid request: id must be a string or an integer."))
        }
        guard let method = json["method"]?.stringValue else {
            return Self.reply(id: id, error: .invalidRequest("Invalid request: method must be a string."))
        }
        let params = json["params"] ?? .array([])
        guard params.arrayValue != nil || params.objectValue != nil else {
            return Self.reply(id: id, error: .invalidParams("Invalid params: params must be an array or an object."))
        }
        do {
            return ["jsonrpc": "2.0", "id": id, "result": try await dispatch(method, params, origin: origin)]
        } catch {
            return Self.reply(id: id, error: error)
        }
    }

    static func reply(id: JSONValue, error: EthereumRPCError) -> JSONValue {
        ["jsonrpc": "2.0", "id": id, "error": error.json]
    }

    func dispatch(_ method: String, _ params: JSONValue, origin: String) async throws(EthereumRPCError) -> JSONValue {
        switch method {
        case "eth_chainId": return .string(EthereumText.chainHex(await chain(of: origin)))
        case "net_version": return .string(String(await chain(of: origin)))
        case "eth_accounts": return .array(await grantedAccounts(origin).map { .string($0.key.lowercased()) })
        case "eth_requestAccounts":
            return .array(try await connect(origin).map { .string($0.key.lowercased()) })
        case "wallet_requestPermissions":
            try Self.requirePermissionRequest(params)
            _ = try await connect(origin)
            return .array(await permissions(origin))
        case "wallet_getPermissions": return .array(await permissions(origin))
        case "wallet_revokePermissions":
            try Self.requirePermissionRequest(params)
            try await revoke(origin)
            return .null
        case "wallet_switchEthereumChain": return try await switchChain(params, origin: origin)
        case "wallet_addEthereumChain": return try await addChain(params, origin: origin)
        case "personal_sign": return try await personalSign(params, origin: origin)
        case "eth_signTypedData_v4": return try await signTypedData(params, origin: origin)
        case "eth_sign": return try await ethSign(params, origin: origin)
        case "eth_sendTransaction": return try await transaction(params, origin: origin, send: true)
        case "eth_signTransaction": return try await transaction(params, origin: origin, send: false)
        default:
            guard Self.forwarded.contains(method) else { throw .unsupported(method) }
            let chain = await chain(of: origin)
            let rpc = try await endpoint(for: chain)
            return try await rpc.request(method, params.arrayValue != nil ? params : .array([params]))
        }
    }

    // MARK: Typed params

    /// Positional param `index` decoded as `T` with the project's decoder (integers exact).
    static func param<T: Decodable>(_ params: JSONValue, _ index: Int, _ type: T.Type, _ shape: String)
        throws(EthereumRPCError) -> T
    {
        guard let list = params.arrayValue, index < list.count else {
            throw .invalidParams("Invalid params: \(shape).")
        }
        do {
            return try JSONValueDecoder().decode(T.self, from: list[index])
        } catch {
            throw .invalidParams("Invalid params: \(shape).")
        }
    }

    static func requirePermissionRequest(_ params: JSONValue) throws(EthereumRPCError) {
        let request = try param(params, 0, [String: JSONValue].self, "expected [{\"eth_accounts\": {}}]")
        guard request.keys.contains("eth_accounts") else {
            throw .invalidParams("Invalid params: only the eth_accounts permission exists.")
        }
    }

    // MARK: Accounts and permissions

    /// The Ethereum accounts Sigil has, in display order.
    func ethereumAccounts() -> [SignerAccount] { signer.accounts().filter { $0.type == "ethereum" } }

    /// The site's granted Ethereum accounts that still exist (empty when not connected).
    func grantedAccounts(_ origin: String) async -> [SignerAccount] {
        let keys = (await grants.grantedAccounts(origin) ?? []).filter(Self.isOwnKey).map { $0.lowercased() }
        let accounts = ethereumAccounts()
        return keys.compactMap { key in accounts.first { $0.key.lowercased() == key } }
    }

    /// The granted account for `address` (compared case-insensitively). - Throws: 4100.
    func authorizedAccount(_ address: String, origin: String) async throws(EthereumRPCError) -> SignerAccount {
        let granted = await grantedAccounts(origin)
        guard !granted.isEmpty else {
            throw .unauthorized("Unauthorized: \(origin) is not connected; ask with eth_requestAccounts first.")
        }
        guard let account = granted.first(where: { $0.key.lowercased() == address.lowercased() }) else {
            throw .unauthorized("Unauthorized: the account is not one this site was granted.")
        }
        return account
    }

    /// EIP-1102: the granted accounts, asking the person first when there are none.
    func connect(_ origin: String) async throws(EthereumRPCError) -> [SignerAccount] {
        let granted = await grantedAccounts(origin)
        if !granted.isEmpty { return granted }
        guard let account = ethereumAccounts().first else {
            throw .unauthorized("Unauthorized: Sigil has no Ethereum account to connect.")
        }
        let chain = await chain(of: origin)
        let question = "Connect \(origin) to your Ethereum account \(account.address)?"
        let approval = AdapterApproval(
            method: "eth_requestAccounts", title: question,
            summary: [
                SummaryRow("site", origin), SummaryRow("account", account.address),
                SummaryRow("chain", "\(chain) (\(EthereumText.chainHex(chain)))"),
                SummaryRow(
                    "permission",
                    "see this account's address and ask you to approve signatures and transactions; each is shown to you"
                ),
            ], wallet: "ethereum", sentence: question, account: account.address)
        // One connection request per site at a time, as MetaMask: a second one while the first
        // waits is -32002 and queues nothing.
        switch await approver.decideIfNoneWaiting(origin: origin, approval) {
        case .alreadyWaiting:
            throw .resourceUnavailable(
                "Request of type 'wallet_requestPermissions' already pending for origin \(origin). Please wait.")
        case .answered(let approved):
            guard approved == true else { throw .rejected("User rejected the request.") }
        }
        do {
            try await grants.setGrantedAccounts(
                origin, appName: origin, accounts: [account.key], ownKey: Self.isOwnKey)
        } catch {
            throw .internalError("The connection could not be stored.")
        }
        await grants.push(origin, event: "ethereum.accountsChanged", payload: [.string(account.key.lowercased())])
        return [account]
    }

    /// EIP-2255 permission objects (MetaMask's shape).
    func permissions(_ origin: String) async -> [JSONValue] {
        let granted = await grantedAccounts(origin)
        guard !granted.isEmpty else { return [] }
        return [
            [
                "id": "sigil-eth_accounts", "parentCapability": "eth_accounts", "invoker": .string(origin),
                "caveats": [
                    ["type": "restrictReturnedAccounts", "value": .array(granted.map { .string($0.key.lowercased()) })]
                ],
            ]
        ]
    }

    /// `wallet_revokePermissions`: removes the site's Ethereum keys (other protocols' are kept).
    func revoke(_ origin: String) async throws(EthereumRPCError) {
        guard let keys = await grants.grantedAccounts(origin), keys.contains(where: Self.isOwnKey) else { return }
        do {
            try await grants.setGrantedAccounts(origin, appName: origin, accounts: [], ownKey: Self.isOwnKey)
        } catch {
            throw .internalError("The revocation could not be stored.")
        }
        await grants.push(origin, event: "ethereum.accountsChanged", payload: [])
    }

    // MARK: Chains

    /// The chain ids of the configured endpoints (each learned with its own `eth_chainId` at first use).
    func configuredChains() async -> [UInt64] {
        for index in endpoints.indices where learned[index] == nil {
            if let answer = try? await endpoints[index].request("eth_chainId", []), let text = answer.stringValue,
                let chain = try? EthereumQuantity.parse64(text)
            {
                learned[index] = chain
            }
        }
        return endpoints.indices.compactMap { learned[$0] }
    }

    /// The site's current chain: chosen by it, else the first configured endpoint's, else 1.
    func chain(of origin: String) async -> UInt64 {
        if let chain = siteChains[origin] { return chain }
        return await configuredChains().first ?? 1
    }

    /// The site's chain for something to be signed. Without any endpoint that is the site's chain
    /// (1 unless switched: signing that needs no chain still works); with endpoints configured it
    /// must be one a reachable endpoint serves — never chain 1 by default because every endpoint
    /// is down (a site set up for a test network would sign for mainnet).
    /// - Throws: 4901 when no reachable endpoint serves it.
    func signingChain(of origin: String) async throws(EthereumRPCError) -> UInt64 {
        let chain = await chain(of: origin)
        guard !endpoints.isEmpty else { return chain }
        guard await configuredChains().contains(chain) else {
            throw .chainDisconnected(
                "Chain disconnected: no reachable --eth-rpc endpoint serves chain \(chain) (\(EthereumText.chainHex(chain)))."
            )
        }
        return chain
    }

    /// The endpoint serving `chain`. - Throws: 4900 without any endpoint, 4901 without one for `chain`.
    func endpoint(for chain: UInt64) async throws(EthereumRPCError) -> any EthereumRPC {
        guard !endpoints.isEmpty else {
            throw .disconnected("Disconnected: no Ethereum endpoint is configured (sigil serve --eth-rpc URL).")
        }
        let chains = await configuredChains()
        for index in endpoints.indices where learned[index] == chain { return endpoints[index] }
        _ = chains
        throw .chainDisconnected(
            "Chain disconnected: no reachable --eth-rpc endpoint serves chain \(chain) (\(EthereumText.chainHex(chain)))."
        )
    }

    struct ChainParam: Decodable {
        let chainId: String
    }

    struct AddChainParam: Decodable {
        let chainId: String
        let chainName: String?
        let rpcUrls: [String]?
    }

    static func chainId(_ text: String) throws(EthereumRPCError) -> UInt64 {
        guard let chain = try? EthereumQuantity.parse64(text), chain > 0 else {
            throw .invalidParams("Invalid params: chainId must be a 0x hex string without leading zeros.")
        }
        return chain
    }

    /// EIP-3326: switches the site's chain to one a configured endpoint serves (4902 otherwise).
    func switchChain(_ params: JSONValue, origin: String) async throws(EthereumRPCError) -> JSONValue {
        let p = try Self.param(params, 0, ChainParam.self, "expected [{\"chainId\": \"0x…\"}]")
        let chain = try Self.chainId(p.chainId)
        let usable = endpoints.isEmpty ? [1] : await configuredChains()
        guard usable.contains(chain) else {
            throw .unrecognizedChain(
                "Unrecognized chain ID \(EthereumText.chainHex(chain)). Sigil uses only the chains of its --eth-rpc endpoints."
            )
        }
        if await self.chain(of: origin) != chain {
            siteChains[origin] = chain
            // What waits was made for the old chain: it must not stay approvable (EIP-3326).
            await approver.withdrawWaiting(origin: origin, wallet: "ethereum", reason: "the site switched chains")
            await grants.push(origin, event: "ethereum.chainChanged", payload: .string(EthereumText.chainHex(chain)))
        }
        return .null
    }

    /// EIP-3085: Sigil adds no RPC URL a site proposes; a chain is usable only when an `--eth-rpc`
    /// endpoint serves it. Such a chain is confirmed by the person (adding does not switch).
    func addChain(_ params: JSONValue, origin: String) async throws(EthereumRPCError) -> JSONValue {
        let p = try Self.param(params, 0, AddChainParam.self, "expected [{\"chainId\": \"0x…\", …}]")
        let chain = try Self.chainId(p.chainId)
        guard await configuredChains().contains(chain) else {
            throw .invalidParams(
                "Invalid params: Sigil adds no RPC URL from a site; chain \(EthereumText.chainHex(chain)) can be used "
                    + "only when the person starts Sigil with an --eth-rpc endpoint serving it.")
        }
        let name = EthereumText.excerpt(p.chainName ?? "", 60)
        let question = "Let \(origin) use chain \(chain)\(name.isEmpty ? "" : " (\(name))")?"
        let approval = AdapterApproval(
            method: "wallet_addEthereumChain", title: question,
            summary: [
                SummaryRow("site", origin), SummaryRow("chain", "\(chain) (\(EthereumText.chainHex(chain)))"),
                SummaryRow("endpoint", "your own --eth-rpc endpoint (the site's RPC URLs are not used)"),
            ], wallet: "ethereum", sentence: question)
        guard let approved = await approver.decide(origin: origin, approval), approved else {
            throw .rejected("User rejected the request.")
        }
        return .null
    }

    // MARK: Signing through the seam

    /// Asks the person with `approval` (its `requestId` is the hash) and, once approved, signs
    /// exactly that hash with `account`. - Returns: `r ‖ s ‖ yParity`.
    func signApproved(_ approval: AdapterApproval, account: SignerAccount, origin: String)
        async throws(EthereumRPCError) -> [UInt8]
    {
        let (signer, hash) = (self.signer, approval.requestId)
        let signature: [UInt8]?
        do {
            signature = try await approver.decideAndSign(
                origin: origin, approval,
                sign: {
                    let signature = try signer.signEthereumHash(hash, account: account)
                    return (signature, signature)
                })
        } catch {
            throw .internalError("Internal error: \(EthereumText.excerpt(error.reason, 160))")
        }
        guard let signature else { throw .rejected("User rejected the request.") }
        return signature
    }
}
