import ArgumentParser
import Foundation
import Keystore
import Primitives
import SigningKeys

/// Ethereum secrets as typed by a person (docs/reference/ethereum.md §10): a raw 32-byte private key
/// (`0x` + 64 hex digits, or the 64 digits alone as MetaMask exports it) or a BIP-39 mnemonic,
/// derived at `m/44'/60'/0'/0/index` (MetaMask's, ethers' and Hardhat's path) or an explicit path.
/// Failures never echo the text: it is a secret.
enum EthereumSecretInput {
    /// The key and, for a mnemonic, the path it was derived at.
    static func keyPair(_ text: String, index: UInt32, path: String?) throws -> (EthereumKeyPair, String?) {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        do {
            if let raw = rawKeyText(trimmed) {
                guard path == nil else { throw CLIFailure("a raw Ethereum key has no derivation path") }
                let secret = try Hex.decodeSecret(raw, prefix: .forbidden)
                guard secret.count == 32 else {
                    throw CLIFailure("an Ethereum private key is 32 bytes (0x + 64 hex digits)")
                }
                return (try EthereumKeyPair(seed: secret), nil)
            }
            let mnemonic = try Mnemonic(phrase: trimmed)
            let bip32 = try path.map { try BIP32Path($0) } ?? BIP32Path.ethereum(index: index)
            return (
                try EthereumKeyPair(mnemonic: mnemonic, path: bip32), path ?? "m/44'/60'/0'/0/\(index)"
            )
        } catch let error as CLIFailure {
            throw error
        } catch let error as KeyError {
            throw CLIFailure("not a valid Ethereum private key or mnemonic: \(error.code)")
        } catch {
            throw CLIFailure("not a valid Ethereum private key or mnemonic")
        }
    }

    /// The hex digits of a raw key (`0x` optional) when the text is one word of hex digits; nil for
    /// anything else (a mnemonic).
    static func rawKeyText(_ text: String) -> String? {
        var body = Substring(text)
        if body.hasPrefix("0x") || body.hasPrefix("0X") { body = body.dropFirst(2) }
        guard !body.isEmpty, body.utf8.allSatisfy({ isHexDigit($0) }) else { return nil }
        return String(body)
    }

    private static func isHexDigit(_ c: UInt8) -> Bool {
        (c >= 0x30 && c <= 0x39) || (c >= 0x61 && c <= 0x66) || (c >= 0x41 && c <= 0x46)
    }

    /// Reads a keystore file (bounded size).
    static func readKeystoreFile(_ path: String) throws -> [UInt8] {
        let limit = EthereumKeystoreFile.maxFileBytes
        let data: Data
        if path == "-" {
            data = FileHandle.standardInput.readData(ofLength: limit + 1)
        } else {
            guard let handle = FileHandle(forReadingAtPath: path) else { throw CLIFailure("cannot read \(path)") }
            defer { try? handle.close() }
            data = handle.readData(ofLength: limit + 1)
        }
        guard data.count <= limit else { throw CLIFailure("\(path) is over \(limit) bytes") }
        return [UInt8](data)
    }
}

extension AccountReport {
    init(ethereum info: EthereumAccountInfo, directory: DataDirectory, publicKey: String = "") {
        address = info.address
        self.publicKey = publicKey
        scheme = "ethereum"
        name = info.name
        whenCreated = info.whenCreated
        genesisHash = nil
        isHidden = false
        file = directory.accountsPath + "/" + info.fileName
    }
}

extension AccountsAddCommand {
    /// `--chain ethereum`: an Ethereum keystore v3 file in the data directory, from a mnemonic (at
    /// `--index`/`--path`), a raw private key, a keystore file (`--keystore`, keeping its own
    /// password), or a new mnemonic printed once.
    func runEthereum() throws {
        guard genesisHash == nil else { throw CLIFailure("--genesis-hash is for Substrate accounts") }
        let directory = try dataDirectory.open()
        let store = AccountStore(directory: directory)
        if let keystoreFile {
            guard uri == nil else { throw CLIFailure("give a secret or --keystore, not both") }
            var bytes = try EthereumSecretInput.readKeystoreFile(keystoreFile)
            defer { for i in bytes.indices { bytes[i] = 0 } }
            let pw = try password.read(prompt: "Password of the Ethereum keystore file: ")
            let outcome = try keystore { try store.importEthereumFile(bytes, password: pw, name: name) }
            var report = AccountReport(ethereum: outcome.account, directory: directory)
            report.imported = outcome.imported
            if json {
                print(try AccountReport.json(report))
            } else {
                print(
                    "\(outcome.imported ? "Imported" : "Already present"): \(outcome.account.name ?? "account") "
                        + "\(outcome.account.address) (ethereum)")
            }
            return
        }
        var phrase: String?
        let pair: EthereumKeyPair
        if let uri {
            var text = try SecretInput.readAccountSecret(uri, prompt: "Ethereum private key (0x…) or mnemonic: ")
            defer { text = "" }
            if uri != "-" { warn("a secret on the command line can end up in shell history; use - next time") }
            pair = try EthereumSecretInput.keyPair(text, index: index, path: path).0
        } else {
            let mnemonic = try Mnemonic.generate(wordCount: words)
            phrase = mnemonic.exposedPhrase()
            pair = try EthereumSecretInput.keyPair(mnemonic.exposedPhrase(), index: index, path: path).0
        }
        let pw = try password.read(prompt: "New password for the account: ", confirm: true)
        let info = try keystore { try store.addEthereum(pair, name: name, password: pw) }
        var report = AccountReport(
            ethereum: info, directory: directory, publicKey: Hex.encode(pair.uncompressedPublicKey))
        report.secretPhrase = phrase
        if json {
            print(try AccountReport.json(report))
            return
        }
        if let phrase {
            print("Secret phrase (write it down, it is not stored in clear and not shown again):\n  \(phrase)\n")
        }
        print("Added \(info.name ?? "account") \(info.address) (ethereum)")
    }
}
