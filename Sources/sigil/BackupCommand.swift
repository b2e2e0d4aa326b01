import ArgumentParser
import Foundation
import Journal
import Keystore
import StateStore

/// `sigil backup DIR`: a consistent copy of the data directory while `sigil serve` runs
/// (docs/deployment.md "Back up").
struct BackupCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "backup",
        abstract: "Copy the data directory (state and journal, accounts, journal key) into a new directory.",
        discussion: """
            Safe while `sigil serve` runs: the state database (connected sites, settings, metadata and the \
            signing journal) is copied with SQLite's online backup as one consistent snapshot; account files \
            are copied under the accounts lock. DIR must not exist or be empty. The manifest \
            sigil-backup.json, written last, lists every file with its SHA-256. The copy holds the encrypted \
            key files: keep it as carefully as the data directory.
            """)
    @OptionGroup var location: DataDirectoryOption
    @Argument(help: ArgumentHelp("New or empty directory to write the backup into.", valueName: "dir"))
    var directory: String
    @Flag(help: "Print the manifest as JSON.") var json = false

    func run() throws {
        let started = ContinuousClock.now
        let manifest: BackupManifest
        do {
            manifest = try location.open().backup(to: absolute(directory))
        } catch {
            throw CLIFailure.storage(error)
        }
        if json {
            do {
                print(String(decoding: try manifest.encoded(), as: UTF8.self), terminator: "")
            } catch {
                throw CLIFailure(error)
            }
            return
        }
        let bytes = manifest.files.reduce(0) { $0 + $1.bytes }
        print(
            "Backed up \(manifest.source) into \(absolute(directory)): \(manifest.files.count) files, \(bytes) bytes; "
                + "journal \(manifest.journalEntries) entries (head \(manifest.journalHeadSeq)).")
        print(String(format: "Took %.3f s. Manifest: %@", seconds(since: started), BackupManifest.fileName))
    }
}

/// `sigil restore DIR`: the backup in DIR into the data directory, refused while `sigil serve` runs
/// on it; the journal is verified afterwards (docs/deployment.md "Restore").
struct RestoreCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "restore",
        abstract: "Restore a backup made by `sigil backup` into the data directory, then verify its journal.",
        discussion: """
            Refused while `sigil serve` runs on the data directory (its serve.lock). Every file is checked \
            against the manifest's SHA-256 before anything changes. A data directory that already holds data \
            is refused unless --replace, which moves that data into before-restore-<time>/ inside it. \
            Afterwards the journal is verified as `sigil journal verify` does; exit 1 when it does not verify.
            """)
    @OptionGroup var location: DataDirectoryOption
    @Argument(help: ArgumentHelp("A directory written by `sigil backup`.", valueName: "dir"))
    var directory: String
    @Flag(help: "Move the data already in the data directory aside instead of refusing.") var replace = false

    func run() throws {
        let result: RestoreResult
        do {
            result = try location.open().restore(from: absolute(directory), replace: replace)
        } catch {
            throw CLIFailure.storage(error)
        }
        if let aside = result.setAside { print("The data that was there is kept in \(aside).") }
        print(
            "Restored \(result.manifest.files.count) files from \(absolute(directory)) "
                + "(backup of \(result.manifest.source) made \(result.manifest.created)).")
        let journal = result.journal
        if let problem = journal.firstProblem {
            print("The journal does NOT verify: \(journal.entries) entries (head \(journal.headSeq)).")
            print("First problem: \(problem)")
            throw ExitCode(1)
        }
        print(
            "The journal verifies: \(journal.entries) entries (head \(journal.headSeq)), \(journal.checkpoints) checkpoints."
        )
    }
}

private func absolute(_ path: String) -> String {
    path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
}

private func seconds(since start: ContinuousClock.Instant) -> Double {
    let elapsed = ContinuousClock.now - start
    return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
}
