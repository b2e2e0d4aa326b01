import Logging
import Primitives
import SigningKeys

/// What Sigil knows about a stored account without decrypting it. Contains no secret.
package struct AccountInfo: Sendable, Hashable {
    /// SS58 address (generic prefix 42) of the account id, as the polkadot-js extension shows it.
    package var address: String
    /// The public key (32 bytes, 33 compressed for ecdsa).
    package var publicKey: [UInt8]
    /// The account id (the public key, or BLAKE2b-256 of it for ecdsa).
    package var accountId: [UInt8]
    /// The key scheme.
    package var scheme: KeyScheme
    /// `meta.name`.
    package var name: String?
    /// `meta.whenCreated`, milliseconds since 1970.
    package var whenCreated: Int64?
    /// `meta.genesisHash` when set and not empty: the chain the account is restricted to.
    package var genesisHash: String?
    /// `meta.isHidden`: hidden from dapps by the polkadot-js extension.
    package var isHidden: Bool
    /// The file name inside `accounts/` (`0x<public key hex>.json`).
    package var fileName: String

    /// `0x`-hex of `publicKey`.
    package var publicKeyHex: String { Hex.encode(publicKey) }

    /// Reads the public fields of a stored keyring file.
    /// - Throws: `.malformedFile` when the address or key type cannot be read.
    static func from(file: KeyringJSON, fileName: String) throws(KeystoreError) -> AccountInfo {
        let scheme = try KeyringPairCodec.scheme(forKeyType: file.keyType)
        let publicKey = try KeyringPairCodec.publicKey(fromAddress: file.address, scheme: scheme)
        return try AccountInfo(publicKey: publicKey, scheme: scheme, meta: file.meta, fileName: fileName)
    }

    init(publicKey: [UInt8], scheme: KeyScheme, meta: JSONObject, fileName: String) throws(KeystoreError) {
        self.publicKey = publicKey
        self.scheme = scheme
        do {
            accountId = try scheme.accountId(forPublicKey: publicKey)
            address = try SS58.encode(accountId, prefix: SS58.genericSubstrate)
        } catch {
            throw KeystoreError(.malformedFile, "\(fileName): public key does not fit \(scheme)")
        }
        name = meta["name"]?.stringValue
        whenCreated = meta["whenCreated"]?.integer(as: Int64.self)
        let hash = meta["genesisHash"]?.stringValue
        genesisHash = (hash?.isEmpty ?? true) ? nil : hash
        isHidden = meta["isHidden"]?.boolValue ?? false
        self.fileName = fileName
    }
}
