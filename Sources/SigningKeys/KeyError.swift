import Primitives

/// The one error type of the `SigningKeys` module (convention: docs/reference/conventions.md §1): a
/// stable `code` that can grow, a developer-facing `reason`, and where it was thrown.
///
/// Security: `reason` must never contain secret material (keys, seeds, passwords, tokens) nor echo
/// untrusted input verbatim beyond a short, escaped excerpt.
package typealias KeyError = CodedError<KeyErrorCode>

/// What went wrong, as a stable, comparable value. Two errors are equal when their codes are.
package struct KeyErrorCode: ErrorCode {
    fileprivate enum Value: String, Sendable {
        case invalidInput
        case badBase58
        case badLength
        case invalidPrefix
        case formatNotAllowed
        case invalidChecksum
        case prefixOutOfRange
        case invalidPhrase
        case invalidFormat
        case softKeyInPath
        case invalidSeed
        case ambiguousURI
        case invalidPublicKey
        case invalidSignature
        case invalidDerivationPath
        case unsupported
        case cryptoFailure
    }
    fileprivate let value: Value
    /// Input that does not satisfy the module's rules.
    package static let invalidInput = Self(value: .invalidInput)
    /// An SS58 address contains a character outside the Base58 alphabet (sp-core `BadBase58`).
    package static let badBase58 = Self(value: .badBase58)
    /// Wrong length: an SS58 body, a key, a seed or a signature (sp-core `BadLength`).
    package static let badLength = Self(value: .badLength)
    /// An SS58 prefix byte ≥ 128 (sp-core `InvalidPrefix`).
    package static let invalidPrefix = Self(value: .invalidPrefix)
    /// A reserved SS58 format, 46 or 47 (sp-core `FormatNotAllowed`).
    package static let formatNotAllowed = Self(value: .formatNotAllowed)
    /// An SS58 checksum mismatch (sp-core `InvalidChecksum`).
    package static let invalidChecksum = Self(value: .invalidChecksum)
    /// An SS58 prefix to encode that is reserved (46, 47) or above 16383.
    package static let prefixOutOfRange = Self(value: .prefixOutOfRange)
    /// A mnemonic that is not valid BIP39 English (sp-core `InvalidPhrase`).
    package static let invalidPhrase = Self(value: .invalidPhrase)
    /// A secret URI that does not match the grammar (sp-core `InvalidFormat`).
    package static let invalidFormat = Self(value: .invalidFormat)
    /// A soft junction for a scheme that only supports hard derivation (sp-core `SoftKeyInPath`).
    package static let softKeyInPath = Self(value: .softKeyInPath)
    /// A seed or secret key that is not valid for the scheme (sp-core `InvalidSeed`).
    package static let invalidSeed = Self(value: .invalidSeed)
    /// A secret URI that sp-core and polkadot-js interpret differently; refused rather than guessed.
    package static let ambiguousURI = Self(value: .ambiguousURI)
    /// A public key that does not decode (non-canonical or not on the curve).
    package static let invalidPublicKey = Self(value: .invalidPublicKey)
    /// A signature that is malformed or does not verify.
    package static let invalidSignature = Self(value: .invalidSignature)
    /// A BIP32 derivation path that does not follow `m/a'/b/…` (docs/reference/icon.md §6), or a
    /// derivation step that BIP32 declares invalid.
    package static let invalidDerivationPath = Self(value: .invalidDerivationPath)
    /// A request this module deliberately does not implement (e.g. mnemonic URIs for `ethereum`).
    package static let unsupported = Self(value: .unsupported)
    /// A system cryptography library reported an unexpected failure.
    package static let cryptoFailure = Self(value: .cryptoFailure)
    package var description: String { value.rawValue }
    package static let domain = "KeyError"
}
