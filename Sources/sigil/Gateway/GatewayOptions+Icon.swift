import Gateway
import SigilConfiguration

extension GatewayOptions {
    /// The ICON settings of `sigil serve` (docs/configuration.md): the node to send to, the default
    /// network id, the origins allowed to ask for blind signing.
    mutating func configureIcon(_ settings: ServeSettings) throws {
        if let url = settings.iconRPC {
            do {
                iconNode = try HTTPIconNode(url: url)
            } catch {
                throw ValidationErrorText("icon-rpc: '\(url.prefix(80))' is not a URL Sigil can use")
            }
        }
        if !settings.iconNID.isEmpty { iconNetworkID = settings.iconNID }
        iconBlindSigningOrigins = Set(settings.iconBlindSigning.map { $0.lowercased() })
    }
}
