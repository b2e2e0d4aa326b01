import Primitives

extension EntryPoint {
    /// `POST /v1/ethereum`: EIP-1193 JSON-RPC.
    package static let ethereum = EntryPoint("POST", "/v1/ethereum")
}

/// `POST /v1/ethereum` (docs/protocol.md §9): one EIP-1193 JSON-RPC 2.0 request per POST, answered
/// with one JSON-RPC 2.0 reply, held until the person decides; the one adapter route
/// (``JSONRPCAdapter``) gives it the gates every adapter passes.
extension EthereumService: JSONRPCAdapter {
    package nonisolated var entryPoint: EntryPoint { .ethereum }
    package nonisolated var defaultSession: String { "ethereum-json-rpc" }
    /// Connecting, signing, sending and adding a chain ask a person (EIP-1102, EIP-191, EIP-712,
    /// transactions, EIP-3085); reads and switching to a known chain do not.
    package nonisolated func asksAPerson(_ method: String) -> Bool {
        [
            "eth_requestAccounts", "wallet_requestPermissions", "personal_sign", "eth_signTypedData_v4", "eth_sign",
            "eth_sendTransaction", "eth_signTransaction", "wallet_addEthereumChain",
        ].contains(method)
    }
    /// A denied host gets 4100 with the request's id (EIP-1193: the site is not authorized).
    package nonisolated func deniedReply(id: JSONValue?) -> JSONValue {
        Self.reply(id: id ?? .null, error: .unauthorized("Unauthorized: the site is on Sigil's deny list."))
    }
}

extension EthereumService {
    /// Tells the site's tabs `accountsChanged []` when the person revokes a site that held Ethereum
    /// accounts (docs/protocol.md §9). Called once, where the service is registered.
    package func watchRevocations() async {
        let grants = self.grants
        await grants.observeRevocations { origin, keys in
            guard keys.contains(where: EthereumService.isOwnKey) else { return }
            await grants.push(origin, event: "ethereum.accountsChanged", payload: [])
        }
    }
}
