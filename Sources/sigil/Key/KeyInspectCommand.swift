import ArgumentParser
import Foundation
import Primitives
import SigningKeys

/// `sigil key inspect URI`: the keys of a secret URI, or (`--public`) of a public key or address.
struct KeyInspectCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "inspect",
        abstract: "Show the public key, account id and SS58 address of a secret URI (and its secret seed).",
        discussion: """
            With --public, URI is a public key (0x hex) or an SS58 address, optionally followed by \
            sr25519 /soft junctions; if it is a secret URI instead, its secret seed is not printed. \
            With --scheme icp, URI is a BIP39 mnemonic (derived at m/44'/223'/0'/0/<index>, as keysmith \
            and quill do; with --ed25519 at m/44'/223'/0'/0'/<index>' by SLIP-0010, as Internet Identity \
            and @dfinity/identity do), a 0x secret key, or `-` with a dfx/quill PEM file on standard input; the \
            principal and ICP account id are printed.
            """)

    @Argument(help: "Secret URI (or `-` to read it from standard input).")
    var uri: String
    @Option(
        name: .long,
        help:
            "Signature scheme: sr25519, ed25519, ecdsa, ethereum (raw 0x key or mnemonic at m/44'/60'/0'/0/INDEX), icon (raw 0x key or mnemonic at m/44'/74'/0'/0/INDEX) or icp (Internet Computer, m/44'/223'/0'/0/INDEX)."
    )
    var scheme: InspectScheme = .substrate(.sr25519)
    @Option(
        name: .long,
        help:
            "icon, icp, ethereum: the address index n of m/44'/74'/0'/0/n, m/44'/223'/0'/0/n or m/44'/60'/0'/0/n (default 0)."
    )
    var index: UInt32 = 0
    @Option(name: .long, help: "icon, ethereum: an explicit BIP32 path instead of --index.") var path: String?
    @Flag(
        name: .long,
        help: "With --scheme icp: Ed25519 instead of secp256k1 (mnemonic at m/44'/223'/0'/0'/INDEX', or a 0x seed).")
    var ed25519 = false
    @OptionGroup var network: NetworkOption
    @Flag(name: .long, help: "Treat URI as public, or at least print nothing secret.")
    var `public` = false
    @Flag(name: .long, help: "Print JSON.")
    var json = false

    func run() throws {
        if scheme == .icp {
            let text =
                uri == "-" ? String(decoding: FileHandle.standardInput.readDataToEndOfFile(), as: UTF8.self) : uri
            do {
                let (key, path) = try IcpKeyReport.key(
                    text: text.hasPrefix("-----BEGIN") ? text : text.trimmingCharacters(in: .whitespacesAndNewlines),
                    index: index, ed25519: ed25519)
                let report = try IcpKeyReport(key: key, path: path, showSecret: !`public`)
                print(json ? try report.json() : report.text())
            } catch let error as KeyError {
                throw KeyCommandFailure(error)
            }
            return
        }
        let substrate = scheme.substrateScheme
        let text = try SecretInput.read(uri)
        if scheme == .icon { return try runIcon(text) }
        if scheme == .ethereum { return try runEthereum(text) }
        let net = try network.resolve()
        do {
            if `public`, let publicKey = try? Self.publicKey(text, scheme: substrate) {
                let report = try KeyReport(publicKey: publicKey, scheme: substrate, network: net, seed: nil)
                print(json ? try report.json() : report.text(header: "Public key is account:"))
                return
            }
            let pair = try KeyPair(uri: text, scheme: substrate)
            let report = try KeyReport(
                publicKey: pair.publicKey, scheme: substrate, network: net, seed: `public` ? nil : pair.seed)
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

extension KeyInspectCommand {
    /// `--scheme icon`: address `hx…`, the 64-byte public key X ‖ Y, the compressed key, the path,
    /// and (unless `--public`) the secret key. With `--public`, URI may be a public key.
    func runIcon(_ text: String) throws {
        var report: [String: JSONValue] = ["scheme": "icon"]
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        if `public`, !trimmed.contains(" "), let key = try? Hex.decode(trimmed, prefix: .optional),
            [33, 64, 65].contains(key.count)
        {
            let address = try IconKeyPair.addressBytes(ofPublicKey: key)
            report["address"] = .string("hx" + Hex.encode(address, prefix: false))
        } else {
            let pair = try IconSecretInput.keyPair(trimmed, index: index, path: path)
            report["address"] = .string(pair.address)
            report["publicKey"] = .string(Hex.encode(pair.publicKeyXY))
            report["publicKeyCompressed"] = .string(Hex.encode(pair.publicKey))
            if !trimmed.hasPrefix("0x") { report["path"] = .string(path ?? "m/44'/74'/0'/0/\(index)") }
            if !`public` { report["secretKey"] = .string(pair.secretKey.withUnsafeBytes { Hex.encode($0) }) }
        }
        if json {
            print(JSONValue.object(report).serialized([.pretty, .sortedKeys]))
            return
        }
        print("ICON account:")
        for key in ["address", "publicKey", "publicKeyCompressed", "path", "secretKey"] {
            if let value = report[key]?.stringValue {
                print("  \(key.padding(toLength: 20, withPad: " ", startingAt: 0)) \(value)")
            }
        }
    }
}

extension KeyInspectCommand {
    /// `--scheme ethereum`: the EIP-55 address, the uncompressed (`04 ‖ X ‖ Y`) and compressed
    /// public keys, the path of a mnemonic, and (unless `--public`) the private key. With `--public`,
    /// URI may be a public key (33 or 65 bytes).
    func runEthereum(_ text: String) throws {
        var report: [String: JSONValue] = ["scheme": "ethereum"]
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        if `public`, !trimmed.contains(" "), let key = try? Hex.decode(trimmed, prefix: .optional),
            [33, 65].contains(key.count)
        {
            let address = try EthereumKeyPair.address(ofPublicKey: key)
            report["address"] = .string(EthereumKeyPair.checksumAddress(address))
        } else {
            let (pair, derivedAt) = try EthereumSecretInput.keyPair(trimmed, index: index, path: path)
            report["address"] = .string(pair.address)
            report["publicKey"] = .string(Hex.encode(pair.uncompressedPublicKey))
            report["publicKeyCompressed"] = .string(Hex.encode(pair.publicKey))
            if let derivedAt { report["path"] = .string(derivedAt) }
            if !`public`, let seed = pair.seed {
                report["privateKey"] = .string(seed.withUnsafeBytes { Hex.encode($0) })
            }
        }
        if json {
            print(JSONValue.object(report).serialized([.pretty, .sortedKeys]))
            return
        }
        print("Ethereum account:")
        for key in ["address", "publicKey", "publicKeyCompressed", "path", "privateKey"] {
            if let value = report[key]?.stringValue {
                print("  \(key.padding(toLength: 20, withPad: " ", startingAt: 0)) \(value)")
            }
        }
    }
}
