import ArgumentParser
import Keystore

/// `sigil accounts list`: every stored account (no password needed: names and addresses are not
/// encrypted in the keyring format).
struct AccountsListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "List the stored accounts.")

    @OptionGroup var dataDirectory: DataDirectoryOption
    @Flag(name: .long, help: "Print JSON.") var json = false
    @Option(
        name: .long,
        help:
            "polkadot (default: polkadot, ICON and Ethereum accounts), icon or ethereum (the same list) or icp (Internet Computer identities)."
    )
    var chain: AccountChain = .polkadot

    func run() throws {
        if chain == .icp { return try listIcp() }
        let directory = try dataDirectory.open()
        let (accounts, problems) = try keystore { try AccountStore(directory: directory).list() }
        for problem in problems { warn("skipped \(problem.fileName): \(problem.reason)") }
        let (icon, iconProblems) = try keystore { try AccountStore(directory: directory).listIcon() }
        for problem in iconProblems { warn("skipped \(problem.fileName): \(problem.reason)") }
        let (ethereum, ethereumProblems) = try keystore { try AccountStore(directory: directory).listEthereum() }
        for problem in ethereumProblems { warn("skipped \(problem.fileName): \(problem.reason)") }
        let reports =
            accounts.map { AccountReport($0, directory: directory) }
            + icon.map { AccountReport(icon: $0, directory: directory) }
            + ethereum.map { AccountReport(ethereum: $0, directory: directory) }
        print(json ? try AccountReport.json(reports) : AccountReport.table(reports))
    }
}
