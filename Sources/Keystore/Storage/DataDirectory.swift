import Foundation
import Primitives

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Sigil's data directory: account files, the state database and the lock files.
///
/// ```
/// <root>/                  0700
///   accounts/              0700   one polkadot-js keyring JSON v3 file per account, 0600
///   state.sqlite (+ -wal, -shm, .migration-lock)   0600   sites, metadata, settings (SQLiteStateStore)
///   serve.lock             0600   held by a running `sigil serve`
///   accounts.lock          0600   held briefly by account changes
/// ```
///
/// The root is, in order: an explicit path (`--data-dir`), `$SIGIL_HOME`, `$XDG_DATA_HOME/sigil`,
/// `~/.local/share/sigil` (XDG Base Directory Specification 0.8).
///
/// Security: `open` creates missing directories with mode 0700 and refuses a root or `accounts/`
/// owned by another user or reachable through a symlink; an existing directory with group/other
/// permission bits is tightened to 0700.
package struct DataDirectory: Sendable, Hashable {
    /// Absolute path of the root.
    package let path: String

    /// `accounts/`.
    package var accountsPath: String { path + "/accounts" }
    /// `state.sqlite`.
    package var databasePath: String { path + "/state.sqlite" }
    /// `serve.lock`.
    package var serveLockPath: String { path + "/serve.lock" }
    /// `accounts.lock`.
    package var accountsLockPath: String { path + "/accounts.lock" }

    /// Which root to use, without touching the file system.
    /// - Parameters:
    ///   - explicit: `--data-dir`, wins when given.
    ///   - environment: the process environment (`SIGIL_HOME`, `XDG_DATA_HOME`, `HOME`).
    /// - Throws: `.invalidInput` when nothing gives a location (no `HOME`).
    package static func resolve(explicit: String?, environment: [String: String]) throws(KeystoreError) -> String {
        if let explicit, !explicit.isEmpty { return absolute(explicit, environment: environment) }
        if let home = environment["SIGIL_HOME"], !home.isEmpty { return absolute(home, environment: environment) }
        // XDG: "If $XDG_DATA_HOME is either not set or empty, a default equal to $HOME/.local/share should be used."
        // Relative values are invalid per the spec and ignored.
        if let xdg = environment["XDG_DATA_HOME"], xdg.hasPrefix("/") { return xdg + "/sigil" }
        guard let home = environment["HOME"], home.hasPrefix("/") else {
            throw KeystoreError(.invalidInput, "no data directory: set --data-dir, SIGIL_HOME or HOME")
        }
        return home + "/.local/share/sigil"
    }

    private static func absolute(_ path: String, environment: [String: String]) -> String {
        var path = path
        if path == "~" || path.hasPrefix("~/"), let home = environment["HOME"] {
            path = home + path.dropFirst()
        }
        if !path.hasPrefix("/") {
            path = FileManager.default.currentDirectoryPath + "/" + path
        }
        while path.count > 1 && path.hasSuffix("/") { path.removeLast() }
        return path
    }

    /// Opens (creating if needed) the data directory at an absolute `path`.
    /// - Throws: `.permissions` for a directory owned by someone else or a symlink, `.fileSystem`.
    package static func open(_ path: String) throws(KeystoreError) -> DataDirectory {
        guard path.hasPrefix("/") else {
            throw KeystoreError(.invalidInput, "data directory must be absolute: \(path)")
        }
        let dir = DataDirectory(path: path)
        try createParents(of: path)
        try ensurePrivateDirectory(path, tightenOnlyIfOurs: true)
        try ensurePrivateDirectory(dir.accountsPath)
        try AtomicFile.removeLeftovers(in: dir.accountsPath)
        return dir
    }

    private init(path: String) { self.path = path }

    /// Creates missing parents with the default mode (like `mkdir -p`), never changing existing ones.
    private static func createParents(of path: String) throws(KeystoreError) {
        var current = ""
        let components = path.split(separator: "/").dropLast()
        for component in components {
            current += "/" + component
            if mkdir(current, 0o755) != 0 && errno != EEXIST { throw POSIX.error("mkdir", current) }
        }
    }

    /// Creates `path` with 0700, or checks an existing one: a real directory, ours, then chmod 0700.
    /// - Parameter tightenOnlyIfOurs: for the root: change the mode only of an empty directory or one
    ///   that already has `accounts/` (so `--data-dir ~` does not chmod a home directory); refuse others.
    package static func ensurePrivateDirectory(_ path: String, tightenOnlyIfOurs: Bool = false) throws(KeystoreError) {
        if mkdir(path, 0o700) != 0 && errno != EEXIST { throw POSIX.error("mkdir", path) }
        guard let st = try POSIX.status(path) else { throw POSIX.error("lstat", path, ENOENT) }
        guard (st.st_mode & S_IFMT) == S_IFDIR else {
            throw KeystoreError(.permissions, "\(path) is not a directory (symlinks are refused)")
        }
        guard st.st_uid == geteuid() else {
            throw KeystoreError(.permissions, "\(path) is owned by uid \(st.st_uid), not by this user")
        }
        if st.st_mode & 0o077 != 0 {
            if tightenOnlyIfOurs {
                let names = try POSIX.listDirectory(path)
                guard names.isEmpty || names.contains("accounts") else {
                    throw KeystoreError(
                        .permissions,
                        "\(path) is accessible to other users and is not a Sigil data directory; "
                            + "use an empty or new directory, or chmod 700 it")
                }
            }
            guard chmod(path, 0o700) == 0 else { throw POSIX.error("chmod", path) }
        }
    }

    /// Permission bits (`st_mode & 0o7777`) of a path, for checks and tests.
    package static func permissions(of path: String) throws(KeystoreError) -> UInt32? {
        guard let st = try POSIX.status(path) else { return nil }
        return UInt32(st.st_mode & 0o7777)
    }

    /// Takes `serve.lock` without waiting: the caller is the one server for this directory.
    /// - Throws: `.dataDirectoryInUse` when another `sigil serve` runs on it.
    package func lockForServing() throws(KeystoreError) -> DirectoryLock {
        try DirectoryLock.acquire(serveLockPath)
    }
}
