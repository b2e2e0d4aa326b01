import ArgumentParser
import Foundation
import SigningKeys

extension KeyScheme: ExpressibleByArgument {
    public init?(argument: String) { self.init(rawValue: argument.lowercased()) }
}

/// Options shared by the `key` sub-commands.
struct SchemeOption: ParsableArguments {
    @Option(name: .long, help: "Signature scheme: sr25519, ed25519, ecdsa or ethereum.")
    var scheme: KeyScheme = .sr25519
}

/// `--network`: an SS58 prefix number (0…16383) or a known network name.
struct NetworkOption: ParsableArguments {
    @Option(name: .long, help: "SS58 network: a prefix 0…16383 or polkadot, kusama, substrate, westend, …")
    var network: String = "substrate"

    static let names: [String: UInt16] = [
        "polkadot": 0, "kusama": 2, "westend": 42, "rococo": 42, "paseo": 0, "substrate": 42, "generic": 42,
        "acala": 10, "karura": 8, "astar": 5, "shiden": 5, "moonbeam": 1284, "moonriver": 1285,
    ]

    /// The prefix and a display name.
    func resolve() throws -> (prefix: UInt16, name: String) {
        let key = network.lowercased()
        if let prefix = Self.names[key] { return (prefix, key) }
        if let n = UInt16(network), n <= 16383, n != 46, n != 47 { return (n, network) }
        throw ValidationError("unknown network '\(network)': give a prefix 0…16383 (not 46/47) or a known name")
    }
}

/// `--message TEXT | --hex 0x…` with optional `--wrap`.
struct MessageOptions: ParsableArguments {
    @Option(name: .long, help: "The message as UTF-8 text.")
    var message: String?

    @Option(name: .long, help: "The message as 0x-prefixed hex bytes.")
    var hex: String?

    @Flag(name: .long, help: "Wrap the message in <Bytes>…</Bytes> as polkadot-js signRaw does.")
    var wrap = false

    func validate() throws {
        guard (message == nil) != (hex == nil) else {
            throw ValidationError("give exactly one of --message TEXT or --hex 0x…")
        }
    }

    func bytes() throws -> [UInt8] {
        var raw: [UInt8]
        if let hex {
            guard hex.hasPrefix("0x") else { throw ValidationError("--hex must start with 0x") }
            do { raw = try Hex.decode(hex, field: "--hex") } catch let error as KeyError {
                throw ValidationError(error.reason)
            }
        } else {
            raw = Array((message ?? "").utf8)
        }
        return wrap ? BytesWrapping.wrap(raw) : raw
    }
}

enum SecretInput {
    /// The URI argument, or one line from standard input for `-`.
    static func read(_ argument: String) throws -> String {
        guard argument == "-" else { return argument }
        guard let line = readLine(strippingNewline: true) else {
            throw ValidationError("expected a secret URI on standard input")
        }
        return line
    }
}

/// What `inspect`/`generate` print; JSON keys as subkey's (`publicKey`, `accountId`, …).
struct KeyReport: Encodable {
    var secretPhrase: String?
    var secretSeed: String?
    var publicKey: String
    var ss58PublicKey: String?
    var accountId: String
    var ss58Address: String?
    var ethereumAddress: String?
    var scheme: String
    var network: String
    var networkPrefix: UInt16

    init(publicKey: [UInt8], scheme: KeyScheme, network: (prefix: UInt16, name: String), seed: SecretBytes?) throws {
        self.publicKey = Hex.encode(publicKey)
        let account = try scheme.accountId(forPublicKey: publicKey)
        accountId = Hex.encode(account)
        self.scheme = scheme.rawValue
        self.network = network.name
        networkPrefix = network.prefix
        secretSeed = seed?.withUnsafeBytes { Hex.encode($0) }
        if scheme == .ethereum {
            ethereumAddress = EthereumKeyPair.checksumAddress(account)
        } else {
            ss58Address = try SS58.encode(account, prefix: network.prefix)
            ss58PublicKey = try SS58.encode(publicKey, prefix: network.prefix)
        }
    }

    func text(header: String?) -> String {
        var lines = [String]()
        if let header { lines.append(header) }
        if let secretPhrase { lines.append("  Secret phrase:       \(secretPhrase)") }
        lines.append("  Network ID:          \(network) (\(networkPrefix))")
        lines.append("  Scheme:              \(scheme)")
        if let secretSeed { lines.append("  Secret seed:         \(secretSeed)") }
        lines.append("  Public key (hex):    \(publicKey)")
        lines.append("  Account ID:          \(accountId)")
        if let ss58PublicKey { lines.append("  Public key (SS58):   \(ss58PublicKey)") }
        if let ss58Address { lines.append("  SS58 Address:        \(ss58Address)") }
        if let ethereumAddress { lines.append("  Ethereum address:    \(ethereumAddress)") }
        return lines.joined(separator: "\n")
    }

    func json() throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(self), as: UTF8.self)
    }
}

extension KeyError {
    /// A `ValidationError`-like message for the command line (reasons never contain secrets).
    var cliMessage: String { "\(code): \(reason)" }
}

/// Maps `KeyError` to a clean one-line failure (exit code 1).
struct KeyCommandFailure: Error, CustomStringConvertible {
    let description: String
    init(_ error: KeyError) { description = error.cliMessage }
    init(_ text: String) { description = text }
}
