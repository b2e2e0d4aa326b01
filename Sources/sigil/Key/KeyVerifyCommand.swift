import ArgumentParser
import Primitives
import SigningKeys

/// `sigil key verify SIGNATURE PUBLIC-KEY-OR-ADDRESS (--message | --hex)`: exit 0 when valid,
/// 1 when not, with a one-line reason.
struct KeyVerifyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify",
        abstract: "Verify a signature; exits 0 when valid and 1 (with the reason) when not.")

    @Argument(help: "The signature, 0x hex (64 bytes; 65 for ecdsa).")
    var signature: String
    @Argument(help: "The signer: a 0x public key or an SS58 address (ecdsa: key, or account id).")
    var signer: String
    @OptionGroup var scheme: SchemeOption
    @OptionGroup var message: MessageOptions

    func run() throws {
        let bytes = try message.bytes()
        do {
            let sig = try Hex.decode(signature, prefix: .optional)
            let who = try PublicKeyInput.parse(signer, scheme: scheme.scheme, requireKey: false)
            try scheme.scheme.check(signature: sig, message: bytes, signer: who)
            print("Signature verifies correctly.")
        } catch let error as KeyError {
            print("Signature invalid: \(error.reason)")
            throw ExitCode(1)
        }
    }
}
