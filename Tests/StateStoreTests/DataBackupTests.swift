import Foundation
import Journal
import Keystore
import Primitives
import SigilTesting
import Testing

@testable import StateStore

/// `sigil backup` / `sigil restore` (docs/deployment.md "Back up and restore"): the manifest's
/// checks, the refusals, and a round trip whose journal verifies.
@Suite struct DataBackupTests {
    static func temporaryDirectory() throws -> String {
        let path = FileManager.default.temporaryDirectory.path + "/sigil-backup-test-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// A data directory with one account file, one ICP identity file and a journal of `count` entries
    /// (checkpointed with `JournalTests.key`; the key file itself is covered by scripts/test.d/25-backup.sh).
    static func populated(count: Int = 25) throws -> DataDirectory {
        let directory = try DataDirectory.open(try temporaryDirectory() + "/data")
        let store = try JournalTests.journal(at: directory.databasePath, count: count)
        _ = store
        try AtomicFile.write(Array("{\"address\":\"5Account\"}".utf8), to: directory.accountsPath + "/0xabc.json")
        try FileManager.default.createDirectory(atPath: directory.path + "/icp", withIntermediateDirectories: false)
        try AtomicFile.write(Array("{\"identity\":1}".utf8), to: directory.path + "/icp/ab.json")
        return directory
    }

    @Test(arguments: [
        ("state.sqlite", true), ("journal-key.json", true), ("accounts/0xabc.json", true), ("icp/ab.json", true),
        ("accounts/../x", false), ("../state.sqlite", false), ("accounts/.hidden", false), ("accounts/a/b", false),
        ("/etc/passwd", false), ("serve.lock", false), ("approval-url", false), ("accounts/", false),
        ("other/x", false), ("accounts/a\\b", false),
    ])
    func onlyDataDirectoryFilesMayBeNamed(path: String, allowed: Bool) {
        #expect(BackupManifest.isAllowedPath(path) == allowed, "\(path)")
    }

    @Test func aManifestIsCheckedBeforeUse() throws {
        let good = BackupManifest(
            format: BackupManifest.currentFormat, created: "2026-01-01T00:00:00Z", source: "/data",
            files: [.init(path: "state.sqlite", bytes: 3, sha256: String(repeating: "a", count: 64))],
            journalEntries: 1, journalHeadSeq: 1)
        #expect(try BackupManifest.parse(try good.encoded(), path: "m") == good)
        var traversal = good
        traversal.files[0].path = "../../etc/shadow"
        #expect(throws: StateStoreError(.malformedFile, "")) {
            try BackupManifest.parse(try traversal.encoded(), path: "m")
        }
        var twice = good
        twice.files.append(twice.files[0])
        #expect(throws: StateStoreError(.malformedFile, "")) { try BackupManifest.parse(try twice.encoded(), path: "m") }
        var badHash = good
        badHash.files[0].sha256 = "XYZ"
        #expect(throws: StateStoreError(.malformedFile, "")) {
            try BackupManifest.parse(try badHash.encoded(), path: "m")
        }
        var future = good
        future.format = "sigil-backup-9"
        #expect(throws: StateStoreError(.unsupportedFormat, "")) {
            try BackupManifest.parse(try future.encoded(), path: "m")
        }
        #expect(throws: StateStoreError(.malformedFile, "")) { try BackupManifest.parse(Array("[1]".utf8), path: "m") }
    }

    @Test func aBackupRestoresIntoAnEmptyDirectoryAndItsJournalVerifies() throws {
        let source = try Self.populated(count: 25)
        let backup = try Self.temporaryDirectory() + "/backup"
        let manifest = try source.backup(to: backup)
        #expect(manifest.journalEntries == 26 && manifest.journalHeadSeq == 26)
        #expect(Set(manifest.files.map(\.path)) == ["state.sqlite", "accounts/0xabc.json", "icp/ab.json"])
        #expect(try DataDirectory.verifyBackup(at: backup) == manifest)
        // A second backup into the same (now non-empty) directory is refused.
        #expect(throws: StateStoreError(.invalidInput, "")) { try source.backup(to: backup) }

        let target = try DataDirectory.open(try Self.temporaryDirectory() + "/restored")
        let result = try target.restore(from: backup, replace: false)
        #expect(result.journal.isValid && result.journal.entries == 26 && result.setAside == nil)
        #expect(try SQLiteStateStore(path: target.databasePath).journalCount() == 26)
        #expect(FileManager.default.fileExists(atPath: target.accountsPath + "/0xabc.json"))
    }

    @Test func restoreIsRefusedWhileServeHoldsTheDirectory() throws {
        let source = try Self.populated(count: 3)
        let backup = try Self.temporaryDirectory() + "/backup"
        _ = try source.backup(to: backup)
        let running = try source.lockForServing()
        #expect(throws: StateStoreError(.dataDirectoryInUse, "")) { try source.restore(from: backup, replace: true) }
        running.unlock()
        // Stopped, with data in place: refused without --replace, then moved aside with it.
        #expect(throws: StateStoreError(.invalidInput, "")) { try source.restore(from: backup, replace: false) }
        let result = try source.restore(from: backup, replace: true)
        let aside = try #require(result.setAside)
        #expect(FileManager.default.fileExists(atPath: aside + "/state.sqlite"))
        #expect(FileManager.default.fileExists(atPath: aside + "/accounts/0xabc.json"))
        #expect(result.journal.isValid)
    }

    @Test func aTamperedBackupIsRefusedBeforeAnythingChanges() throws {
        let source = try Self.populated(count: 3)
        let backup = try Self.temporaryDirectory() + "/backup"
        _ = try source.backup(to: backup)
        try AtomicFile.write(Array("{\"address\":\"5Other\"}".utf8), to: backup + "/accounts/0xabc.json")
        let target = try DataDirectory.open(try Self.temporaryDirectory() + "/restored")
        #expect(throws: StateStoreError(.databaseDamaged, "")) { try target.restore(from: backup, replace: false) }
        #expect(try target.existingData().isEmpty)
        // No manifest: not a backup.
        let empty = try Self.temporaryDirectory()
        #expect(throws: StateStoreError(.invalidInput, "")) { try target.restore(from: empty, replace: false) }
    }
}
