import Logging
import Primitives
import SigningKeys

/// Converts between SigningKeys' `KeyPair` and the keyring file's plaintext, key type and address
/// (docs/reference/crypto.md §7.3): what `secretKey` holds for each type and how to rebuild the pair.
///
/// Unlike polkadot-js, which trusts the embedded public key, decoding rebuilds the pair from the
/// secret and requires the embedded public key and the file's address to match it (as subxt does).
package enum KeyringPairCodec {
    /// The scheme of `encoding.content[1]`; a file without one is sr25519, the extension's default
    /// keyring type (`keyring.ts createFromJson` for version 0 / no content).
    /// - Throws: `.unsupportedFormat` for `ethereum` and unknown types.
    package static func scheme(forKeyType keyType: String?) throws(KeystoreError) -> KeyScheme {
        switch keyType {
        case nil, "sr25519": return .sr25519
        case "ed25519": return .ed25519
        case "ecdsa": return .ecdsa
        case "ethereum":
            throw KeystoreError(.unsupportedFormat, "ethereum accounts are not supported (Substrate accounts only)")
        case let other?:
            throw KeystoreError(.unsupportedFormat, "unknown key type \"\(other.prefix(16))\"")
        }
    }

    /// The plaintext for a pair: `HDR ‖ secret ‖ DIV ‖ public` with polkadot-js's secret per scheme
    /// (`KeyPair.keystoreSecret`: sr25519 `key·8 ‖ nonce`, ed25519 `seed ‖ public`, ecdsa the seed).
    package static func plaintext(for pair: KeyPair) throws(KeystoreError) -> SecretBytes {
        if pair.scheme == .ethereum {
            throw KeystoreError(.unsupportedFormat, "ethereum accounts are not supported (Substrate accounts only)")
        }
        guard let secret = pair.keystoreSecret else {
            throw KeystoreError(.invalidInput, "\(pair.scheme) pair has no storable secret")
        }
        return KeyringPkcs8.encode(secret: secret, publicKey: pair.publicKey)
    }

    /// Rebuilds the pair from a decrypted plaintext and checks it against the embedded public key.
    /// Generation 3 secrets go through `KeyPair(keystoreSecret:)`; the 32-byte seeds of generation 1/2
    /// sr25519/ed25519 files are expanded as seeds.
    /// - Throws: `.malformedFile` for bad lengths, `.keyMismatch` when the secret does not give the
    ///   embedded public key or is not a valid key.
    package static func keyPair(fromPlaintext plain: SecretBytes, scheme: KeyScheme) throws(KeystoreError) -> KeyPair {
        let decoded = try KeyringPkcs8.decode(plain, publicKeyLength: scheme.publicKeyLength)
        let secret = decoded.secret
        let pair: KeyPair
        do {
            switch (scheme, secret.count) {
            case (.sr25519, 64), (.ed25519, 64), (.ecdsa, 32):
                pair = try KeyPair(keystoreSecret: secret, scheme: scheme, publicKey: decoded.publicKey)
            case (.sr25519, 32), (.ed25519, 32):
                pair = try KeyPair(seed: secret, scheme: scheme)
            default:
                throw KeystoreError(.malformedFile, "\(secret.count)-byte secret is not valid for \(scheme)")
            }
        } catch let error as KeystoreError {
            throw error
        } catch let error as KeyError {
            throw KeystoreError(
                .keyMismatch, "the decrypted \(scheme) secret does not give its public key: \(error.code)")
        } catch {
            throw KeystoreError(.keyMismatch, "the decrypted \(scheme) secret is not a valid key")
        }
        guard pair.publicKey == decoded.publicKey else {
            throw KeystoreError(.keyMismatch, "the decrypted secret does not match the public key stored with it")
        }
        return pair
    }

    /// The `address` field as polkadot-js writes it: SS58 (prefix 42) for sr25519/ed25519, the 0x-hex
    /// compressed public key for ecdsa (`toJson.ts`: `isEthereum`-style types use hex).
    package static func jsonAddress(for pair: KeyPair) throws(KeystoreError) -> String {
        switch pair.scheme {
        case .ecdsa, .ethereum: return Hex.encode(pair.publicKey)
        case .sr25519, .ed25519:
            do {
                return try SS58.encode(pair.publicKey, prefix: SS58.genericSubstrate)
            } catch {
                throw KeystoreError(.invalidInput, "cannot encode the address")
            }
        }
    }

    /// The public key named by a file's `address`: SS58 (any prefix) or 0x-hex, 33 bytes for ecdsa.
    /// - Throws: `.malformedFile`.
    package static func publicKey(fromAddress address: String, scheme: KeyScheme) throws(KeystoreError) -> [UInt8] {
        if address.hasPrefix("0x") {
            guard let bytes = try? Hex.decode(address, prefix: .optional), bytes.count == scheme.publicKeyLength else {
                throw KeystoreError(.malformedFile, "address is not a \(scheme.publicKeyLength)-byte hex public key")
            }
            return bytes
        }
        guard scheme != .ecdsa else {
            // An SS58 ecdsa address holds BLAKE2b(public key), from which the key cannot be recovered.
            throw KeystoreError(.malformedFile, "ecdsa file address must be the 0x-hex public key")
        }
        do {
            return try SS58.decode(address, keyLength: 32).key
        } catch {
            throw KeystoreError(.malformedFile, "address is not a valid SS58 address")
        }
    }

    /// Checks that a file's `address` (SS58 of any prefix, or hex) names `pair`. Empty addresses pass.
    package static func checkAddress(_ address: String, matches pair: KeyPair) throws(KeystoreError) {
        if address.isEmpty { return }
        if address.hasPrefix("0x") {
            guard let bytes = try? Hex.decode(address, prefix: .optional),
                bytes == pair.publicKey || bytes == pair.accountId
            else {
                throw KeystoreError(.keyMismatch, "the file's address does not match its key")
            }
            return
        }
        let key = try? SS58.decode(address, keyLength: 32).key
        guard key == pair.accountId || key == pair.publicKey else {
            throw KeystoreError(.keyMismatch, "the file's address does not match its key")
        }
    }

}
