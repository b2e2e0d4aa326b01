import Primitives

/// A password, held as its UTF-8 bytes in memory that is wiped when released.
///
/// polkadot-js passes `stringToU8a(password)` (UTF-8, no normalisation) to scrypt (docs/reference/crypto.md §7.2),
/// so this type does the same: no trimming, no Unicode normalisation. Reading a password from a
/// terminal or a file (and trimming one final newline there) is the command line's job.
///
/// Security: never printed, not `Codable`; an empty passphrase is allowed by the type but the
/// keystore refuses to encrypt with one.
package final class Passphrase: Sendable, CustomStringConvertible, CustomDebugStringConvertible {
    let secret: SecretBytes

    /// A passphrase from a string's UTF-8 bytes.
    package init(_ string: String) {
        secret = SecretBytes(Array(string.utf8))
    }

    /// A passphrase from raw bytes (e.g. read from a file); the caller should wipe its own copy.
    package init(bytes: some Collection<UInt8>) {
        secret = SecretBytes(bytes)
    }

    /// Number of UTF-8 bytes.
    package var byteCount: Int { secret.count }
    /// True when the passphrase has no bytes.
    package var isEmpty: Bool { secret.count == 0 }

    package var description: String { "Passphrase(redacted)" }
    package var debugDescription: String { description }
}
