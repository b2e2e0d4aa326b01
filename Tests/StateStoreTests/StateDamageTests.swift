import Foundation
import Keystore
import Primitives
import SigilTesting
import Testing

@testable import StateStore

/// A damaged state database gives a typed error naming the recovery, `checkState` reports it
/// without changing the file, and `setStateAside` moves it (with its log) out of the way only while
/// no server holds the directory.
@Suite struct StateDamageTests {
    static func damagedDirectory(_ damage: (String) throws -> Void) throws -> (TemporaryDirectory, DataDirectory) {
        let tmp = TemporaryDirectory()
        let dir = try DataDirectory.open(tmp.path)
        do {
            let store = try SQLiteStateStore(path: dir.databasePath)
            try store.setSetting("kept", to: "yes")
        }  // closed (and its log checkpointed) before the damage
        try damage(dir.databasePath)
        return (tmp, dir)
    }

    static let damages: [(String, @Sendable (String) throws -> Void)] = [
        (
            "garbage header",
            { path in try Data("not a database, not at all".utf8).write(to: URL(fileURLWithPath: path)) }
        ),
        (
            "zero page size",
            { path in
                let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
                try handle.seek(toOffset: 16)
                try handle.write(contentsOf: Data([0x00, 0x03]))
                try handle.close()
            }
        ),
    ]

    @Test(arguments: 0..<2)
    func aDamagedDatabaseIsATypedErrorThatNamesTheRecovery(index: Int) throws {
        let (name, damage) = Self.damages[index]
        let (tmp, dir) = try Self.damagedDirectory { path in
            for suffix in ["-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
            try damage(path)
        }
        defer { tmp.remove() }
        let before = try Data(contentsOf: URL(fileURLWithPath: dir.databasePath))
        let error = #expect(throws: StateStoreError.self, "\(name)") { try SQLiteStateStore(path: dir.databasePath) }
        #expect(error?.code == .databaseDamaged)
        #expect(error?.reason.contains("sigil state reset") == true)
        #expect(!dir.checkState().ok)
        #expect(try Data(contentsOf: URL(fileURLWithPath: dir.databasePath)) == before, "nothing rewrote the file")
    }

    @Test func anIntactDatabaseChecksOk() throws {
        let (tmp, dir) = try Self.damagedDirectory { _ in }
        defer { tmp.remove() }
        #expect(dir.checkState() == DataDirectory.StateCheck(ok: true, findings: ["ok"]))
    }

    @Test func settingAsideMovesTheDatabaseAndItsLogOnlyWithoutAServer() throws {
        let (tmp, dir) = try Self.damagedDirectory { _ in }
        defer { tmp.remove() }
        let lock = try dir.lockForServing()
        #expect(throws: StateStoreError(.dataDirectoryInUse, "")) { try dir.setStateAside(stamp: "x") }
        lock.unlock()
        let moved = try #require(try dir.setStateAside(stamp: "20260101-000000"))
        #expect(moved == dir.path + "/state.damaged-20260101-000000.sqlite")
        #expect(!FileManager.default.fileExists(atPath: dir.databasePath))
        // The copy opens with its log: the committed setting is there.
        #expect(try SQLiteStateStore(path: moved).setting("kept") == "yes")
        // The next store on the directory starts empty.
        #expect(try SQLiteStateStore(path: dir.databasePath).setting("kept") == nil)
        #expect(try dir.setStateAside(stamp: "y") != nil)
        #expect(try dir.setStateAside(stamp: "z") == nil)
    }
}
