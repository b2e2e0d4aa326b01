import ArgumentParser
import Keystore

/// `sigil accounts list`: every stored account (no password needed: names and addresses are not
/// encrypted in the keyring format).
struct AccountsListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "List the stored accounts.")

    @OptionGroup var dataDirectory: DataDirectoryOption
    @Flag(name: .long, help: "Print JSON.") var json = false
    @Option(name: .long, help: "polkadot (default) or icp (Internet Computer identities).") var chain = "polkadot"

    func validate() throws {
        guard ["polkadot", "icp"].contains(chain) else { throw ValidationError("--chain must be polkadot or icp") }
    }

    func run() throws {
        if chain == "icp" { return try listIcp() }
        let directory = try dataDirectory.open()
        let (accounts, problems) = try keystore { try AccountStore(directory: directory).list() }
        for problem in problems { warn("skipped \(problem.fileName): \(problem.reason)") }
        let reports = accounts.map { AccountReport($0, directory: directory) }
        print(json ? try AccountReport.json(reports) : AccountReport.table(reports))
    }
}
