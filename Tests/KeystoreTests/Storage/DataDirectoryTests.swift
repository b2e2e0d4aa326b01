import Foundation
import Primitives
import SigilTesting
import Testing

@testable import Keystore

@Suite struct DataDirectoryTests {
    @Test func theExplicitPathWinsThenSigilHomeThenXdgThenHome() throws {
        let env = ["SIGIL_HOME": "/s", "XDG_DATA_HOME": "/x", "HOME": "/h"]
        #expect(try DataDirectory.resolve(explicit: "/e/", environment: env) == "/e")
        #expect(try DataDirectory.resolve(explicit: nil, environment: env) == "/s")
        #expect(
            try DataDirectory.resolve(explicit: nil, environment: ["XDG_DATA_HOME": "/x", "HOME": "/h"]) == "/x/sigil")
        #expect(
            try DataDirectory.resolve(explicit: nil, environment: ["XDG_DATA_HOME": "rel", "HOME": "/h"])
                == "/h/.local/share/sigil")
        #expect(try DataDirectory.resolve(explicit: "~/d", environment: ["HOME": "/h"]) == "/h/d")
        #expect(throws: KeystoreError(.invalidInput, "")) { try DataDirectory.resolve(explicit: nil, environment: [:]) }
    }

    @Test func openingCreatesOwnerOnlyDirectories() throws {
        let tmp = TemporaryDirectory()
        defer { tmp.remove() }
        let dir = try DataDirectory.open(tmp.path + "/a/b/sigil")
        #expect(try DataDirectory.permissions(of: dir.path) == 0o700)
        #expect(try DataDirectory.permissions(of: dir.accountsPath) == 0o700)
    }

    @Test func anExistingGroupReadableDirectoryIsTightened() throws {
        let tmp = TemporaryDirectory()
        defer { tmp.remove() }
        try FileManager.default.createDirectory(atPath: tmp.path, withIntermediateDirectories: true)
        chmod(tmp.path, 0o755)
        _ = try DataDirectory.open(tmp.path)
        #expect(try DataDirectory.permissions(of: tmp.path) == 0o700)
    }

    @Test func aSharedNonEmptyDirectoryThatIsNotOursIsRefusedNotChmodded() throws {
        let tmp = TemporaryDirectory()
        defer { tmp.remove() }
        try FileManager.default.createDirectory(atPath: tmp.path, withIntermediateDirectories: true)
        #expect(FileManager.default.createFile(atPath: tmp.path + "/notes.txt", contents: Data("x".utf8)))
        chmod(tmp.path, 0o755)
        #expect(throws: KeystoreError(.permissions, "")) { try DataDirectory.open(tmp.path) }
        #expect(try DataDirectory.permissions(of: tmp.path) == 0o755)
    }

    @Test func aSymlinkedDataDirectoryIsRefused() throws {
        let tmp = TemporaryDirectory()
        defer { tmp.remove() }
        try FileManager.default.createDirectory(atPath: tmp.path + "/real", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: tmp.path + "/link", withDestinationPath: tmp.path + "/real")
        #expect(throws: KeystoreError(.permissions, "")) { try DataDirectory.open(tmp.path + "/link") }
    }

    @Test func atomicWritesProduceOwnerOnlyFilesAndReplaceWholeContents() throws {
        let tmp = TemporaryDirectory()
        defer { tmp.remove() }
        let dir = try DataDirectory.open(tmp.path)
        let path = dir.accountsPath + "/x.json"
        try AtomicFile.write(Array("first version, longer".utf8), to: path)
        try AtomicFile.write(Array("second".utf8), to: path)
        #expect(try DataDirectory.permissions(of: path) == 0o600)
        #expect(try POSIX.readFile(path, limit: 100) == Array("second".utf8))
        #expect(try POSIX.listDirectory(dir.accountsPath) == ["x.json"], "no temporary file left behind")
        #expect(try AtomicFile.remove(path))
        #expect(try !AtomicFile.remove(path))
    }

    @Test func aFailedWriteLeavesTheTargetUnchanged() throws {
        let tmp = TemporaryDirectory()
        defer { tmp.remove() }
        let dir = try DataDirectory.open(tmp.path)
        let path = dir.accountsPath + "/x.json"
        try AtomicFile.write(Array("kept".utf8), to: path)
        #expect(throws: KeystoreError(.fileSystem, "")) {
            try AtomicFile.write(Array("lost".utf8), to: dir.accountsPath + "/missing-dir/x.json")
        }
        #expect(try POSIX.readFile(path, limit: 100) == Array("kept".utf8))
    }

    @Test func leftoverTemporaryFilesOfDeadWritersAreRemovedOnOpen() throws {
        let tmp = TemporaryDirectory()
        defer { tmp.remove() }
        let dir = try DataDirectory.open(tmp.path)
        // pid 2^22+1 is above Linux's pid_max default ceiling, so no such process exists.
        let dead = dir.accountsPath + "/.a.json.tmp-4194305-abcd"
        let mine = dir.accountsPath + "/.b.json.tmp-\(getpid())-abcd"
        #expect(FileManager.default.createFile(atPath: dead, contents: Data([1])))
        #expect(FileManager.default.createFile(atPath: mine, contents: Data([1])))
        _ = try DataDirectory.open(tmp.path)
        #expect(!FileManager.default.fileExists(atPath: dead))
        #expect(FileManager.default.fileExists(atPath: mine), "a live writer's file is left alone")
    }
}

@Suite struct DirectoryLockTests {
    @Test func aSecondServerLockOnTheSameDirectoryIsRefusedWithThePid() throws {
        let tmp = TemporaryDirectory()
        defer { tmp.remove() }
        let dir = try DataDirectory.open(tmp.path)
        let first = try dir.lockForServing()
        do {
            _ = try dir.lockForServing()
            Issue.record("second lock succeeded")
        } catch {
            #expect(error.code == .dataDirectoryInUse)
            #expect(error.reason.contains("process \(getpid())"))
        }
        first.unlock()
        let again = try dir.lockForServing()
        again.unlock()
        #expect(try DataDirectory.permissions(of: dir.serveLockPath) == 0o600)
    }

    @Test func waitingForALockTimesOutWithAClearError() throws {
        let tmp = TemporaryDirectory()
        defer { tmp.remove() }
        let dir = try DataDirectory.open(tmp.path)
        let held = try DirectoryLock.acquire(dir.accountsLockPath)
        #expect(throws: KeystoreError(.dataDirectoryInUse, "")) {
            try DirectoryLock.acquire(dir.accountsLockPath, waitingUpTo: .milliseconds(30))
        }
        held.unlock()
        try DirectoryLock.acquire(dir.accountsLockPath, waitingUpTo: .milliseconds(30)).unlock()
    }
}
