import ArgumentParser
import SigningKeys

/// `sigil key generate`: a new BIP39 phrase from system randomness and its account.
struct KeyGenerateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "generate",
        abstract: "Generate a new random mnemonic and show its keys (the phrase is printed: keep it safe).")

    @OptionGroup var scheme: SchemeOption
    @Option(name: .long, help: "Number of words: 12, 15, 18, 21 or 24.")
    var words: Int = 12
    @OptionGroup var network: NetworkOption
    @Flag(name: .long, help: "Print JSON.")
    var json = false

    func validate() throws {
        guard Mnemonic.allowedWordCounts.contains(words) else {
            throw ValidationError("--words must be 12, 15, 18, 21 or 24")
        }
        if scheme.scheme == .ethereum {
            throw ValidationError(
                "ethereum keys from a mnemonic (BIP32) are not supported; use sr25519, ed25519 or ecdsa")
        }
    }

    func run() throws {
        do {
            let mnemonic = try Mnemonic.generate(wordCount: words)
            let pair = try KeyPair(seed: try mnemonic.miniSecret(), scheme: scheme.scheme)
            var report = try KeyReport(
                publicKey: pair.publicKey, scheme: scheme.scheme, network: try network.resolve(), seed: pair.seed)
            report.secretPhrase = mnemonic.exposedPhrase()
            print(json ? try report.json() : report.text(header: nil))
        } catch let error as KeyError {
            throw KeyCommandFailure(error)
        }
    }
}
