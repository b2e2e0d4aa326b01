import ArgumentParser
import Keystore
import Primitives
import SignerCore
import StateStore

/// `sigil metadata add-hash on|off|show GENESIS [--data-dir DIR]`: whether Sigil adds RFC-0078's
/// `CheckMetadataHash` (mode 1 and its own hash) to a chain's mode-0 transactions that ask for the
/// signed transaction (docs/configuration.md "Per-chain settings"). On by default. The setting is
/// the state-store row `metadata-hash.add.<genesis>`; a running `sigil serve` on the same data
/// directory reads it for each request.
struct MetadataAddHashCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add-hash",
        abstract: "Turn adding the RFC-0078 metadata hash (CheckMetadataHash) on or off for one chain.",
        discussion: """
            on (the default) lets Sigil set mode 1 and its own metadata hash in a mode-0 transaction \
            that asks for the signed transaction, when the metadata approved for the chain allows it; \
            off signs such transactions as the site built them. show prints the current value.
            """)

    enum Action: String, ExpressibleByArgument, CaseIterable {
        case on, off, show
    }

    @Argument(help: "on, off or show.") var action: Action
    @Argument(help: "The chain's genesis hash (0x + 64 hex digits).") var genesisHash: String
    @OptionGroup var location: OriginsCommand.Location

    func run() throws {
        guard let genesis = try? Hex.decode(genesisHash, prefix: .required, byteCount: 32) else {
            throw ValidationError("GENESIS must be 0x followed by 64 hex digits")
        }
        let key = MetadataHashCheck.settingKey(genesisHash: genesis)
        let store = try location.store()
        switch action {
        case .on: try store.setSetting(key, to: nil)
        case .off: try store.setSetting(key, to: "off")
        case .show: break
        }
        let on = try store.setting(key) != "off"
        print("Adding the metadata hash for \(Hex.encode(genesis)): \(on ? "on" : "off")")
    }
}
