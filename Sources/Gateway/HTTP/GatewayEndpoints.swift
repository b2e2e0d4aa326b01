import Synchronization

/// The gateway's real base URLs, known only once the ports are bound (port 0 picks a free one).
/// Set once by `sigil serve` after binding; read by the approval page and the userscript.
public final class GatewayEndpoints: Sendable {
    private let urls = Mutex<(dapp: String, ui: String)>(("http://127.0.0.1:9715", "http://127.0.0.1:9716"))

    /// Creates endpoints with the default ports.
    public init() {}

    /// Records the bound URLs (`http://127.0.0.1:PORT`, no trailing slash).
    public func set(dapp: String, ui: String) { urls.withLock { $0 = (dapp, ui) } }

    /// The dapp port's base URL.
    public var dappBase: String { urls.withLock { $0.dapp } }
    /// The approval port's base URL.
    public var uiBase: String { urls.withLock { $0.ui } }
    /// The bridge script's URL.
    public var bridgeURL: String { dappBase + "/bridge.js" }
}
