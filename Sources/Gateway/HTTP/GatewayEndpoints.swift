import Synchronization

/// The gateway's real base URLs, known only once the ports are bound (port 0 picks a free one).
/// Set once by `sigil serve` after binding; read by the approval page and the userscript.
package final class GatewayEndpoints: Sendable {
    private let urls = Mutex<(dapp: String, ui: String)>(("http://127.0.0.1:9715", "http://127.0.0.1:9716"))

    /// Creates endpoints with the default ports.
    package init() {}

    /// Records the bound URLs (`http://127.0.0.1:PORT`, no trailing slash).
    package func set(dapp: String, ui: String) { urls.withLock { $0 = (dapp, ui) } }

    /// The dapp port's base URL.
    package var dappBase: String { urls.withLock { $0.dapp } }
    /// The approval port's base URL.
    package var uiBase: String { urls.withLock { $0.ui } }
    /// The bridge script's URL.
    package var bridgeURL: String { dappBase + "/bridge.js" }
}
