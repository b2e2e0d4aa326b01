import ArgumentParser
import Foundation
import Keystore
import Primitives

/// `sigil origins list|revoke`: the sites connected to Sigil (kept in the data directory's state).
/// A running `sigil serve` on the same data directory picks a revocation up within a second and
/// pushes an empty account list to the site's open tabs.
struct OriginsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "origins", abstract: "List or revoke the sites connected to Sigil.",
        subcommands: [List.self, Revoke.self, BlindSigning.self])

    struct Location: ParsableArguments {
        @Option(
            name: .customLong("data-dir"),
            help: "Data directory (default: $SIGIL_DATA_DIR, $SIGIL_HOME or ~/.local/share/sigil).")
        var dataDir: String?

        func store() throws -> SQLiteStateStore {
            let environment = ProcessInfo.processInfo.environment
            let path = try DataDirectory.resolve(
                explicit: dataDir ?? environment["SIGIL_DATA_DIR"].flatMap { $0.isEmpty ? nil : $0 },
                environment: environment)
            return try SQLiteStateStore(path: try DataDirectory.open(path).databasePath)
        }
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List connected sites and how many accounts each sees.")
        @OptionGroup var location: Location
        @Flag(help: "Print JSON.") var json = false

        func run() throws {
            let sites = try location.store().connectedSites()
            if json {
                print(try JSONValueEncoder().encode(sites).serialized([.pretty, .sortedKeys]))
                return
            }
            if sites.isEmpty { print("No site is connected.") }
            for site in sites {
                print("\(site.origin)  (\(site.name))  \(site.accounts.count) account(s)")
                for account in site.accounts { print("    \(account)") }
            }
        }
    }

    struct Revoke: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Disconnect a site (exact origin, e.g. https://app.example).")
        @OptionGroup var location: Location
        @Argument(help: "The site's origin as listed.") var origin: String

        func run() throws {
            guard try location.store().revoke(origin: origin) != nil else {
                throw ValidationError("\(origin) is not connected (see `sigil origins list`)")
            }
            print("Revoked \(origin).")
        }
    }
}
