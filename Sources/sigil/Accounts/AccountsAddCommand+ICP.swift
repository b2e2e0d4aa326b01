import ArgumentParser
import Foundation
import ICPCodec
import Keystore
import Primitives
import SigningKeys

extension AccountsAddCommand {
    /// `sigil accounts add --chain icp`: an Internet Computer identity into `icp/` of the data directory.
    func addIcp() throws {
        let directory = try dataDirectory.open()
        let store = IcpIdentityStore(directory: directory)
        var phrase: String?
        var path: String?
        var label = name
        let key: IcpKeyPair
        do {
            if dev {
                key = try IcpDevIdentity.key()
                path = try BIP32Path.icp(index: 0).description
                label = label ?? IcpDevIdentity.label
                warn(IcpDevIdentity.label)
            } else if let pem {
                key = try IcpKeyPair(pem: try String(contentsOfFile: pem, encoding: .utf8))
            } else if let uri {
                let text = try SecretInput.readAccountSecret(uri, prompt: "Mnemonic or 0x secret: ")
                if uri != "-" { warn("a secret on the command line can end up in shell history; use - next time") }
                (key, path) = try IcpKeyReport.key(text: text, index: index, ed25519: ed25519)
            } else {
                let mnemonic = try Mnemonic.generate(wordCount: words)
                phrase = mnemonic.exposedPhrase()
                let algorithm: IcpKeyPair.Algorithm = ed25519 ? .ed25519 : .secp256k1
                key = try IcpKeyPair(mnemonic: mnemonic, index: index, algorithm: algorithm)
                path = try IcpKeyPair.path(index: index, algorithm: algorithm).description
            }
        } catch let error as KeyError {
            throw CLIFailure("not a valid ICP identity: \(error.code)")
        }
        let pw = try password.read(prompt: "New password for the identity: ", confirm: true)
        _ = try keystore { try store.add(key, name: label, derivationPath: path, password: pw) }
        let principal = Principal(selfAuthenticating: key.derPublicKey)
        let account = try principal.accountIdentifier().hex
        if json {
            var object: [String: JSONValue] = [
                "chain": "icp", "algorithm": .string(key.algorithm.rawValue), "principal": .string(principal.text),
                "accountId": .string(account),
            ]
            object["derivationPath"] = path.map(JSONValue.string)
            object["name"] = label.map(JSONValue.string)
            object["secretPhrase"] = phrase.map(JSONValue.string)
            print(JSONValue.object(object).serialized([.pretty, .sortedKeys]))
            return
        }
        if let phrase {
            print("Secret phrase (write it down, it is not stored in clear and not shown again):\n  \(phrase)\n")
        }
        print("Added ICP identity \(principal.text) (\(key.algorithm.rawValue)), account \(account)")
    }
}
