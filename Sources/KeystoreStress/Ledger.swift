import Foundation
import Keystore
import SigningKeys
import StateStore

/// What the writers announced, per item: the last committed value and the values of changes that
/// were begun but whose commit was not announced (the process may have died before or after the
/// commit itself). Checked against the disk by `verify`.
struct Ledger {
    struct Entry {
        /// Last committed value; nil when never committed (absent). `-` means deleted.
        var committed: String?
        /// Values announced with `B` after the last `C`.
        var pending: [String] = []
    }

    /// Keyed by `kind key`.
    private(set) var entries: [String: Entry] = [:]
    private(set) var commits = 0
    private(set) var interrupted = 0

    /// Feeds a writer's output. A trailing partial line cannot happen (one write per line) but is ignored.
    mutating func feed(_ output: String) {
        for line in output.split(separator: "\n") {
            let parts = line.split(separator: " ", maxSplits: 3).map(String.init)
            guard parts.count == 4 else { continue }
            let id = parts[1] + " " + parts[2]
            var entry = entries[id] ?? Entry()
            if parts[0] == "B" {
                entry.pending.append(parts[3])
            } else if parts[0] == "C" {
                entry.committed = parts[3]
                entry.pending.removeAll()
                commits += 1
            }
            entries[id] = entry
        }
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// Checks the data directory against the ledger, then adopts what is on disk as committed.
    /// - Returns: the number of items checked.
    mutating func verify(_ path: String) throws -> Int {
        var problems: [String] = []
        let directory = try DataDirectory.open(path)  // also removes dead writers' temporary files
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: directory.accountsPath)
            .filter { $0.contains(".tmp-") }
        if !leftovers.isEmpty { problems.append("temporary files left: \(leftovers)") }
        let store = AccountStore(directory: directory)
        let (accounts, fileProblems) = try store.list()
        for p in fileProblems { problems.append("unreadable account file \(p.fileName): \(p.reason)") }
        let state = try SQLiteStateStore(path: directory.databasePath)
        problems += try state.integrityProblems().map { "sqlite: \($0)" }
        // A reader following the numbered site changes (as `sigil serve` does) sees the same sites.
        let feed = try state.siteChanges(after: 0)
        if feed.changes.compactMap(\.site).sorted(by: { $0.origin < $1.origin }) != (try state.connectedSites()) {
            problems.append("sqlite: the site change feed disagrees with the site table")
        }

        var actual: [String: String] = [:]
        var byFile: [String: AccountInfo] = [:]
        for a in accounts {
            byFile[a.fileName] = a
            actual["account " + a.fileName] = "\(a.name ?? "")|\(try StressWriter.fileHash(directory, a.fileName))"
        }
        for s in try state.connectedSites() {
            actual["site " + s.origin] = s.accounts.isEmpty ? "none" : s.accounts.joined(separator: ",")
        }
        for m in try state.allMetadata() {
            actual["meta " + m.genesisHash] = "\(m.specVersion):\(fastHash(m.metadata).hexString)"
        }
        for (k, v) in try state.allSettings() { actual["setting " + k] = v }

        let password = Passphrase(StressWriter.password)
        for (id, entry) in entries {
            let kind = id.split(separator: " ").first.map(String.init) ?? ""
            let onDisk = actual[id]
            let committed = entry.committed == "-" ? nil : entry.committed
            var acceptable: [String?] = [committed]
            for p in entry.pending { acceptable.append(p == "-" ? nil : p) }
            let matches: Bool
            if kind == "account" {
                // Pending account changes carry no hash (it is only known after the write): compare names.
                let name = onDisk.map { String($0.split(separator: "|").first ?? "") }
                let exact = onDisk == committed
                let pendingName = entry.pending.contains { String($0.split(separator: "|").first ?? "") == name }
                let committedName = committed.map { String($0.split(separator: "|").first ?? "") }
                matches =
                    exact || (onDisk != nil && !entry.pending.isEmpty && (pendingName || name == committedName))
                    || (onDisk == nil && (committed == nil || entry.pending.contains("-")))
                if let file = id.split(separator: " ").last.map(String.init), let info = byFile[file],
                    !exact || entry.pending.count > 0 || committed == nil
                {
                    // New or changed since the last check: prove it decrypts to its own key.
                    do { _ = try store.unlock(info, password: password) } catch {
                        problems.append("\(id): does not unlock: \(error)")
                    }
                }
            } else {
                matches = acceptable.contains(onDisk)
            }
            if !matches {
                problems.append(
                    "\(id): on disk \(onDisk ?? "absent"), committed \(committed ?? "absent"), pending \(entry.pending)"
                )
            }
            if !entry.pending.isEmpty { interrupted += 1 }
        }
        for id in actual.keys where entries[id] == nil {
            problems.append("\(id): on disk but never announced")
        }
        guard problems.isEmpty else { throw Failure(description: problems.joined(separator: "\n")) }
        // Adopt the disk as the new committed state.
        var adopted: [String: Entry] = [:]
        for (id, entry) in entries {
            let value = actual[id] ?? (entry.committed == nil && entry.pending.isEmpty ? nil : "-")
            adopted[id] = Entry(committed: value, pending: [])
        }
        entries = adopted
        return actual.count
    }
}
