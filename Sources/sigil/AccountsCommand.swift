import ArgumentParser

/// `sigil accounts`: the encrypted accounts in the data directory (polkadot-js keyring JSON v3
/// files, one per account). Sub-commands live in `Accounts/`.
struct AccountsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "accounts",
        abstract: "List, add, import, export, rename and remove the accounts Sigil signs with.",
        discussion: """
            Accounts are stored encrypted in <data dir>/accounts/, one polkadot-js keyring JSON file \
            per account, so they can be backed up, moved, and imported by the polkadot-js extension, \
            Talisman or SubWallet. Passwords are read from the terminal (no echo) or from \
            --password-file PATH, never from the command line. Changes take effect in a running \
            `sigil serve` at its next start.
            """,
        subcommands: [
            AccountsListCommand.self, AccountsAddCommand.self, AccountsImportCommand.self,
            AccountsExportCommand.self, AccountsRenameCommand.self, AccountsRemoveCommand.self,
        ]
    )
}
