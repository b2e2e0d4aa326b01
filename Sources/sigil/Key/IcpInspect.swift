import ArgumentParser
import Foundation
import ICPCodec
import Primitives
import SigningKeys

/// `--scheme` of `sigil key inspect`: a Substrate scheme, or `icp` for an Internet Computer identity.
enum InspectScheme: ExpressibleByArgument, Equatable {
    case substrate(KeyScheme)
    case icp
    case icon
    /// An Ethereum account: a mnemonic at m/44'/60'/0'/0/INDEX or a raw private key.
    case ethereum

    init?(argument: String) {
        if argument.lowercased() == "ethereum" {
            self = .ethereum
        } else if argument.lowercased() == "icp" {
            self = .icp
        } else if argument.lowercased() == "icon" {
            self = .icon
        } else if let scheme = KeyScheme(argument: argument) {
            self = .substrate(scheme)
        } else {
            return nil
        }
    }

    var substrateScheme: KeyScheme {
        if case .substrate(let scheme) = self { return scheme }
        return .sr25519
    }
}

/// What `sigil key inspect --scheme icp` prints (docs/reference/icp.md §3–§4).
struct IcpKeyReport: Encodable {
    var algorithm: String
    var derivationPath: String?
    var secretKey: String?
    var publicKey: String
    var derPublicKey: String
    var principal: String
    var accountId: String

    init(key: IcpKeyPair, path: String?, showSecret: Bool) throws {
        algorithm = key.algorithm.rawValue
        derivationPath = path
        secretKey = showSecret ? Hex.encode(key.secretKey.unsafeExposedBytes()) : nil
        publicKey = Hex.encode(key.rawPublicKey)
        derPublicKey = Hex.encode(key.derPublicKey)
        let principal = Principal(selfAuthenticating: key.derPublicKey)
        self.principal = principal.text
        accountId = try principal.accountIdentifier().hex
    }

    func text() -> String {
        var lines = ["Internet Computer identity:"]
        lines.append("  Algorithm:           \(algorithm)")
        if let derivationPath { lines.append("  Derivation path:     \(derivationPath)") }
        if let secretKey { lines.append("  Secret key:          \(secretKey)") }
        lines.append("  Public key (hex):    \(publicKey)")
        lines.append("  Public key (DER):    \(derPublicKey)")
        lines.append("  Principal:           \(principal)")
        lines.append("  Account ID:          \(accountId)")
        return lines.joined(separator: "\n")
    }

    func json() throws -> String { try JSONValueEncoder().encode(self).serialized([.pretty, .sortedKeys]) }

    /// The identity of `text`: a BIP39 mnemonic at m/44'/223'/0'/0/`index` (secp256k1, keysmith and
    /// quill) or, with `ed25519`, at m/44'/223'/0'/0'/`index`' (SLIP-0010, `@dfinity/identity` and
    /// Internet Identity), a `0x` 32-byte secret (secp256k1, or Ed25519 seed with `ed25519`), or the
    /// text of a PEM file.
    static func key(text: String, index: UInt32, ed25519: Bool) throws -> (IcpKeyPair, String?) {
        if text.hasPrefix("-----BEGIN") { return (try IcpKeyPair(pem: text), nil) }
        if text.hasPrefix("0x") {
            let secret = try Hex.decodeSecret(text, prefix: .required)
            return (try IcpKeyPair(secretKey: secret, algorithm: ed25519 ? .ed25519 : .secp256k1), nil)
        }
        let algorithm: IcpKeyPair.Algorithm = ed25519 ? .ed25519 : .secp256k1
        let key = try IcpKeyPair(mnemonic: Mnemonic(phrase: text), index: index, algorithm: algorithm)
        return (key, try IcpKeyPair.path(index: index, algorithm: algorithm).description)
    }
}
