import ArgumentParser
import Keystore

/// `sigil accounts rename ADDRESS NAME`: changes `meta.name` (no password: it is not encrypted).
struct AccountsRenameCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "rename", abstract: "Rename an account.")

    @Argument(help: "The account: SS58 address, 0x public key, or its exact name.") var account: String
    @Argument(help: "The new name.") var name: String
    @OptionGroup var dataDirectory: DataDirectoryOption
    @Flag(name: .long, help: "Print JSON.") var json = false

    func run() throws {
        let directory = try dataDirectory.open()
        let info = try keystore { try AccountStore(directory: directory).rename(account, to: name) }
        print(
            json
                ? try AccountReport.json(AccountReport(info, directory: directory))
                : "Renamed \(info.address) to \(name)")
    }
}
