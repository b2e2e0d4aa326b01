import ArgumentParser
import Gateway
import Keystore
import Primitives
import SignerCore

extension OriginsCommand {
    /// `sigil origins blind-signing ORIGIN on|off`: whether a site may ask for signatures Sigil cannot
    /// describe (docs/blind-signing.md): a Polkadot call that does not decode with the chain's
    /// metadata, an ICON bare hash, an Internet Computer call to an unknown method (ICRC-49). Off by
    /// default. Each such request is still shown with a warning first and must be approved. A running
    /// `sigil serve` on the same data directory reads the setting at the site's next request.
    struct BlindSigning: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "blind-signing",
            abstract: "Allow or forbid a site to ask for signatures Sigil cannot describe.")
        @OptionGroup var location: Location
        @Argument(help: "The site's exact origin, e.g. https://app.example.") var origin: String
        @Argument(help: "on or off.") var state: String

        func validate() throws {
            guard ["on", "off"].contains(state) else { throw ValidationError("the state must be on or off") }
            guard SiteOrigin(origin)?.description == origin else {
                throw ValidationError("\(origin) is not an exact origin (scheme://host[:port])")
            }
        }

        func run() async throws {
            let on = state == "on"
            try await StateStoreBlindSigning(store: try location.store()).setAllowed(on, for: origin)
            print(
                on
                    ? "Blind signing is ON for \(origin): requests Sigil cannot describe are shown with a warning and need your approval."
                    : "Blind signing is off for \(origin).")
        }
    }
}
