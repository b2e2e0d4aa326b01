import ArgumentParser
import Primitives
import SigningKeys

/// `sigil key sign URI (--message | --hex) [--wrap]`: prints the raw signature as hex.
struct KeySignCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sign",
        abstract: "Sign a message with a secret URI and print the signature (0x hex).",
        discussion: "sr25519 signatures are randomized; ed25519 and ecdsa signatures are deterministic.")

    @Argument(help: "Secret URI (or `-` to read it from standard input).")
    var uri: String
    @OptionGroup var scheme: SchemeOption
    @OptionGroup var message: MessageOptions

    func run() throws {
        let text = try SecretInput.read(uri)
        let bytes = try message.bytes()
        do {
            let pair = try KeyPair(uri: text, scheme: scheme.scheme)
            print(Hex.encode(try pair.sign(bytes)))
        } catch let error as KeyError {
            throw KeyCommandFailure(error)
        }
    }
}
