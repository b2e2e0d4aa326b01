import Journal
import Keystore
import Primitives

/// `StateStore`'s error: the state database, its backup and restore (docs/reference/conventions.md
/// §1; the shape, equality and security rules are `CodedError`'s). Errors of the layers below (the
/// keystore's files and locks, the journal's encodings) are passed on under the same code name, so
/// `sigil` prints `<code>: <reason>` as before; SQLite's are turned into `database`, `diskFull` or
/// `databaseDamaged` (`SQLiteStateStore.wrap`).
package typealias StateStoreError = CodedError<StateStoreErrorCode>

/// Why a `StateStoreError` was thrown; the case name is what messages and logs show
/// (`StateStoreError.<case>: reason`), so a case is added but never renamed.
package enum StateStoreErrorCode: String, ErrorCode {
    package static let domain = "StateStoreError"
    /// The state database failed (open, migrate, read or write).
    case database
    /// The state database is not a database or is damaged (`SQLITE_NOTADB`, `SQLITE_CORRUPT`), or a
    /// backup's file differs from its manifest. The reason says how to recover (docs/deployment.md
    /// "A damaged state database").
    case databaseDamaged
    /// The disk holding the data directory is full (SQLite `SQLITE_FULL`, `ENOSPC`): nothing of the
    /// failed change was stored; what was committed before is intact.
    case diskFull
    /// A value the store refuses (an empty or over-long origin, address or setting; a relative or
    /// non-empty backup directory; data present where a restore would write without `replace`).
    case invalidInput
    /// A backup manifest (or a journal encoding read back) that is not well formed.
    case malformedFile
    /// A backup manifest of a format this version does not read.
    case unsupportedFormat
    /// Another process holds the data directory's `serve.lock` (a `sigil serve` running on it).
    case dataDirectoryInUse
    /// A file system call failed (the reason names the call, the path and errno).
    case fileSystem
    /// A file or directory is open to other users, or owned by someone else.
    case permissions
}

extension StateStoreError {
    /// A keystore error (data directory, locks, copied key files) under the same code, `.fileSystem`
    /// for one the state store does not have.
    package init(_ error: KeystoreError) { self.init(error, else: .fileSystem) }

    /// A journal error (entry encodings, checkpoints, the key file) under the same code, `.database`
    /// for one the state store does not have.
    package init(_ error: JournalError) { self.init(error, else: .database) }
}
