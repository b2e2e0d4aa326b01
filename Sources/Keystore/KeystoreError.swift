import Primitives

/// `Keystore`'s error: key files, passwords and the data directory (docs/reference/conventions.md
/// §1; the shape, equality and security rules are `CodedError`'s). The command line prints it as
/// `<code>: <reason>`.
package typealias KeystoreError = CodedError<KeystoreErrorCode>

/// Why a `KeystoreError` was thrown; the case name is what messages and logs show
/// (`KeystoreError.<case>: reason`), so a case is added but never renamed.
package enum KeystoreErrorCode: String, ErrorCode {
    package static let domain = "KeystoreError"
    /// Input that does not satisfy the module's rules.
    case invalidInput
    /// A keyring JSON file (or its decrypted contents) is not well formed: bad JSON, bad base64,
    /// wrong lengths, wrong header bytes. The reason names the field or offset.
    case malformedFile
    /// A well-formed file in a format or version this module does not read (e.g. `version` 4,
    /// content other than `pkcs8`/`batch-pkcs8`, an unknown key type).
    case unsupportedFormat
    /// scrypt parameters outside polkadot-js's allow-list (docs/reference/crypto.md §7.2).
    case invalidScryptParameters
    /// Decryption failed: wrong password, or the ciphertext/MAC/nonce/salt was altered.
    /// The two cannot be told apart (XSalsa20-Poly1305 authenticates everything).
    case decryptFailed
    /// The decrypted secret does not produce the public key embedded in the file or its address.
    case keyMismatch
    /// No account with that address in the keystore.
    case accountNotFound
    /// An account with that public key is already stored.
    case accountExists
    /// An operation needs a password and none could be obtained (no terminal, empty file).
    case passwordRequired
    /// A file system call failed (the reason names the call, the path and errno).
    case fileSystem
    /// A file or directory is readable or writable by other users, or owned by someone else.
    case permissions
    /// Another process holds the data directory's lock (e.g. a second `sigil serve`).
    case dataDirectoryInUse
    /// The disk holding the data directory is full (`ENOSPC`, `EDQUOT`): the file being written was
    /// not replaced; the one before is intact.
    case diskFull
    /// The user declined a confirmation.
    case cancelled
}
