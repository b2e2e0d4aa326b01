import ArgumentParser

/// `sigil call`: work with runtime calls. Sub-commands live in `Call/`.
struct CallCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "call",
        abstract: "Decode runtime calls with the chain's metadata.",
        subcommands: [CallDecodeCommand.self])
}
