import Primitives

/// The one error type of the `Keystore` module (convention: docs/reference/conventions.md §1): a
/// stable `code` that can grow, a developer-facing `reason`, and where it was thrown.
///
/// Security: `reason` must never contain secret material (keys, seeds, passwords, tokens) nor echo
/// untrusted input verbatim beyond a short, escaped excerpt.
package typealias KeystoreError = CodedError<KeystoreErrorCode>

/// What went wrong, as a stable, comparable value. Two errors are equal when their codes are.
package struct KeystoreErrorCode: ErrorCode {
    fileprivate enum Value: String, Sendable {
        case invalidInput
        case malformedFile
        case unsupportedFormat
        case invalidScryptParameters
        case decryptFailed
        case keyMismatch
        case accountNotFound
        case accountExists
        case passwordRequired
        case fileSystem
        case permissions
        case dataDirectoryInUse
        case database
        case diskFull
        case databaseDamaged
        case cancelled
    }
    fileprivate let value: Value
    /// Input that does not satisfy the module's rules.
    package static let invalidInput = Self(value: .invalidInput)
    /// A keyring JSON file (or its decrypted contents) is not well formed: bad JSON, bad base64,
    /// wrong lengths, wrong header bytes. The reason names the field or offset.
    package static let malformedFile = Self(value: .malformedFile)
    /// A well-formed file in a format or version this module does not read (e.g. `version` 4,
    /// content other than `pkcs8`/`batch-pkcs8`, an unknown key type).
    package static let unsupportedFormat = Self(value: .unsupportedFormat)
    /// scrypt parameters outside polkadot-js's allow-list (docs/reference/crypto.md §7.2).
    package static let invalidScryptParameters = Self(value: .invalidScryptParameters)
    /// Decryption failed: wrong password, or the ciphertext/MAC/nonce/salt was altered.
    /// The two cannot be told apart (XSalsa20-Poly1305 authenticates everything).
    package static let decryptFailed = Self(value: .decryptFailed)
    /// The decrypted secret does not produce the public key embedded in the file or its address.
    package static let keyMismatch = Self(value: .keyMismatch)
    /// No account with that address in the keystore.
    package static let accountNotFound = Self(value: .accountNotFound)
    /// An account with that public key is already stored.
    package static let accountExists = Self(value: .accountExists)
    /// An operation needs a password and none could be obtained (no terminal, empty file).
    package static let passwordRequired = Self(value: .passwordRequired)
    /// A file system call failed (the reason names the call, the path and errno).
    package static let fileSystem = Self(value: .fileSystem)
    /// A file or directory is readable or writable by other users, or owned by someone else.
    package static let permissions = Self(value: .permissions)
    /// Another process holds the data directory's lock (e.g. a second `sigil serve`).
    package static let dataDirectoryInUse = Self(value: .dataDirectoryInUse)
    /// The state database failed (open, migrate, read or write).
    package static let database = Self(value: .database)
    /// The disk holding the data directory is full (SQLite `SQLITE_FULL`, `ENOSPC`): nothing of the
    /// failed change was stored; what was committed before is intact.
    package static let diskFull = Self(value: .diskFull)
    /// The state database is not a database or is damaged (`SQLITE_NOTADB`, `SQLITE_CORRUPT`). The
    /// reason says how to recover (docs/deployment.md "A damaged state database").
    package static let databaseDamaged = Self(value: .databaseDamaged)
    /// The user declined a confirmation.
    package static let cancelled = Self(value: .cancelled)
    package var description: String { value.rawValue }
    package static let domain = "KeystoreError"
}
