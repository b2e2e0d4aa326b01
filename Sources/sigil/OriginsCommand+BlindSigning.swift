import ArgumentParser
import Gateway
import Keystore
import Primitives

extension OriginsCommand {
    /// `sigil origins blind-signing ORIGIN on|off`: whether an Internet Computer site may ask for
    /// canister calls Sigil cannot describe (ICRC-49: off by default). Each such call is still shown
    /// with a warning, the method, the argument size and hex, and must be approved. A running
    /// `sigil serve` on the same data directory reads the setting at the site's next call.
    struct BlindSigning: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "blind-signing",
            abstract: "Allow or forbid an Internet Computer site to ask for calls Sigil cannot describe.")
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
            let permissions = StateStoreIcrcPermissions(store: try location.store())
            var site = try await permissions.load(origin) ?? IcrcSitePermissions()
            site.blindSigning = state == "on"
            try await permissions.save(origin, site)
            print(
                state == "on"
                    ? "Blind signing is ON for \(origin): calls Sigil cannot describe are shown with a warning and need your approval."
                    : "Blind signing is off for \(origin).")
        }
    }
}
