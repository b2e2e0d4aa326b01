/// The one error type of the `Keystore` module (convention: docs/reference/conventions.md §1): a
/// stable `code` that can grow, a developer-facing `reason`, and where it was thrown.
///
/// Security: `reason` must never contain secret material (keys, seeds, passwords, tokens) nor echo
/// untrusted input verbatim beyond a short, escaped excerpt.
public struct KeystoreError: Error, Equatable, CustomStringConvertible, Sendable {
    /// What went wrong, as a stable, comparable value. Two errors are equal when their codes are.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
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
        public static let invalidInput = Code(value: .invalidInput)
        /// A keyring JSON file (or its decrypted contents) is not well formed: bad JSON, bad base64,
        /// wrong lengths, wrong header bytes. The reason names the field or offset.
        public static let malformedFile = Code(value: .malformedFile)
        /// A well-formed file in a format or version this module does not read (e.g. `version` 4,
        /// content other than `pkcs8`/`batch-pkcs8`, an unknown key type).
        public static let unsupportedFormat = Code(value: .unsupportedFormat)
        /// scrypt parameters outside polkadot-js's allow-list (docs/reference/crypto.md §7.2).
        public static let invalidScryptParameters = Code(value: .invalidScryptParameters)
        /// Decryption failed: wrong password, or the ciphertext/MAC/nonce/salt was altered.
        /// The two cannot be told apart (XSalsa20-Poly1305 authenticates everything).
        public static let decryptFailed = Code(value: .decryptFailed)
        /// The decrypted secret does not produce the public key embedded in the file or its address.
        public static let keyMismatch = Code(value: .keyMismatch)
        /// No account with that address in the keystore.
        public static let accountNotFound = Code(value: .accountNotFound)
        /// An account with that public key is already stored.
        public static let accountExists = Code(value: .accountExists)
        /// An operation needs a password and none could be obtained (no terminal, empty file).
        public static let passwordRequired = Code(value: .passwordRequired)
        /// A file system call failed (the reason names the call, the path and errno).
        public static let fileSystem = Code(value: .fileSystem)
        /// A file or directory is readable or writable by other users, or owned by someone else.
        public static let permissions = Code(value: .permissions)
        /// Another process holds the data directory's lock (e.g. a second `sigil serve`).
        public static let dataDirectoryInUse = Code(value: .dataDirectoryInUse)
        /// The state database failed (open, migrate, read or write).
        public static let database = Code(value: .database)
        /// The disk holding the data directory is full (SQLite `SQLITE_FULL`, `ENOSPC`): nothing of the
        /// failed change was stored; what was committed before is intact.
        public static let diskFull = Code(value: .diskFull)
        /// The state database is not a database or is damaged (`SQLITE_NOTADB`, `SQLITE_CORRUPT`). The
        /// reason says how to recover (docs/deployment.md "A damaged state database").
        public static let databaseDamaged = Code(value: .databaseDamaged)
        /// The user declined a confirmation.
        public static let cancelled = Code(value: .cancelled)
        public var description: String { value.rawValue }
    }

    /// The stable error code.
    public let code: Code
    /// A human explanation for developers and logs; never secret.
    public let reason: String
    /// Source location where the error was created.
    public let file: String
    public let line: Int

    /// Creates an error. - Parameters: code, reason (no secrets), and the throwing site.
    public init(_ code: Code, _ reason: String, file: String = #fileID, line: Int = #line) {
        self.code = code
        self.reason = reason
        self.file = file
        self.line = line
    }

    public static func == (lhs: KeystoreError, rhs: KeystoreError) -> Bool { lhs.code == rhs.code }

    public var description: String { "KeystoreError.\(code): \(reason)" }
}
