import ArgumentParser

/// `sigil key`: key generation, inspection, signing and verification, mirroring Substrate's
/// `subkey` (`generate`, `inspect`, `sign`, `verify`). Sub-commands live in `Key/`.
struct KeyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "key",
        abstract: "Generate, inspect, sign and verify with Substrate keys (like subkey).",
        discussion: """
            Secret URIs follow sp-core: <phrase or 0x seed>[//hard][/soft][///password]. A URI \
            that starts with // uses the development phrase. Give `-` instead of a URI to read it \
            from standard input, so it does not end up in your shell history.
            """,
        subcommands: [
            KeyGenerateCommand.self, KeyInspectCommand.self, KeySignCommand.self, KeyVerifyCommand.self,
        ]
    )
}
