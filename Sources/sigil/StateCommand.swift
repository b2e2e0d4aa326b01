import ArgumentParser
import Foundation
import Keystore
import StateStore

/// `sigil state check|reset`: the state database (connected sites, metadata, settings, journal) when
/// something went wrong with it (docs/deployment.md "A damaged state database").
struct StateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "state", abstract: "Check the state database, or set a damaged one aside.",
        subcommands: [Check.self, Reset.self])

    struct Check: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Run SQLite's quick_check on the state database (read-only). Exit 1 when it is damaged.")
        @OptionGroup var location: DataDirectoryOption

        func run() throws {
            let result = try location.open().checkState()
            for line in result.findings { print(line) }
            guard result.ok else {
                throw CLIFailure(
                    "the state database is damaged; `sigil state reset` keeps it aside and starts an empty state")
            }
        }
    }

    struct Reset: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract:
                "Move the state database aside (kept as state.damaged-<time>.sqlite) so that the next start creates an empty one. Accounts stay.",
            discussion: """
                Connected sites, stored metadata, settings and the journal start over; the accounts/ files are \
                not touched. Refused while `sigil serve` runs on the directory. The journal mirror \
                (--journal-mirror) keeps its checkpoints of the old journal.
                """)
        @OptionGroup var location: DataDirectoryOption
        @Flag(help: "Also when `sigil state check` finds nothing wrong.") var force = false

        func run() throws {
            let directory = try location.open()
            if !force, directory.checkState().ok {
                throw CLIFailure("the state database is not damaged (`sigil state check`); --force resets it anyway")
            }
            do {
                if let moved = try directory.setStateAside() {
                    print("Moved the state database to \(moved); the next start creates an empty one.")
                } else {
                    print("There is no state database in \(directory.path).")
                }
            } catch {
                throw CLIFailure(error)
            }
        }
    }
}
