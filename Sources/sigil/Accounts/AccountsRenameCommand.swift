import ArgumentParser
import Keystore

/// `sigil accounts rename ADDRESS NAME`: changes `meta.name` (no password: it is not encrypted).
struct AccountsRenameCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "rename", abstract: "Rename an account.")

    @Argument(help: "The account: SS58 address, 0x public key, 0x Ethereum address, or its exact name.")
    var account: String
    @Argument(help: "The new name.") var name: String
    @OptionGroup var dataDirectory: DataDirectoryOption
    @Flag(name: .long, help: "Print JSON.") var json = false

    func run() throws {
        let directory = try dataDirectory.open()
        let store = AccountStore(directory: directory)
        if (try? store.findEthereum(account)) != nil {
            let info = try keystore { try store.renameEthereum(account, to: name) }
            print(
                json
                    ? try AccountReport.json(AccountReport(ethereum: info, directory: directory))
                    : "Renamed \(info.address) to \(name)")
            return
        }
        let info = try keystore { try store.rename(account, to: name) }
        print(
            json
                ? try AccountReport.json(AccountReport(info, directory: directory))
                : "Renamed \(info.address) to \(name)")
    }
}
