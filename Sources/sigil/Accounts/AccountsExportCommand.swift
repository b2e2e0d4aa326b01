import ArgumentParser
import Foundation
import Keystore

/// `sigil accounts export ADDRESS [--out FILE]`: a keyring JSON file the polkadot-js extension,
/// Talisman and SubWallet import (scrypt N = 2^15, r = 8, p = 1; the account's own password).
/// `--all` writes every account into one batch file (`batch-pkcs8`, as the extension's "Export all").
/// ICON accounts give an ICON keystore file, Ethereum accounts (`--chain ethereum`, or found by
/// address or name) a keystore v3 file geth, eth-keyfile and ethers load.
struct AccountsExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract:
            "Export an account (or --all) as a polkadot-js JSON file (ICON, Ethereum: a keystore file), encrypted with its password."
    )

    @Argument(
        help: "The account: SS58 address (any network), 0x public key, hx or 0x Ethereum address, or its exact name.")
    var account: String?
    @Flag(name: .long, help: "Export every account into one batch file (all must share the password).")
    var all = false
    @Option(
        name: .long,
        help: ArgumentHelp("Write to this file (mode 0600) instead of standard output.", valueName: "file"))
    var out: String?
    @OptionGroup var dataDirectory: DataDirectoryOption
    @OptionGroup var password: PasswordOption
    @Option(
        name: .long,
        help: "ICON and Ethereum accounts: the key derivation of the exported file, scrypt (default) or pbkdf2.")
    var kdf: String = "scrypt"
    @Option(
        name: .long,
        help:
            "ethereum: export an Ethereum account as a keystore v3 file (geth, eth-keyfile, ethers, MetaMask); found by address without it too."
    )
    var chain: AccountChain = .polkadot

    func validate() throws {
        guard ["scrypt", "pbkdf2"].contains(kdf) else { throw ValidationError("--kdf is scrypt or pbkdf2") }
        guard (account == nil) == all else { throw ValidationError("give an account or --all, not both") }
        if all && chain != .polkadot { throw ValidationError("--all exports polkadot-js accounts only") }
        if chain == .icp { throw ValidationError("ICP identities are not exported here") }
    }

    func run() throws {
        let directory = try dataDirectory.open()
        let store = AccountStore(directory: directory)
        let data: Data
        let what: String
        if all {
            let accounts = try keystore { try store.list().accounts }
            guard !accounts.isEmpty else { throw CLIFailure("no accounts to export") }
            let pw = try password.read(prompt: "Password of the accounts: ")
            data = try keystore { try store.exportBatch(accounts.map(\.address), password: pw) }
            what = "\(accounts.count) accounts"
        } else if chain == .ethereum || (try? store.findEthereum(account ?? "")) != nil {
            // An Ethereum account: a keystore v3 file (scrypt N = 2^17, r = 8, p = 1, or pbkdf2 with
            // c = 262,144, eth-keyfile's and geth's default).
            let info = try keystore { try store.findEthereum(account ?? "") }
            let pw = try password.read(prompt: "Password of \(info.name ?? info.address): ")
            let method: EthereumKeystoreFile.KDF =
                kdf == "pbkdf2" ? .pbkdf2(iterations: 262_144) : EthereumKeystoreFile.defaultKDF
            data = Data(try keystore { try store.exportEthereum(info.address, password: pw, kdf: method) })
            what = info.address
        } else if let icon = try? store.findIcon(account ?? "") {
            // An ICON account: an ICON keystore file (ICONex, Hana and the ICON SDKs load it).
            let pw = try password.read(prompt: "Password of \(icon.name ?? icon.address): ")
            let method: IconKeystoreFile.KDF =
                kdf == "pbkdf2" ? .pbkdf2(iterations: 16384) : IconKeystoreFile.defaultKDF
            data = Data(try keystore { try store.exportIcon(icon.address, password: pw, kdf: method) })
            what = icon.address
        } else {
            let info = try keystore { try store.find(account ?? "") }
            let pw = try password.read(prompt: "Password of \(info.name ?? info.address): ")
            data = try keystore { try store.export(info.address, password: pw) }
            what = info.address
        }
        if let out {
            try keystore { try AtomicFile.write([UInt8](data), to: out) }
            note("Exported \(what) to \(out)")
        } else {
            FileHandle.standardOutput.write(data)
        }
    }
}
