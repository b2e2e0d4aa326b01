import ArgumentParser

/// `sigil metadata`: work with runtime metadata. Sub-commands live in `Metadata/`.
struct MetadataCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "metadata",
        abstract: "Runtime metadata: the RFC-0078 metadata hash, and whether Sigil adds it to a chain's transactions.",
        subcommands: [MetadataHashCommand.self, MetadataAddHashCommand.self])
}
