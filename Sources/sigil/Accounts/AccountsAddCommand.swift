import ArgumentParser
import Foundation
import Keystore
import Primitives
import SigningKeys

/// `sigil accounts add [URI|-]`: a new account from a secret URI, or from a freshly generated
/// mnemonic that is printed once.
struct AccountsAddCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add",
        abstract: "Add an account from a secret URI, or generate a new mnemonic (printed once).",
        discussion: """
            URI: <mnemonic or 0x seed>[//hard][/soft][///password], or //Alice-style paths on the \
            development phrase. Give - to read the URI from standard input (or, on a terminal, \
            without echo) so that it stays out of your shell history. Without a URI a new \
            12-word mnemonic is generated: write it down, it is shown only this once. \
            With --chain icp the account is an Internet Computer identity (secp256k1 at \
            m/44'/223'/0'/0/<index> from a mnemonic, or with --ed25519 Ed25519 at \
            m/44'/223'/0'/0'/<index>' (SLIP-0010, as Internet Identity and @dfinity/identity derive); \
            a 0x secret (--ed25519: an Ed25519 seed), --pem FILE for a dfx/quill PEM file, or --dev for \
            the public development identity). With --chain ethereum the account is an Ethereum account \
            (a keystore v3 file): a mnemonic at m/44'/60'/0'/0/<index> (MetaMask's path; --path for \
            another), a raw 32-byte private key (0x + 64 hex digits), or --keystore FILE to import a \
            keystore v3 file (geth, eth-keyfile, ethers, MetaMask; it keeps its own password).
            """)

    @Argument(help: "Secret URI, or - to read it from standard input.") var uri: String?
    @Option(name: .long, help: "Account name.") var name: String?
    @OptionGroup var scheme: SchemeOption
    @Option(
        name: .long,
        help:
            "polkadot (default), icon (an ICON account: raw 0x key or mnemonic at m/44'/74'/0'/0/INDEX), icp (an Internet Computer identity) or ethereum (raw 0x key, mnemonic at m/44'/60'/0'/0/INDEX, or --keystore FILE)."
    )
    var chain: AccountChain = .polkadot
    @Option(
        name: .long,
        help:
            "icon, icp, ethereum: the address index n of m/44'/74'/0'/0/n, m/44'/223'/0'/0/n or m/44'/60'/0'/0/n (default 0)."
    )
    var index: UInt32 = 0
    @Option(name: .long, help: "ICON, Ethereum: an explicit BIP32 path instead of --index.") var path: String?
    @Option(
        name: .customLong("keystore"),
        help: ArgumentHelp(
            "With --chain ethereum: import this keystore v3 file (- for standard input).", valueName: "file"))
    var keystoreFile: String?
    @Option(name: .long, help: "Restrict the account to one chain (0x genesis hash).") var genesisHash: String?
    @Option(name: .long, help: "Words in a generated mnemonic: 12, 15, 18, 21 or 24.") var words: Int = 12
    @OptionGroup var dataDirectory: DataDirectoryOption
    @OptionGroup var password: PasswordOption
    @Flag(name: .long, help: "Print JSON.") var json = false
    @Flag(
        name: .long,
        help: "With --chain icp: Ed25519 (a mnemonic at m/44'/223'/0'/0'/INDEX' by SLIP-0010, or a 0x Ed25519 seed).")
    var ed25519 = false
    @Option(name: .long, help: "With --chain icp: a dfx/quill PEM identity file to import.") var pem: String?
    @Flag(name: .long, help: "With --chain icp: the public development identity (test mnemonic).") var dev = false

    func validate() throws {
        if scheme.scheme == .ethereum && chain != .ethereum {
            throw ValidationError("polkadot-js ethereum accounts are not supported; use --chain ethereum")
        }
        if keystoreFile != nil && chain != .ethereum { throw ValidationError("--keystore is for --chain ethereum") }
        guard Mnemonic.allowedWordCounts.contains(words) else {
            throw ValidationError("--words must be 12, 15, 18, 21 or 24")
        }
    }

    func run() throws {
        if chain == .icp { return try addIcp() }
        if chain == .icon { return try runIcon() }
        if chain == .ethereum { return try runEthereum() }
        let directory = try dataDirectory.open()
        let store = AccountStore(directory: directory)
        var phrase: String?
        let pair: KeyPair
        do {
            if let uri {
                let text = try SecretInput.readAccountSecret(uri, prompt: "Secret URI or mnemonic: ")
                if uri != "-" && !text.hasPrefix("//") {
                    warn("a secret on the command line can end up in shell history; use - next time")
                }
                pair = try KeyPair(uri: text, scheme: scheme.scheme)
            } else {
                let mnemonic = try Mnemonic.generate(wordCount: words)
                phrase = mnemonic.exposedPhrase()
                pair = try KeyPair(seed: try mnemonic.miniSecret(), scheme: scheme.scheme)
            }
        } catch let error as KeyError {
            throw CLIFailure("not a valid secret URI or mnemonic for \(scheme.scheme): \(error.code)")
        }
        let pw = try password.read(prompt: "New password for the account: ", confirm: true)
        let info = try keystore {
            try store.add(pair, name: name, genesisHash: genesisHash, password: pw)
        }
        var report = AccountReport(info, directory: directory)
        report.secretPhrase = phrase
        if json {
            print(try AccountReport.json(report))
            return
        }
        if let phrase {
            print("Secret phrase (write it down, it is not stored in clear and not shown again):\n  \(phrase)\n")
        }
        print("Added \(info.name ?? "account") \(info.address) (\(info.scheme))")
    }
}

extension AccountsAddCommand {
    /// `--chain icon`: an ICON keystore file in the data directory.
    func runIcon() throws {
        guard genesisHash == nil else { throw CLIFailure("--genesis-hash is for Substrate accounts") }
        let directory = try dataDirectory.open()
        let store = AccountStore(directory: directory)
        var phrase: String?
        let pair: IconKeyPair
        if let uri {
            let text = try SecretInput.readAccountSecret(uri, prompt: "ICON secret key (0x…) or mnemonic: ")
            if uri != "-" { warn("a secret on the command line can end up in shell history; use - next time") }
            pair = try IconSecretInput.keyPair(text, index: index, path: path)
        } else {
            let mnemonic = try Mnemonic.generate(wordCount: words)
            phrase = mnemonic.exposedPhrase()
            pair = try IconSecretInput.keyPair(mnemonic.exposedPhrase(), index: index, path: path)
        }
        let pw = try password.read(prompt: "New password for the account: ", confirm: true)
        let info = try keystore { try store.addIcon(pair, name: name, password: pw) }
        var report = AccountReport(icon: info, directory: directory, publicKey: Hex.encode(pair.publicKeyXY))
        report.secretPhrase = phrase
        if json {
            print(try AccountReport.json(report))
            return
        }
        if let phrase {
            print("Secret phrase (write it down, it is not stored in clear and not shown again):\n  \(phrase)\n")
        }
        print("Added \(info.name ?? "account") \(info.address) (icon)")
    }
}

extension SecretInput {
    /// The argument itself, or for `-` a line from standard input (read without echo on a terminal).
    static func readAccountSecret(_ argument: String, prompt: String) throws -> String {
        guard argument == "-" else { return argument }
        if isatty(STDIN_FILENO) == 1 {
            return try PasswordInput.hiddenLine(prompt: prompt)
        }
        guard let line = readLine(strippingNewline: true), !line.isEmpty else {
            throw CLIFailure("expected a secret URI or mnemonic on standard input")
        }
        return line.trimmingCharacters(in: .whitespaces)
    }
}
