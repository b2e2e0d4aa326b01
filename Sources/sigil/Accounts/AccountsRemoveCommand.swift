import ArgumentParser
import Keystore
import Primitives
import StateStore

/// `sigil accounts remove ADDRESS`: deletes the account file (after confirmation) and removes the
/// account from every connected site.
struct AccountsRemoveCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "remove",
        abstract: "Remove an account (asks for confirmation; export it first if you may need it again).")

    @Argument(help: "The account: SS58 address, 0x public key, or its exact name.") var account: String
    @Flag(name: .long, help: "Do not ask for confirmation (for scripts).") var yes = false
    @OptionGroup var dataDirectory: DataDirectoryOption
    @Flag(name: .long, help: "Print JSON.") var json = false

    func run() throws {
        let directory = try dataDirectory.open()
        let store = AccountStore(directory: directory)
        if let icon = try? store.findIcon(account) {
            // An ICON account (its own file, docs/reference/icon.md §8).
            if !yes {
                let question =
                    "Remove \(icon.name ?? "account") \(icon.address)? Without an export it is lost for good. [y/N] "
                guard PasswordInput.confirm(question) else {
                    throw CLIFailure("not removed (answer y to confirm, or pass --yes)")
                }
            }
            let removed = try keystore { try store.removeIcon(icon.address) }
            print(
                json
                    ? try AccountReport.json(AccountReport(icon: removed, directory: directory))
                    : "Removed \(removed.address)")
            return
        }
        if let ethereum = try? store.findEthereum(account) {
            // An Ethereum account (its own keystore file, docs/reference/ethereum.md §10).
            if !yes {
                let question =
                    "Remove \(ethereum.name ?? "account") \(ethereum.address)? Without an export it is lost for good. [y/N] "
                guard PasswordInput.confirm(question) else {
                    throw CLIFailure("not removed (answer y to confirm, or pass --yes)")
                }
            }
            let removed = try keystore { try store.removeEthereum(ethereum.address) }
            // Sites hold an Ethereum account by its key, the EIP-55 address.
            try keystore { try SQLiteStateStore(path: directory.databasePath).forgetAccount(address: removed.address) }
            print(
                json
                    ? try AccountReport.json(AccountReport(ethereum: removed, directory: directory))
                    : "Removed \(removed.address)")
            return
        }
        let info = try keystore { try store.find(account) }
        if !yes {
            let question =
                "Remove \(info.name ?? "account") \(info.address)? Without an export it is lost for good. [y/N] "
            guard PasswordInput.confirm(question) else {
                throw CLIFailure("not removed (answer y to confirm, or pass --yes)")
            }
        }
        let removed = try keystore { try store.remove(info.address) }
        // Sites hold a polkadot-js account by its key, `0x` + the account id (not its SS58 address).
        try keystore {
            try SQLiteStateStore(path: directory.databasePath).forgetAccount(address: Hex.encode(removed.accountId))
        }
        print(
            json ? try AccountReport.json(AccountReport(removed, directory: directory)) : "Removed \(removed.address)")
    }
}
