/// The HTTP-facing settings of the gateway. Built by the CLI from flags; every field has a safe
/// default except the secrets, which `sigil serve` generates at start.
///
/// Security: `approvalToken`, `relayToken` and the keys of `clientTokens` are secrets; they never
/// appear in `description`, logs or errors.
package struct GatewayConfiguration: Sendable {
    /// Host names accepted in the `Host` header besides `127.0.0.1`, `localhost` and `[::1]`
    /// (DNS-rebinding defence, docs/reference/http-server.md §3.1). Lower-case, without port.
    package var extraAllowedHosts: Set<String>
    /// How browsers reach the dapp port (`--public-url`): a remapped port, a proxy, a name. Their
    /// authorities pass the `Host` gate whatever the local port; the first is the printed bridge URL.
    package var publicURLs: [SiteOrigin] = []
    /// How browsers reach the approval port (`--public-ui-url`); the first is the printed approval URL.
    package var publicUIURLs: [SiteOrigin] = []
    /// The approval page's secret (32 random bytes, hex). Needed for every approval endpoint.
    package var approvalToken: String
    /// The userscript's secret: lets it state the site origin of the tab it relays for.
    package var relayToken: String
    /// Bearer tokens of non-browser clients: token → client name (source `client:NAME`).
    package var clientTokens: [String: String]
    /// Largest `POST /v1/request` body: room for `metadata.provide` with the full `rawMetadata` of a
    /// large runtime (about 1.1 MB of hex for Polkadot Asset Hub) with a margin.
    package var maxRequestBodyBytes: Int
    /// Largest body of the other POST endpoints.
    package var maxSmallBodyBytes: Int
    /// How long `GET /v1/poll` holds when there is nothing to send (below common idle timeouts).
    package var pollHold: Duration
    /// The ports serve HTTPS (`--tls-cert`): a `Host` without a port then means 443, not 80
    /// (RFC 9110 §4.2.2 default port of the `https` scheme).
    package var usesTLS: Bool = false

    /// Creates a configuration.
    package init(
        approvalToken: String, relayToken: String, clientTokens: [String: String] = [:],
        extraAllowedHosts: Set<String> = [], maxRequestBodyBytes: Int = 4 << 20, maxSmallBodyBytes: Int = 64 << 10,
        pollHold: Duration = .seconds(25)
    ) {
        self.approvalToken = approvalToken
        self.relayToken = relayToken
        self.clientTokens = clientTokens
        self.extraAllowedHosts = extraAllowedHosts
        self.maxRequestBodyBytes = maxRequestBodyBytes
        self.maxSmallBodyBytes = maxSmallBodyBytes
        self.pollHold = pollHold
    }
}
