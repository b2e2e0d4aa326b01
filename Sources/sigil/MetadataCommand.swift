import ArgumentParser

/// `sigil metadata`: work with runtime metadata. Sub-commands live in `Metadata/`.
struct MetadataCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "metadata",
        abstract: "Runtime metadata: the RFC-0078 metadata hash.",
        subcommands: [MetadataHashCommand.self])
}
