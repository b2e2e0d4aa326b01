import Primitives

/// `POST /v1/ethereum` (docs/protocol.md §9): one EIP-1193 JSON-RPC 2.0 request per POST, answered
/// with one JSON-RPC 2.0 reply, held until the person decides; the one adapter route
/// (``JSONRPCAdapter``) gives it the gates every adapter passes.
extension EthereumService: JSONRPCAdapter {
    package nonisolated var entryPoint: EntryPoint { .ethereum }
    package nonisolated var defaultSession: String { "ethereum-json-rpc" }
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
