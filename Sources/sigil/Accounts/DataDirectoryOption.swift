import ArgumentParser
import Foundation
import Keystore

/// `--data-dir PATH`: where accounts and state live. Default: `$SIGIL_DATA_DIR` (as `sigil serve`
/// reads it, so `sigil accounts` in a container finds the server's directory), else `$SIGIL_HOME`,
/// else `$XDG_DATA_HOME/sigil`, else `~/.local/share/sigil` (see `DataDirectory`).
struct DataDirectoryOption: ParsableArguments {
    @Option(
        name: .customLong("data-dir"),
        help: ArgumentHelp(
            "Data directory (default: $SIGIL_DATA_DIR, else $SIGIL_HOME, else $XDG_DATA_HOME/sigil, else ~/.local/share/sigil).",
            valueName: "path"))
    var dataDir: String?

    /// The resolved absolute path (nothing created).
    func path() throws -> String {
        do {
            let environment = ProcessInfo.processInfo.environment
            return try DataDirectory.resolve(
                explicit: dataDir ?? environment["SIGIL_DATA_DIR"].flatMap { $0.isEmpty ? nil : $0 },
                environment: environment)
        } catch {
            throw CLIFailure(error)
        }
    }

    /// Opens (creating with mode 0700 if needed) the data directory.
    func open() throws -> DataDirectory {
        do {
            return try DataDirectory.open(try path())
        } catch let error as KeystoreError {
            throw CLIFailure(error)
        }
    }
}
