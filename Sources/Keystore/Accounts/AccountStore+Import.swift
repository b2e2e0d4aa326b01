import Foundation
import Logging
import Primitives
import SigningKeys

extension AccountStore {
    /// What happened to one account of an import.
    package struct ImportOutcome: Sendable, Hashable {
        /// The account as stored (or as already present).
        package var account: AccountInfo
        /// True when it was written; false when an account with that key was already stored (left as is).
        package var imported: Bool
    }

    /// Imports a polkadot-js / Talisman / SubWallet JSON export: one account (`pkcs8`) or a batch
    /// (`batch-pkcs8`, `keyring.backupAccounts`: the encrypted JSON array of keyring files plus a
    /// clear `accounts` list).
    ///
    /// Every account is decrypted and checked (secret → public key → address) before anything is
    /// written, so a wrong password, a truncated or altered file fails with nothing changed on disk.
    /// Encrypted files with allowed scrypt parameters are stored with their original ciphertext (same
    /// password, same cost); unencrypted and pre-scrypt files are re-encrypted with `password` at
    /// `scryptParameters`. Accounts already stored are reported and left untouched.
    ///
    /// - Parameters:
    ///   - data: the file's bytes (untrusted; at most `KeyringJSON.maxFileBytes`).
    ///   - password: the export's password (for an unencrypted file: the password to encrypt it with).
    ///   - accountPassword: for batch entries that `password` does not open (the extension keeps each
    ///     account encrypted with its own password inside a batch): asked once per such account;
    ///     return nil to abort the whole import.
    /// - Throws: `.malformedFile`, `.unsupportedFormat`, `.invalidScryptParameters`, `.decryptFailed`,
    ///   `.keyMismatch`, `.passwordRequired`, `.fileSystem`.
    package func importJSON(
        _ data: Data, password: Passphrase,
        accountPassword: (AccountInfo) -> Passphrase? = { _ in nil }
    ) throws(KeystoreError) -> [ImportOutcome] {
        let file = try KeyringJSON.parse(data)
        var prepared: [(KeyringJSON, AccountInfo)] = []
        if file.isBatch {
            let entries = try Self.batchEntries(file, password: password)
            for (index, entry) in entries.enumerated() {
                do throws(KeystoreError) {
                    prepared.append(try prepare(entry, password: password, accountPassword: accountPassword))
                } catch {
                    throw KeystoreError(error.code, "batch entry \(index): \(error.reason)")
                }
            }
        } else {
            prepared.append(try prepare(file, password: password, accountPassword: accountPassword))
        }
        return try store(prepared)
    }

    /// Derives an account from a secret URI (mnemonic, `0x` seed, `//Alice`, with `//hard/soft///password`)
    /// and stores it encrypted with `password`.
    /// - Throws: `.invalidInput` for an invalid URI (the reason never repeats the URI), `.accountExists`.
    @discardableResult
    package func importSecretURI(
        _ uri: String, scheme: KeyScheme, name: String?, genesisHash: String? = nil, password: Passphrase
    ) throws(KeystoreError) -> AccountInfo {
        let pair: KeyPair
        do {
            pair = try KeyPair(uri: uri, scheme: scheme)
        } catch let error as KeyError {
            throw KeystoreError(.invalidInput, "not a valid secret URI or mnemonic for \(scheme): \(error.code)")
        } catch {
            throw KeystoreError(.invalidInput, "not a valid secret URI or mnemonic for \(scheme)")
        }
        return try add(pair, name: name, genesisHash: genesisHash, password: password)
    }

