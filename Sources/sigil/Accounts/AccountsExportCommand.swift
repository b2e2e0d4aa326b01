import ArgumentParser
import Foundation
import Keystore

/// `sigil accounts export ADDRESS [--out FILE]`: a keyring JSON file the polkadot-js extension,
/// Talisman and SubWallet import (scrypt N = 2^15, r = 8, p = 1; the account's own password).
struct AccountsExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Export an account as a polkadot-js JSON file (encrypted with the account's password).")

    @Argument(help: "The account: SS58 address (any network), 0x public key, or its exact name.") var account: String
    @Option(
        name: .long, help: ArgumentHelp("Write to this file (mode 0600) instead of standard output.", valueName: "file")
    )
    var out: String?
    @OptionGroup var dataDirectory: DataDirectoryOption
    @OptionGroup var password: PasswordOption

    func run() throws {
        let directory = try dataDirectory.open()
        let store = AccountStore(directory: directory)
        let info = try keystore { try store.find(account) }
        let pw = try password.read(prompt: "Password of \(info.name ?? info.address): ")
        let data = try keystore { try store.export(info.address, password: pw) }
        if let out {
            try keystore { try AtomicFile.write([UInt8](data), to: out) }
            note("Exported \(info.address) to \(out)")
        } else {
            FileHandle.standardOutput.write(data)
        }
    }
}
