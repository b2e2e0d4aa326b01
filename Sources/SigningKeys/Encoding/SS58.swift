import Primitives
/// SS58 addresses (sp-core `crypto.rs` `Ss58Codec`; polkadot-js `address/{encode,decode}.ts`;
/// docs/reference/crypto.md §5.1): prefixes 0…16383 in the one- and two-byte forms, a BLAKE2b-512
/// `"SS58PRE"` checksum, Base58.
///
/// Decoding takes untrusted input and reports sp-core's error kinds in sp-core's order:
/// `badBase58`, `badLength`, `invalidPrefix`, `badLength`, `formatNotAllowed` (46, 47),
/// `invalidChecksum`. Not constant-time (addresses are public).
package enum SS58 {
    /// The generic Substrate prefix.
    package static let genericSubstrate: UInt16 = 42
    /// Longest input accepted by `decode` (a 33-byte key with a two-byte prefix is 51 characters).
    package static let maxAddressLength = 128

    /// A decoded address.
    package struct Address: Sendable, Equatable {
        /// The network prefix, 0…16383.
        package let prefix: UInt16
        /// The key or account id bytes.
        package let key: [UInt8]
        /// 1 or 2: how the prefix was written (42 may also appear in the two-byte form).
        package let prefixLength: Int
    }

    /// Encodes `key` (1, 2, 4, 8, 32 or 33 bytes) under `prefix`. Throws `prefixOutOfRange` for
    /// 46, 47 and values above 16383, `badLength` for other key lengths.
    package static func encode(_ key: [UInt8], prefix: UInt16) throws -> String {
        guard prefix <= 16383, prefix != 46, prefix != 47 else {
            throw KeyError(.prefixOutOfRange, "SS58 prefix \(prefix) is reserved or above 16383")
        }
        guard [1, 2, 4, 8, 32, 33].contains(key.count) else {
            throw KeyError(.badLength, "SS58 key of \(key.count) bytes (expected 1, 2, 4, 8, 32 or 33)")
        }
        var payload = prefixBytes(prefix)
        payload += key
        let checksumLength = key.count >= 32 ? 2 : 1
        payload += checksum(payload).prefix(checksumLength)
        return Base58.encode(payload)
    }

    /// The prefix in its canonical encoding: one byte below 64, else two bytes.
    package static func prefixBytes(_ prefix: UInt16) -> [UInt8] {
        let ident = prefix & 0x3fff
        if ident < 64 { return [UInt8(ident)] }
        return [
            UInt8(truncatingIfNeeded: ((ident & 0xfc) >> 2) | 0x40),
            UInt8(truncatingIfNeeded: (ident >> 8) | ((ident & 0x03) << 6)),
        ]
    }

    /// Decodes an address whose key must be exactly `keyLength` bytes (32 for AccountId32 and
    /// sr25519/ed25519 keys, 33 for an ecdsa public key).
    package static func decode(_ address: String, keyLength: Int = 32) throws -> Address {
        guard address.utf8.count <= maxAddressLength else {
            throw KeyError(.badLength, "SS58 address longer than \(maxAddressLength) characters")
        }
        guard let data = Base58.decode(address) else {
            throw KeyError(.badBase58, "SS58 address contains a character outside the Base58 alphabet")
        }
        guard data.count >= 2 else { throw KeyError(.badLength, "SS58 address decodes to \(data.count) bytes") }
        let prefixLength: Int
        let ident: UInt16
        switch data[0] {
        case 0...63:
            prefixLength = 1
            ident = UInt16(data[0])
        case 64...127:
            prefixLength = 2
            let lower = (UInt16(data[0]) << 2) | (UInt16(data[1]) >> 6)
            let upper = UInt16(data[1] & 0x3f)
            ident = (lower & 0xff) | (upper << 8)
        default:
            throw KeyError(.invalidPrefix, "SS58 prefix byte \(data[0]) is not below 128")
        }
        guard data.count == prefixLength + keyLength + 2 else {
            throw KeyError(
                .badLength,
                "SS58 body is \(data.count - prefixLength) bytes; expected a \(keyLength)-byte key and a 2-byte checksum"
            )
        }
        guard ident != 46, ident != 47 else {
            throw KeyError(.formatNotAllowed, "SS58 prefix \(ident) is reserved")
        }
        let body = Array(data[0..<(prefixLength + keyLength)])
        guard Array(checksum(body).prefix(2)) == Array(data[(prefixLength + keyLength)...]) else {
            throw KeyError(.invalidChecksum, "SS58 checksum does not match")
        }
        return Address(prefix: ident, key: Array(body[prefixLength...]), prefixLength: prefixLength)
    }

    private static func checksum(_ payload: [UInt8]) -> [UInt8] {
        Blake2b.hash512(Array("SS58PRE".utf8) + payload)
    }
}
