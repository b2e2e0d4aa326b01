import Foundation
import Primitives
import SigningKeys

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
        try JSONValueEncoder().encode(self).serialized([.pretty, .sortedKeys])
    }
}
