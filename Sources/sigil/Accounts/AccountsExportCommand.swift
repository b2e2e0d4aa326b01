import ArgumentParser
import Foundation
import Keystore

/// `sigil accounts export ADDRESS [--out FILE]`: a keyring JSON file the polkadot-js extension,
/// Talisman and SubWallet import (scrypt N = 2^15, r = 8, p = 1; the account's own password).
/// `--all` writes every account into one batch file (`batch-pkcs8`, as the extension's "Export all").
struct AccountsExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Export an account (or --all) as a polkadot-js JSON file, encrypted with its password.")

    @Argument(help: "The account: SS58 address (any network), 0x public key, or its exact name.")
    var account: String?
    @Flag(name: .long, help: "Export every account into one batch file (all must share the password).")
    var all = false
    @Option(
        name: .long,
        help: ArgumentHelp("Write to this file (mode 0600) instead of standard output.", valueName: "file"))
    var out: String?
    @OptionGroup var dataDirectory: DataDirectoryOption
    @OptionGroup var password: PasswordOption
    @Option(name: .long, help: "ICON accounts: the key derivation of the exported file, scrypt (default) or pbkdf2.")
    var kdf: String = "scrypt"

    func validate() throws {
        guard ["scrypt", "pbkdf2"].contains(kdf) else { throw ValidationError("--kdf is scrypt or pbkdf2") }
        guard (account == nil) == all else { throw ValidationError("give an account or --all, not both") }
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
