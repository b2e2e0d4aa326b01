import Foundation
import Logging
import Primitives
import SigningKeys

/// The accounts in a data directory: one polkadot-js keyring JSON v3 file per account in
/// `accounts/`, named `0x<public key hex>.json`, encrypted with scrypt + XSalsa20-Poly1305.
///
/// Concurrency and crash safety (the decision, tested in AccountStoreTests and the crash step):
/// - Every file is replaced atomically (`AtomicFile`: temp file, fsync, rename, fsync dir). A reader
///   or a process killed at any instant sees each account either complete or absent.
/// - Changes (add, import, rename, remove) hold `accounts.lock` (flock, waiting up to 10 s) for their
///   read-modify-write, so two `sigil accounts` commands never lose each other's change.
/// - Reads take no lock. A running `sigil serve` holds `serve.lock` instead and keeps the accounts it
///   unlocked in memory: account changes made while it runs are seen at its next start.
///
/// Security: secrets exist only inside `add`/`import`/`export`/`unlock` calls (in wiped buffers) and
/// in the `KeyPair`s returned to the caller. Errors and log lines carry addresses and file names,
/// never key material or passwords.
package final class AccountStore: Sendable {
    /// The data directory.
    package let directory: DataDirectory
    /// scrypt parameters for files this store writes (default N = 2^15, p = 1, r = 8).
    package let scryptParameters: ScryptParameters
    let logger: Logger
    let now: @Sendable () -> Int64

    /// How long a change waits for another command's `accounts.lock`.
    package static let lockTimeout = Duration.seconds(10)
    /// Largest account file read.
    static let maxAccountFileBytes = 64 * 1024

    /// - Parameters:
    ///   - directory: an opened data directory.
    ///   - scryptParameters: for new and re-encrypted files; must be in polkadot-js's allow-list.
    ///   - logger: receives `debug` lines (addresses and file names only).
    package init(
        directory: DataDirectory, scryptParameters: ScryptParameters = .interoperable,
        logger: Logger = Logger(label: "sigil.keystore"),
        now: @escaping @Sendable () -> Int64 = { Int64(Date().timeIntervalSince1970 * 1000) }
    ) {
        self.directory = directory
        self.scryptParameters = scryptParameters
        self.logger = logger
        self.now = now
    }

    /// A file in `accounts/` that could not be read as an account.
    package struct FileProblem: Sendable, Hashable {
        /// The file name inside `accounts/`.
        package var fileName: String
        /// What is wrong (no secrets).
        package var reason: String
    }

    /// Every readable account, ordered by creation time then address, and the files that are not.
    package func list() throws(KeystoreError) -> (accounts: [AccountInfo], problems: [FileProblem]) {
        var accounts: [AccountInfo] = []
        var problems: [FileProblem] = []
        for name in try POSIX.listDirectory(directory.accountsPath) where Self.isAccountFileName(name) {
            do throws(KeystoreError) {
                let (_, info) = try read(fileName: name)
                accounts.append(info)
            } catch {
                problems.append(FileProblem(fileName: name, reason: error.reason))
            }
        }
        accounts.sort { ($0.whenCreated ?? 0, $0.address) < ($1.whenCreated ?? 0, $1.address) }
        return (accounts, problems)
    }

    /// The account a user named: an SS58 address (any network prefix), a 0x-hex public key or account
    /// id, or an exact account name when exactly one account has it.
    /// - Throws: `.accountNotFound`, or `.invalidInput` when a name matches several accounts.
    package func find(_ query: String) throws(KeystoreError) -> AccountInfo {
        let accounts = try list().accounts
        var key: [UInt8]?
        if query.hasPrefix("0x") {
            key = try? Hex.decode(query, prefix: .optional)
        } else {
            key = (try? SS58.decode(query, keyLength: 32))?.key
        }
        if let key, let match = accounts.first(where: { $0.accountId == key || $0.publicKey == key }) {
            return match
        }
        let named = accounts.filter { $0.name == query }
        if named.count == 1 { return named[0] }
        if named.count > 1 {
            throw KeystoreError(.invalidInput, "\(named.count) accounts are named \"\(query)\"; give the address")
        }
        throw KeystoreError(.accountNotFound, "no account \(query.prefix(80)) in \(directory.accountsPath)")
    }

    /// Encrypts `pair` with `password` and stores it as a new account.
    /// - Parameters:
    ///   - name: `meta.name`.
    ///   - genesisHash: `meta.genesisHash`, restricting the account to one chain (0x + 64 hex).
    ///   - extraMeta: further `meta` keys (e.g. `isTesting`), written as given.
    /// - Throws: `.accountExists`, `.passwordRequired` (empty password), `.invalidInput`, `.fileSystem`.
    @discardableResult
    package func add(
        _ pair: KeyPair, name: String?, genesisHash: String? = nil, password: Passphrase,
        extraMeta: JSONObject = [:]
    ) throws(KeystoreError) -> AccountInfo {
        var meta = extraMeta
        if let name { meta["name"] = .string(name) }
        if let genesisHash { meta["genesisHash"] = .string(try GenesisHash.normalized(genesisHash)) }
        meta["whenCreated"] = .integer(now())
        let file = try Self.encryptedFile(for: pair, password: password, parameters: scryptParameters, meta: meta)
        return try withAccountsLock { () throws(KeystoreError) -> AccountInfo in
            let fileName = Self.fileName(for: pair.publicKey)
            if try POSIX.status(path(fileName)) != nil {
                throw KeystoreError(
                    .accountExists, "account \(try KeyringPairCodec.jsonAddress(for: pair)) is already stored")
            }
            try write(file, fileName: fileName)
            logger.debug("account added", metadata: ["file": "\(fileName)", "scheme": "\(pair.scheme)"])
            return try AccountInfo.from(file: file, fileName: fileName)
        }
    }

    /// Sets `meta.name` of an account (no password needed: `meta` is not encrypted).
    @discardableResult
    package func rename(_ query: String, to name: String) throws(KeystoreError) -> AccountInfo {
        try updateMeta(query) { $0["name"] = .string(name) }
    }

    /// Sets `meta.isHidden` of an account.
    @discardableResult
    package func setHidden(_ query: String, _ hidden: Bool) throws(KeystoreError) -> AccountInfo {
        try updateMeta(query) { $0["isHidden"] = .bool(hidden) }
    }

    /// Deletes an account's file (durably). There is no undo: export it first to keep it.
    @discardableResult
    package func remove(_ query: String) throws(KeystoreError) -> AccountInfo {
        try withAccountsLock { () throws(KeystoreError) -> AccountInfo in
            let info = try find(query)
            guard try AtomicFile.remove(path(info.fileName)) else {
                throw KeystoreError(.accountNotFound, "account \(info.address) was removed meanwhile")
            }
            logger.debug("account removed", metadata: ["file": "\(info.fileName)"])
            return info
        }
    }

    /// Decrypts one account.
    /// - Throws: `.decryptFailed` for a wrong password, `.keyMismatch`, `.malformedFile`.
    package func unlock(_ account: AccountInfo, password: Passphrase) throws(KeystoreError) -> KeyPair {
        let (file, _) = try read(fileName: account.fileName)
        return try Self.decryptPair(file, password: password)
    }

    // MARK: Internals

    private func updateMeta(
        _ query: String, _ change: (inout JSONObject) -> Void
    ) throws(KeystoreError) -> AccountInfo {
        try withAccountsLock { () throws(KeystoreError) -> AccountInfo in
            let info = try find(query)
            var (file, _) = try read(fileName: info.fileName)
            change(&file.meta)
            try write(file, fileName: info.fileName)
            logger.debug("account meta changed", metadata: ["file": "\(info.fileName)"])
            return try AccountInfo.from(file: file, fileName: info.fileName)
        }
    }

    func withAccountsLock<T>(_ body: () throws(KeystoreError) -> T) throws(KeystoreError) -> T {
        let lock = try DirectoryLock.acquire(directory.accountsLockPath, waitingUpTo: Self.lockTimeout)
        defer { lock.unlock() }
        return try body()
    }

    func path(_ fileName: String) -> String { directory.accountsPath + "/" + fileName }

    func read(fileName: String) throws(KeystoreError) -> (KeyringJSON, AccountInfo) {
        let bytes = try POSIX.readFile(path(fileName), limit: Self.maxAccountFileBytes)
        let file: KeyringJSON
        do throws(KeystoreError) {
            file = try KeyringJSON.parse(Data(bytes))
        } catch {
            throw KeystoreError(error.code, "\(fileName): \(error.reason)")
        }
        let info = try AccountInfo.from(file: file, fileName: fileName)
        guard Self.fileName(for: info.publicKey) == fileName else {
            throw KeystoreError(.keyMismatch, "\(fileName): the address inside names another key")
        }
        return (file, info)
    }

    func write(_ file: KeyringJSON, fileName: String) throws(KeystoreError) {
        let data = try file.serialized()
        try AtomicFile.write([UInt8](data), to: path(fileName))
    }

    /// Builds an encrypted keyring file for `pair` (polkadot-js `pair.toJson(password)`).
    package static func encryptedFile(
        for pair: KeyPair, password: Passphrase, parameters: ScryptParameters, meta: JSONObject
    ) throws(KeystoreError) -> KeyringJSON {
        let plain = try KeyringPairCodec.plaintext(for: pair)
        let encoded = try KeyringCipher.encrypt(plain, password: password, parameters: parameters)
        return KeyringJSON(
            encoded: Data(encoded).base64EncodedString(), content: ["pkcs8", pair.scheme.rawValue],
            type: ["scrypt", "xsalsa20-poly1305"], version: "3", address: try KeyringPairCodec.jsonAddress(for: pair),
            meta: meta)
    }

    /// Decrypts (or, for `type: ["none"]`, decodes) a file and rebuilds its key pair, checking the
    /// embedded public key and the address.
    package static func decryptPair(_ file: KeyringJSON, password: Passphrase?) throws(KeystoreError) -> KeyPair {
        let scheme = try KeyringPairCodec.scheme(forKeyType: file.keyType)
        let bytes = try file.encodedBytes()
        let plain: SecretBytes
        if file.isEncrypted {
            guard let password else {
                throw KeystoreError(.passwordRequired, "the file is encrypted; a password is needed")
            }
            plain = try KeyringCipher.decrypt(bytes, password: password, usesScrypt: file.usesScrypt)
        } else {
            plain = SecretBytes(bytes)
        }
        let pair = try KeyringPairCodec.keyPair(fromPlaintext: plain, scheme: scheme)
        try KeyringPairCodec.checkAddress(file.address, matches: pair)
        return pair
    }

    static func fileName(for publicKey: [UInt8]) -> String { Hex.encode(publicKey) + ".json" }

    static func isAccountFileName(_ name: String) -> Bool {
        name.hasPrefix("0x") && name.hasSuffix(".json") && !name.contains(AtomicFile.temporaryMarker)
    }
}
