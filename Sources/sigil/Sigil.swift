import ArgumentParser

/// The `sigil` command: a local signing gateway for Polkadot dapps.
///
/// Subcommands are added as the modules behind them land; each lives in its own file
/// (`ServeCommand.swift`, `KeyCommand.swift`, …).
@main
struct Sigil: AsyncParsableCommand {
    /// The program's version (`sigil --version`, `/healthz`, `sigil_build_info`).
    static let version = "0.1.0"

    static let configuration = CommandConfiguration(
        commandName: "sigil",
        abstract: "A local signing gateway: web dapps ask, you approve, your keys never leave this process.",
        discussion: """
            Start the gateway with development accounts:   sigil serve --dev
            Check the signing journal:                      sigil journal verify
            Inspect a key (like Substrate's subkey):        sigil key inspect //Alice
            Show the bytes a payload signs:                 sigil payload request.json --metadata polkadot.scale
            Decode a call:                                  sigil call decode --metadata polkadot.scale 0x0000…
            The RFC-0078 metadata hash (CheckMetadataHash): sigil metadata hash polkadot.scale --decimals 10 --token-symbol DOT
            """,
        version: Sigil.version,
        subcommands: [
            ServeCommand.self, OriginsCommand.self, JournalCommand.self, KeyCommand.self, AccountsCommand.self,
            PayloadCommand.self,
            CallCommand.self, MetadataCommand.self, TLSCommand.self, HealthCommand.self, StateCommand.self,
            BackupCommand.self, RestoreCommand.self,
        ]
    )
}
