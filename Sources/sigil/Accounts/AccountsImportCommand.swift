import ArgumentParser
import Foundation
import Keystore
import SigningKeys

/// `sigil accounts import FILE|-`: a polkadot-js / Talisman / SubWallet JSON export (one account or a
/// batch), or a file holding a mnemonic or secret URI.
struct AccountsImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Import a JSON export (single or batch) or a mnemonic / secret URI from a file or stdin.",
        discussion: """
            JSON exports keep their own password: you are asked for the password they were exported \
            with. Accounts of a batch encrypted with another password are asked for one by one \
            (with --password-file the import stops instead, changing nothing). A file that is not JSON \
            is read as a mnemonic or secret URI and encrypted with a new password. Nothing is written \
            unless every account in the file decrypts and matches its address.
            """)

    @Argument(help: "The file to import, or - for standard input.") var file: String
    @Option(name: .long, help: "Name for an account imported from a mnemonic or URI.") var name: String?
    @OptionGroup var scheme: SchemeOption
    @Option(
        name: .long,
        help:
            "icon: read a mnemonic/secret-key file as an ICON account (ICON keystore files are recognised); ethereum: an Ethereum keystore v3 file, mnemonic or private key."
    )
    var chain: AccountChain = .polkadot
    @Option(
        name: .long, help: "ICON, Ethereum: the address index n of m/44'/74'/0'/0/n or m/44'/60'/0'/0/n for a mnemonic."
    )
    var index: UInt32 = 0
    @Option(name: .long, help: "Restrict a mnemonic/URI account to one chain (0x genesis hash).") var genesisHash:
        String?
    @OptionGroup var dataDirectory: DataDirectoryOption
    @OptionGroup var password: PasswordOption
    @Flag(name: .long, help: "Print JSON.") var json = false

    func run() throws {
        var data = try readInput()
        defer { data.resetBytes(in: 0..<data.count) }
        let directory = try dataDirectory.open()
        let store = AccountStore(directory: directory)
        let firstByte = data.first { !($0 == 0x20 || $0 == 0x0a || $0 == 0x0d || $0 == 0x09) }
        var reports: [AccountReport] = []
        if firstByte == UInt8(ascii: "{"), IconKeystoreFile.looksLikeIconFile([UInt8](data)) {
            // An ICON keystore file (ICONex, Hana, iconsdk): it keeps its own password.
            let pw = try password.read(prompt: "Password of the ICON keystore file: ")
            let outcome = try keystore { try store.importIconFile([UInt8](data), password: pw, name: name) }
            var report = AccountReport(icon: outcome.account, directory: directory)
            report.imported = outcome.imported
            reports.append(report)
        } else if chain == .ethereum {
            reports.append(try importEthereum(data, store: store, directory: directory))
        } else if chain == .icon {
            var text = String(decoding: data, as: UTF8.self)
            defer { text = "" }
            let pair = try IconSecretInput.keyPair(text, index: index, path: nil)
            let pw = try password.read(prompt: "New password for the account: ", confirm: true)
            let info = try keystore { try store.addIcon(pair, name: name, password: pw) }
            var report = AccountReport(icon: info, directory: directory)
            report.imported = true
            reports.append(report)
        } else if firstByte == UInt8(ascii: "{") {
            let parsed = try keystore { try KeyringJSON.parse(data) }
            let prompt =
                parsed.isEncrypted
                ? "Password of the export: " : "The file is not encrypted. New password for the account: "
            let pw = try password.read(prompt: prompt, confirm: !parsed.isEncrypted)
            let interactive = password.passwordFile == nil
            let outcomes = try keystore {
                try store.importJSON(data, password: pw) { account in
                    guard interactive else { return nil }
                    note("Account \(account.name ?? "") \(account.address) uses another password.")
                    return try? PasswordInput.fromTerminal(prompt: "Its password: ", confirm: false)
                }
            }
            for outcome in outcomes {
                var report = AccountReport(outcome.account, directory: directory)
                report.imported = outcome.imported
                reports.append(report)
            }
        } else {
            var text = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            defer { text = "" }
            let pw = try password.read(prompt: "New password for the account: ", confirm: true)
            let info = try keystore {
                try store.importSecretURI(
                    text, scheme: scheme.scheme, name: name, genesisHash: genesisHash, password: pw)
            }
            var report = AccountReport(info, directory: directory)
            report.imported = true
            reports.append(report)
        }
        if json {
            print(try AccountReport.json(reports))
        } else {
            for r in reports {
                print(
                    "\(r.imported == true ? "Imported" : "Already present"): \(r.name ?? "") \(r.address) (\(r.scheme))"
                )
            }
        }
    }

    /// `--chain ethereum`: a keystore v3 file (its own password) or a mnemonic / private key (a new password).
    private func importEthereum(_ data: Data, store: AccountStore, directory: DataDirectory) throws -> AccountReport {
        if data.first(where: { !($0 == 0x20 || $0 == 0x0a || $0 == 0x0d || $0 == 0x09) }) == UInt8(ascii: "{") {
            let pw = try password.read(prompt: "Password of the Ethereum keystore file: ")
            let outcome = try keystore { try store.importEthereumFile([UInt8](data), password: pw, name: name) }
            var report = AccountReport(ethereum: outcome.account, directory: directory)
            report.imported = outcome.imported
            return report
        }
        var text = String(decoding: data, as: UTF8.self)
        defer { text = "" }
        let pair = try EthereumSecretInput.keyPair(text, index: index, path: nil).0
        let pw = try password.read(prompt: "New password for the account: ", confirm: true)
        let info = try keystore { try store.addEthereum(pair, name: name, password: pw) }
        var report = AccountReport(ethereum: info, directory: directory)
        report.imported = true
        return report
    }

    private func readInput() throws -> Data {
        let limit = KeyringJSON.maxFileBytes
        if file == "-" {
            let data = FileHandle.standardInput.readData(ofLength: limit + 1)
            guard data.count <= limit else { throw CLIFailure("standard input is over \(limit) bytes") }
            return data
        }
        guard let handle = FileHandle(forReadingAtPath: file) else { throw CLIFailure("cannot read \(file)") }
        defer { try? handle.close() }
        let data = handle.readData(ofLength: limit + 1)
        guard data.count <= limit else { throw CLIFailure("\(file) is over \(limit) bytes") }
        return data
    }
}
