import ArgumentParser
import SigningKeys

/// `sigil key inspect URI`: the keys of a secret URI, or (`--public`) of a public key or address.
struct KeyInspectCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "inspect",
        abstract: "Show the public key, account id and SS58 address of a secret URI (and its secret seed).",
        discussion: """
            With --public, URI is a public key (0x hex) or an SS58 address, optionally followed by \
            sr25519 /soft junctions; if it is a secret URI instead, its secret seed is not printed.
            """)

    @Argument(help: "Secret URI (or `-` to read it from standard input).")
    var uri: String
    @OptionGroup var scheme: SchemeOption
    @OptionGroup var network: NetworkOption
    @Flag(name: .long, help: "Treat URI as public, or at least print nothing secret.")
    var `public` = false
    @Flag(name: .long, help: "Print JSON.")
    var json = false

    func run() throws {
        let text = try SecretInput.read(uri)
        let net = try network.resolve()
        do {
            if `public`, let publicKey = try? Self.publicKey(text, scheme: scheme.scheme) {
                let report = try KeyReport(publicKey: publicKey, scheme: scheme.scheme, network: net, seed: nil)
                print(json ? try report.json() : report.text(header: "Public key is account:"))
                return
            }
            let pair = try KeyPair(uri: text, scheme: scheme.scheme)
            let report = try KeyReport(
                publicKey: pair.publicKey, scheme: scheme.scheme, network: net, seed: `public` ? nil : pair.seed)
            print(json ? try report.json() : report.text(header: "Secret Key URI is account:"))
        } catch let error as KeyError {
            throw KeyCommandFailure(error)
        }
    }

    /// Parses `<0x public key | SS58 address>(/soft)*`.
    static func publicKey(_ text: String, scheme: KeyScheme) throws -> [UInt8] {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        guard let head = parts.first else { throw KeyError(.invalidFormat, "empty public URI") }
        var key = try PublicKeyInput.parse(head, scheme: scheme, requireKey: true)
        for code in parts.dropFirst() {
            guard scheme == .sr25519 else { throw KeyError(.softKeyInPath, "only sr25519 public keys derive") }
            let junction = try DeriveJunction(code: code, hard: false)
            key = try Sr25519KeyPair.deriveSoft(publicKey: key, chainCode: junction.chainCode)
        }
        return key
    }
}
