import Foundation
import Primitives

/// An ICON account key (docs/reference/icon.md §4–§6): secp256k1, address `hx` + the last 20 bytes
/// of FIPS SHA3-256 of the 64-byte public key `X ‖ Y`, signatures recoverable over a 32-byte
/// transaction hash as `r ‖ s ‖ recid` (recid 0…3, not +27), Base64 on the wire.
///
/// Security: as `EcdsaKeyPair` (RFC 6979 deterministic nonces, low-S, libsecp256k1's constant-time
/// signing); the secret lives in `SecretBytes`; `description` shows only the address. `signHash`
/// signs whatever 32 bytes it is given: callers must hash what they built and showed themselves
/// (IconCodec), never a hash a site supplied, unless a person opted into blind signing.
package struct IconKeyPair: Sendable, CustomStringConvertible {
    private let inner: EcdsaKeyPair
    /// The 33-byte compressed public key.
    package var publicKey: [UInt8] { inner.publicKey }
    /// The 64-byte public key `X ‖ Y` (uncompressed, without the 0x04 byte), as ICON SDKs print it.
    package var publicKeyXY: [UInt8] { Array(inner.uncompressedPublicKey.dropFirst()) }
    /// The 20 address bytes.
    package let addressBytes: [UInt8]
    /// `hx` + 40 lower-case hex digits.
    package var address: String { IconKeyPair.addressText(addressBytes) }
    /// The 32-byte secret key (secret; for the keystore only).
    package let secretKey: SecretBytes

    /// From a raw 32-byte secp256k1 secret key (what ICON keystore files hold). Throws `invalidSeed`
    /// for 0 or ≥ n, `badLength` otherwise.
    package init(secretKey: SecretBytes) throws {
        inner = try EcdsaKeyPair(seed: secretKey)
        self.secretKey = secretKey
        addressBytes = IconKeyPair.addressBytes(ofXY: Array(inner.uncompressedPublicKey.dropFirst()))
    }

    /// From a BIP39 mnemonic at `path` (default ICON's `m/44'/74'/0'/0/index`, §6.2), over the
    /// standard BIP39 seed with `passphrase`.
    package init(mnemonic: Mnemonic, passphrase: String = "", path: BIP32Path) throws {
        try self.init(secretKey: BIP32ExtendedKey(mnemonic: mnemonic, passphrase: passphrase, path: path).secretKey)
    }

    /// From a BIP39 mnemonic at `m/44'/74'/0'/0/index`.
    package init(mnemonic: Mnemonic, passphrase: String = "", index: UInt32) throws {
        try self.init(mnemonic: mnemonic, passphrase: passphrase, path: BIP32Path.icon(index: index))
    }

    package var description: String { "IconKeyPair(address: \(address))" }

    /// The 65-byte recoverable signature `r ‖ s ‖ recid` of a 32-byte hash (no further hashing).
    /// Deterministic. Throws `badLength` unless the hash is 32 bytes.
    package func signHash(_ hash: [UInt8]) throws -> [UInt8] { try inner.signPrehashed(hash) }

    /// `signHash` in standard Base64 with padding (88 characters), the ICON wire form.
    package func signHashBase64(_ hash: [UInt8]) throws -> String { Data(try signHash(hash)).base64EncodedString() }

    /// The 20 address bytes of a public key given as 64 bytes `X ‖ Y`, 65 bytes `04 ‖ X ‖ Y` or 33
    /// bytes compressed. Throws `badLength`/`invalidPublicKey`.
    package static func addressBytes(ofPublicKey key: [UInt8]) throws -> [UInt8] {
        let sec1 = key.count == 64 ? [0x04] + key : key
        let ctx = Secp256k1Context.shared
        guard [33, 65].contains(sec1.count), var pub = ctx.parsePublicKey(sec1) else {
            throw KeyError(.invalidPublicKey, "not a secp256k1 public key of 33, 64 or 65 bytes")
        }
        return addressBytes(ofXY: Array(ctx.serialize(&pub, compressed: false).dropFirst()))
    }

    /// The `hx…` address that a 65-byte signature over `hash` recovers to (what an ICON node
    /// compares with `from`). Untrusted input; throws `invalidSignature`/`badLength`.
    package static func recoverAddress(signature: [UInt8], hash: [UInt8]) throws -> String {
        guard signature.count == 65, signature[64] <= 3 else {
            throw KeyError(.invalidSignature, "an ICON signature is 65 bytes with recovery id 0…3")
        }
        let ctx = Secp256k1Context.shared
        var pub = try ctx.recover(signature: signature, digest: hash)
        return addressText(addressBytes(ofXY: Array(ctx.serialize(&pub, compressed: false).dropFirst())))
    }

    /// Whether `signature` (65 bytes or its Base64) over `hash` recovers to `address`. Never traps.
    package static func verify(signature: [UInt8], hash: [UInt8], address: String) -> Bool {
        (try? recoverAddress(signature: signature, hash: hash)) == address
    }

    /// Decodes the Base64 wire form of a signature (strict: 88 characters, standard alphabet).
    package static func decodeSignature(base64 text: String) throws -> [UInt8] {
        guard text.utf8.count == 88, let data = Data(base64Encoded: text), data.count == 65 else {
            throw KeyError(.invalidSignature, "an ICON signature is 88 Base64 characters (65 bytes)")
        }
        return Array(data)
    }

    static func addressBytes(ofXY xy: [UInt8]) -> [UInt8] { Array(SHA3_256.hash(xy).suffix(20)) }

    static func addressText(_ bytes: [UInt8]) -> String { "hx" + Hex.encode(bytes, prefix: false) }
}
