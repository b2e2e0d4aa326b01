import ArgumentParser
import Foundation
import Gateway
import Keystore
import Primitives
import StateStore

/// `sigil origins list|revoke`: the sites connected to Sigil (kept in the data directory's state), for
/// every protocol: one grant book holds Polkadot and ICON connections and Internet Computer (ICRC-25)
/// grants alike; a site's ICRC scopes are listed with it. A running `sigil serve` on the same data
/// directory picks a revocation up within a second, pushes an empty account list to the site's open
/// tabs and ends its ICRC scopes.
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
            let store = try location.store()
            let sites = try store.connectedSites()
            let icrc = StateStoreIcrcPermissions(store: store)
            if json {
                let listed = try sites.map { site -> JSONValue in
                    guard case .object(var object) = try JSONValueEncoder().encode(site) else { return .null }
                    object["icrcScopes"] = .array(try icrc.grantedScopes(site.origin).map(JSONValue.string))
                    return .object(object)
                }
                print(JSONValue.array(listed).serialized([.pretty, .sortedKeys]))
                return
            }
            if sites.isEmpty { print("No site is connected.") }
            for site in sites {
                print("\(site.origin)  (\(site.name))  \(site.accounts.count) account(s)")
                for account in site.accounts { print("    \(account)") }
                let scopes = try icrc.grantedScopes(site.origin)
                if !scopes.isEmpty { print("    Internet Computer: \(scopes.joined(separator: ", "))") }
            }
        }
    }

    struct Revoke: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Disconnect a site (exact origin, e.g. https://app.example).")
        @OptionGroup var location: Location
        @Argument(help: "The site's origin as listed.") var origin: String

        func run() async throws {
            let store = try location.store()
            let icrc = StateStoreIcrcPermissions(store: store)
            // ICRC scopes recorded outside the grant book (an earlier version) are revoked as well.
            let hadScopes =
                try !(icrc.grantedScopes(origin).isEmpty)
                || store.setting(StateStoreIcrcPermissions.legacyKey(origin)) != nil
            let revoked = try await store.revoke(origin: origin) != nil
            try await icrc.clear(origin)
            guard revoked || hadScopes else {
                throw ValidationError("\(origin) is not connected (see `sigil origins list`)")
            }
            print("Revoked \(origin).")
        }
    }
}
