import Keystore
import Primitives

/// `Journal`'s error: entry encodings, checkpoints, the mirror file and the journal key's file
/// (docs/reference/conventions.md §1; the shape, equality and security rules are `CodedError`'s).
/// The key file and the mirror are written through the keystore's file layer; its errors are passed
/// on under the same code name (`JournalError(keystoreError)`), so `sigil` prints what it printed before.
package typealias JournalError = CodedError<JournalErrorCode>

/// Why a `JournalError` was thrown; the case name is what messages and logs show
/// (`JournalError.<case>: reason`), so a case is added but never renamed.
package enum JournalErrorCode: String, ErrorCode {
    package static let domain = "JournalError"
    // The journal's own.
    /// An entry encoding, a checkpoint, a mirror or export line, or the key file that is not well
    /// formed; the reason names the field or line.
    case malformedFile
    /// A checkpoint of another format version, or a key file in a format the keystore does not read.
    case unsupportedFormat
    /// The journal key must be created and no password was given.
    case passwordRequired
    /// A checkpoint key that cannot be made, or cannot sign.
    case invalidInput

    // Passed on from the keystore's file layer (the key file, the mirror).
    /// A file system call on the mirror or the key file failed (the reason names the call and path).
    case fileSystem
    /// The disk is full (`ENOSPC`): the checkpoint line or the key file was not written.
    case diskFull
    /// The key file or the mirror is open to other users, or owned by someone else.
    case permissions
    /// The key file does not open with the password given (or was altered).
    case decryptFailed
    /// The key file's secret does not give the public key it names.
    case keyMismatch
    /// The key file's scrypt parameters are outside polkadot-js's allow-list.
    case invalidScryptParameters
}

extension JournalError {
    /// A keystore error of the key file or the mirror, under the same code (`.fileSystem` for a code
    /// the journal does not have).
    package init(_ error: KeystoreError) { self.init(error, else: .fileSystem) }
}

/// Runs keystore file calls (`POSIX`, `KeyringJSON`, `AtomicFile`) inside the journal's typed throws.
func keystoreFiles<T>(_ body: () throws(KeystoreError) -> T) throws(JournalError) -> T {
    do {
        return try body()
    } catch {
        throw JournalError(error)
    }
}
