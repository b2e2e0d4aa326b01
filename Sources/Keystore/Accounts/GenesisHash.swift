import Primitives

/// A chain's genesis hash as stored everywhere (an account's restriction, the state store's keys).
package enum GenesisHash {
    /// `0x` + 64 hex digits, lower-cased.
    /// - Throws: `KeystoreError.invalidInput` for anything else (the value is not echoed).
    package static func normalized(_ hash: String) throws(KeystoreError) -> String {
        guard hash.utf8.count == 66, let bytes = try? Hex.decode(hash, prefix: .required, byteCount: 32) else {
            throw KeystoreError(.invalidInput, "genesis hash must be 0x followed by 64 hex digits")
        }
        return Hex.encode(bytes)
    }
}
