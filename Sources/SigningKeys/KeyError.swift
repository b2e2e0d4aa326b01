import Primitives

/// `SigningKeys`' error (docs/reference/conventions.md §1; the shape, equality and security rules are
/// `CodedError`'s). The SS58 and secret-URI codes follow sp-core's names.
package typealias KeyError = CodedError<KeyErrorCode>

/// Why a `KeyError` was thrown; the case name is what messages and logs show
/// (`KeyError.<case>: reason`), so a case is added but never renamed.
package enum KeyErrorCode: String, ErrorCode {
    package static let domain = "KeyError"
    /// Input that does not satisfy the module's rules.
    case invalidInput
    /// An SS58 address contains a character outside the Base58 alphabet (sp-core `BadBase58`).
    case badBase58
    /// Wrong length: an SS58 body, a key, a seed or a signature (sp-core `BadLength`).
    case badLength
    /// An SS58 prefix byte ≥ 128 (sp-core `InvalidPrefix`).
    case invalidPrefix
    /// A reserved SS58 format, 46 or 47 (sp-core `FormatNotAllowed`).
    case formatNotAllowed
    /// An SS58 checksum mismatch (sp-core `InvalidChecksum`).
    case invalidChecksum
    /// An SS58 prefix to encode that is reserved (46, 47) or above 16383.
    case prefixOutOfRange
    /// A mnemonic that is not valid BIP39 English (sp-core `InvalidPhrase`).
    case invalidPhrase
    /// A secret URI that does not match the grammar (sp-core `InvalidFormat`).
    case invalidFormat
    /// A soft junction for a scheme that only supports hard derivation (sp-core `SoftKeyInPath`).
    case softKeyInPath
    /// A seed or secret key that is not valid for the scheme (sp-core `InvalidSeed`).
    case invalidSeed
    /// A secret URI that sp-core and polkadot-js interpret differently; refused rather than guessed.
    case ambiguousURI
    /// A public key that does not decode (non-canonical or not on the curve).
    case invalidPublicKey
    /// A signature that is malformed or does not verify.
    case invalidSignature
    /// A BIP32 derivation path that does not follow `m/a'/b/…` (docs/reference/icon.md §6), or a
    /// derivation step that BIP32 declares invalid.
    case invalidDerivationPath
    /// A request this module deliberately does not implement (e.g. mnemonic URIs for `ethereum`).
    case unsupported
    /// A system cryptography library reported an unexpected failure.
    case cryptoFailure
}
