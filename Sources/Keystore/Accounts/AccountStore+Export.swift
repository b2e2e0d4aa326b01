import Foundation
import Logging
import Primitives
import SigningKeys

extension AccountStore {
    /// A keyring JSON v3 file for one account that the polkadot-js extension (and Talisman, SubWallet)
    /// import: the account is decrypted with `password` (proving it), then re-encrypted with the same
    /// password, a fresh salt and nonce, and `parameters` (default N = 2^15, r = 8, p = 1, accepted by
    /// every polkadot-js release). `meta` is kept as stored.
    /// - Throws: `.accountNotFound`, `.decryptFailed` (wrong password), `.keyMismatch`.
    package func export(
        _ query: String, password: Passphrase, parameters: ScryptParameters = .interoperable
    ) throws(KeystoreError) -> Data {
        let info = try find(query)
        let (file, _) = try read(fileName: info.fileName)
        let pair = try Self.decryptPair(file, password: password)
        let out = try Self.encryptedFile(for: pair, password: password, parameters: parameters, meta: file.meta)
        logger.debug("account exported", metadata: ["file": "\(info.fileName)"])
        return try out.serialized()
    }

    /// A batch export (`batch-pkcs8`, polkadot-js `keyring.backupAccounts`) of several accounts: each
    /// entry is that account's export with `password`, and the array is encrypted again with it.
    /// All accounts must open with `password`.
    package func exportBatch(
        _ queries: [String], password: Passphrase, parameters: ScryptParameters = .interoperable
    ) throws(KeystoreError) -> Data {
        var entries: [JSONValue] = []
        var listed: [JSONValue] = []
        for query in queries {
            let one = try KeyringJSON.parse(try export(query, password: password, parameters: parameters))
            entries.append(one.jsonValue)
            listed.append(.object(["address": .string(one.address), "meta": .object(one.meta)]))
        }
        let payload = JSONValue.array(entries).encoded()
        let encoded = try KeyringCipher.encrypt(
            SecretBytes(payload), password: password, parameters: parameters)
        let batch = KeyringJSON(
            encoded: Data(encoded).base64EncodedString(), content: ["batch-pkcs8"],
            type: ["scrypt", "xsalsa20-poly1305"], version: "3", address: "", meta: [:], batchAccounts: listed)
        return try batch.serialized()
    }
}
