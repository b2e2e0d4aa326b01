import ArgumentParser
import SigningKeys

/// Options shared by the `key` sub-commands.
struct SchemeOption: ParsableArguments {
    @Option(name: .long, help: "Signature scheme: sr25519, ed25519, ecdsa or ethereum.")
    var scheme: KeyScheme = .sr25519
}
