import ArgumentParser
import Foundation
import Keystore
import Primitives
import SigningKeys

/// Which family an account belongs to (`sigil accounts add/import --chain`).
enum AccountChain: String, ExpressibleByArgument, CaseIterable {
    /// Substrate accounts (polkadot-js keyring files), the default.
    case polkadot
    /// ICON accounts (ICON keystore files; docs/reference/icon.md §6, §8).
    case icon
    /// Internet Computer identities (`icp/` of the data directory; docs/reference/icp.md).
    case icp
    /// Ethereum accounts (keystore v3 files; docs/reference/ethereum.md §10).
    case ethereum
}

/// ICON secrets as typed by a person: a raw 32-byte secret key (`0x` + 64 hex digits) or a BIP39
/// mnemonic, derived at `m/44'/74'/0'/0/index` (or an explicit BIP32 `path`).
enum IconSecretInput {
    static func keyPair(_ text: String, index: UInt32, path: String?, passphrase: String = "") throws -> IconKeyPair {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        do {
            if trimmed.hasPrefix("0x") {
                guard path == nil else { throw CLIFailure("a raw ICON key has no derivation path") }
                let secret = try Hex.decodeSecret(trimmed, prefix: .required)
                guard secret.count == 32 else {
                    throw CLIFailure("an ICON secret key is 32 bytes (0x + 64 hex digits)")
                }
                return try IconKeyPair(secretKey: secret)
            }
            let mnemonic = try Mnemonic(phrase: trimmed)
            if let path {
                return try IconKeyPair(mnemonic: mnemonic, passphrase: passphrase, path: try BIP32Path(path))
            }
            return try IconKeyPair(mnemonic: mnemonic, passphrase: passphrase, index: index)
        } catch let error as CLIFailure {
            throw error
        } catch let error as KeyError {
            throw CLIFailure("not a valid ICON secret key or mnemonic: \(error.code)")
        } catch {
            throw CLIFailure("not a valid ICON secret key or mnemonic")
        }
    }
}

extension AccountReport {
    init(icon info: IconAccountInfo, directory: DataDirectory, publicKey: String = "") {
        address = info.address
        self.publicKey = publicKey
        scheme = "icon"
        name = info.name
        whenCreated = info.whenCreated
        genesisHash = nil
        isHidden = false
        file = directory.accountsPath + "/" + info.fileName
    }
}