    /// Decrypts a batch file's payload into its keyring entries.
    static func batchEntries(_ file: KeyringJSON, password: Passphrase) throws(KeystoreError) -> [KeyringJSON] {
        guard file.isEncrypted else {
            throw KeystoreError(.unsupportedFormat, "unencrypted batch exports are not supported")
        }
        let plain = try KeyringCipher.decrypt(try file.encodedBytes(), password: password, usesScrypt: file.usesScrypt)
        // The payload is `stringToU8a(JSON.stringify(accounts))`: UTF-8 JSON of an array of keyring files.
        let root: JSONValue
        do {
            root = try plain.withUnsafeBytes { (raw) throws(PrimitivesError) in
                try JSONValue.parse(raw, limits: JSONLimits(maxDepth: 64, maxBytes: KeyringJSON.maxFileBytes))
            }
        } catch {
            throw KeystoreError(.malformedFile, "decrypted batch is not JSON")
        }
        guard let list = root.arrayValue else {
            throw KeystoreError(.malformedFile, "decrypted batch is not a JSON array")
        }
        var entries: [KeyringJSON] = []
        for (index, value) in list.enumerated() {
            do throws(KeystoreError) {
                entries.append(try KeyringJSON.parse(value))
            } catch {
                throw KeystoreError(error.code, "batch entry \(index): \(error.reason)")
            }
        }
        return entries
    }

    /// Checks one keyring file and turns it into the file we will store.
    private func prepare(
        _ file: KeyringJSON, password: Passphrase, accountPassword: (AccountInfo) -> Passphrase?
    ) throws(KeystoreError) -> (KeyringJSON, AccountInfo) {
        guard !file.isBatch else { throw KeystoreError(.unsupportedFormat, "a batch inside a batch") }
        let scheme = try KeyringPairCodec.scheme(forKeyType: file.keyType)
        var pair: KeyPair
        var usedPassword = password
        do throws(KeystoreError) {
            pair = try Self.decryptPair(file, password: password)
        } catch  where error.code == .decryptFailed {
            // Ask for this account's own password (batch entries keep theirs).
            let preview = try? AccountInfo(
                publicKey: KeyringPairCodec.publicKey(fromAddress: file.address, scheme: scheme), scheme: scheme,
                meta: file.meta, fileName: "")
            guard let preview, let other = accountPassword(preview) else { throw error }
            pair = try Self.decryptPair(file, password: other)
            usedPassword = other
        }
        var meta = file.meta
        if meta["whenCreated"]?.integer(as: Int64.self) == nil { meta["whenCreated"] = .integer(now()) }
        let stored: KeyringJSON
        if file.isEncrypted && file.usesScrypt && file.version == "3" {
            // Keep the original ciphertext: same password, same (allowed) cost; normalise the rest.
            stored = KeyringJSON(
                encoded: file.encoded.hasPrefix("0x")
                    ? Data(try file.encodedBytes()).base64EncodedString() : file.encoded,
                content: ["pkcs8", scheme.rawValue], type: ["scrypt", "xsalsa20-poly1305"], version: "3",
                address: try KeyringPairCodec.jsonAddress(for: pair), meta: meta)
        } else {
            stored = try Self.encryptedFile(for: pair, password: usedPassword, parameters: scryptParameters, meta: meta)
        }
        let fileName = Self.fileName(for: pair.publicKey)
        return (stored, try AccountInfo.from(file: stored, fileName: fileName))
    }

    /// Writes prepared accounts under the lock, skipping keys already stored.
    private func store(_ prepared: [(KeyringJSON, AccountInfo)]) throws(KeystoreError) -> [ImportOutcome] {
        try withAccountsLock { () throws(KeystoreError) -> [ImportOutcome] in
            var outcomes: [ImportOutcome] = []
            var seen: Set<String> = []
            for (file, info) in prepared {
                guard seen.insert(info.fileName).inserted else { continue }
                if try POSIX.status(path(info.fileName)) != nil {
                    outcomes.append(
                        ImportOutcome(account: (try? read(fileName: info.fileName).1) ?? info, imported: false))
                    continue
                }
                try write(file, fileName: info.fileName)
                logger.debug("account imported", metadata: ["file": "\(info.fileName)"])
                outcomes.append(ImportOutcome(account: info, imported: true))
            }
            return outcomes
        }
    }
}
