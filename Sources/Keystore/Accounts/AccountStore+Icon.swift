import Foundation
import Logging
import Primitives
import SigningKeys

/// What Sigil knows about a stored ICON account without decrypting it. Contains no secret.
package struct IconAccountInfo: Sendable, Hashable {
    /// `hx…`.
    package var address: String
    /// `sigil.name`.
    package var name: String?
    /// `sigil.whenCreated`, milliseconds since 1970.
    package var whenCreated: Int64?
    /// `sigil.isTesting`: a development account from the public test seed.
    package var isTesting: Bool
    /// The file name inside `accounts/` (`hx<address hex>.json`).
    package var fileName: String

    package init(address: String, name: String?, whenCreated: Int64?, isTesting: Bool, fileName: String) {
        self.address = address
        self.name = name
        self.whenCreated = whenCreated
        self.isTesting = isTesting
        self.fileName = fileName
    }
}

/// ICON accounts (docs/reference/icon.md §8): one ICON keystore file per account,
/// `accounts/hx<40 hex>.json`, in the format ICONex and the ICON SDKs read, next to the polkadot-js
/// files (which are named `0x….json`, so neither list sees the other's files). Same rules as the
/// polkadot-js accounts: atomic writes under `accounts.lock`, imports checked before anything is
/// written, secrets only inside these calls.
extension AccountStore {
    /// Every readable ICON account, by creation time then address, and the files that are not.
    package func listIcon() throws(KeystoreError) -> (accounts: [IconAccountInfo], problems: [FileProblem]) {
        var accounts: [IconAccountInfo] = []
        var problems: [FileProblem] = []
        for name in try POSIX.listDirectory(directory.accountsPath) where Self.isIconFileName(name) {
            do throws(KeystoreError) {
                accounts.append(try readIcon(fileName: name).1)
            } catch {
                problems.append(FileProblem(fileName: name, reason: error.reason))
            }
        }
        accounts.sort { ($0.whenCreated ?? 0, $0.address) < ($1.whenCreated ?? 0, $1.address) }
        return (accounts, problems)
    }

    /// The ICON account an `hx` address or an exact name (of one ICON account) names.
    package func findIcon(_ query: String) throws(KeystoreError) -> IconAccountInfo {
        let accounts = try listIcon().accounts
        if let match = accounts.first(where: { $0.address == query.lowercased() }) { return match }
        let named = accounts.filter { $0.name == query }
        if named.count == 1 { return named[0] }
        if named.count > 1 {
            throw KeystoreError(.invalidInput, "\(named.count) ICON accounts are named \"\(query)\"; give the address")
        }
        throw KeystoreError(.accountNotFound, "no ICON account \(query.prefix(80)) in \(directory.accountsPath)")
    }

    /// Encrypts an ICON key with `password` and stores it as a new account.
    @discardableResult
    package func addIcon(
        _ pair: IconKeyPair, name: String?, password: Passphrase, isTesting: Bool = false
    ) throws(KeystoreError) -> IconAccountInfo {
        var meta: JSONObject = ["whenCreated": .integer(now())]
        if let name { meta["name"] = .string(name) }
        if isTesting { meta["isTesting"] = true }
        let file = try IconKeystoreFile.encrypt(pair, password: password, sigilMeta: meta)
        return try storeIcon(file)
    }

    /// Imports an ICON keystore file (ICONex, Hana, iconsdk, icon-sdk-js): it must decrypt with
    /// `password` and its key must give its address before it is stored. The file keeps its own
    /// encryption (and so its password); `name` is recorded.
    /// - Returns: the account and whether it was new (an account already stored is left alone).
    package func importIconFile(
        _ bytes: [UInt8], password: Passphrase, name: String?
    ) throws(KeystoreError) -> (account: IconAccountInfo, imported: Bool) {
        var file = try IconKeystoreFile.parse(bytes)
        _ = try file.decrypt(password: password)
        var meta: JSONObject = ["whenCreated": .integer(now())]
        if let name { meta["name"] = .string(name) }
        file.sigilMeta = meta
        do {
            return (try storeIcon(file), true)
        } catch  where error.code == .accountExists {
            return (try findIcon(file.address), false)
        }
    }

    /// An ICON keystore file of a stored account that ICONex and the SDKs import: decrypted with
    /// `password` (proving it), re-encrypted with the same password, fresh salt and IV and `kdf`
    /// (default scrypt N = 2^14, r = 8, p = 1), without Sigil's `sigil` object.
    package func exportIcon(
        _ query: String, password: Passphrase, kdf: IconKeystoreFile.KDF = IconKeystoreFile.defaultKDF
    ) throws(KeystoreError) -> [UInt8] {
        let info = try findIcon(query)
        let pair = try unlockIcon(info, password: password)
        let out = try IconKeystoreFile.encrypt(pair, password: password, kdf: kdf)
        logger.debug("ICON account exported", metadata: ["file": "\(info.fileName)"])
        return out.json(includeSigilMeta: false).encoded([.pretty])
    }

    /// Decrypts one ICON account. - Throws: `.decryptFailed`, `.keyMismatch`, `.malformedFile`.
    package func unlockIcon(_ account: IconAccountInfo, password: Passphrase) throws(KeystoreError) -> IconKeyPair {
        try readIcon(fileName: account.fileName).0.decrypt(password: password)
    }

    /// Deletes an ICON account's file.
    @discardableResult
    package func removeIcon(_ query: String) throws(KeystoreError) -> IconAccountInfo {
        try withAccountsLock { () throws(KeystoreError) -> IconAccountInfo in
            let info = try findIcon(query)
            guard try AtomicFile.remove(path(info.fileName)) else {
                throw KeystoreError(.accountNotFound, "account \(info.address) was removed meanwhile")
            }
            return info
        }
    }

    /// Decrypts every ICON account that opens with `password`; the others stay locked.
    package func unlockAllIcon(password: Passphrase?) throws(KeystoreError) -> IconKeyring {
        let (accounts, problems) = try listIcon()
        var pairs: [String: IconKeyPair] = [:]
        var extra: [FileProblem] = []
        if let password {
            for account in accounts {
                do throws(KeystoreError) {
                    pairs[account.address] = try unlockIcon(account, password: password)
                } catch  where error.code == .decryptFailed {
                    logger.debug("ICON account stays locked", metadata: ["file": "\(account.fileName)"])
                } catch {
                    extra.append(FileProblem(fileName: account.fileName, reason: error.reason))
                }
            }
        }
        return IconKeyring(accounts: accounts, pairs: pairs, problems: problems + extra)
    }

    // MARK: internals

    func storeIcon(_ file: IconKeystoreFile) throws(KeystoreError) -> IconAccountInfo {
        try withAccountsLock { () throws(KeystoreError) -> IconAccountInfo in
            let fileName = file.address + ".json"
            if try POSIX.status(path(fileName)) != nil {
                throw KeystoreError(.accountExists, "ICON account \(file.address) is already stored")
            }
            try AtomicFile.write(file.json(includeSigilMeta: true).encoded([.pretty]), to: path(fileName))
            logger.debug("ICON account added", metadata: ["file": "\(fileName)"])
            return Self.iconInfo(file, fileName: fileName)
        }
    }

    func readIcon(fileName: String) throws(KeystoreError) -> (IconKeystoreFile, IconAccountInfo) {
        let bytes = try POSIX.readFile(path(fileName), limit: IconKeystoreFile.maxFileBytes)
        let file: IconKeystoreFile
        do throws(KeystoreError) {
            file = try IconKeystoreFile.parse(bytes)
        } catch {
            throw KeystoreError(error.code, "\(fileName): \(error.reason)")
        }
        guard file.address + ".json" == fileName else {
            throw KeystoreError(.keyMismatch, "\(fileName): the address inside names another account")
        }
        return (file, Self.iconInfo(file, fileName: fileName))
    }

    static func iconInfo(_ file: IconKeystoreFile, fileName: String) -> IconAccountInfo {
        IconAccountInfo(
            address: file.address, name: file.sigilMeta["name"]?.stringValue,
            whenCreated: file.sigilMeta["whenCreated"]?.integer(as: Int64.self),
            isTesting: file.sigilMeta["isTesting"]?.boolValue ?? false, fileName: fileName)
    }

    static func isIconFileName(_ name: String) -> Bool {
        name.hasPrefix("hx") && name.hasSuffix(".json") && !name.contains(AtomicFile.temporaryMarker)
            && IconKeystoreFile.isAddress(String(name.dropLast(5)))
    }
}

/// The ICON accounts a running gateway knows and the key pairs of those it could unlock.
/// Immutable; holds decrypted keys (in SigningKeys' wiped buffers) until released.
package final class IconKeyring: Sendable {
    /// Every ICON account, unlocked or not.
    package let accounts: [IconAccountInfo]
    private let pairs: [String: IconKeyPair]
    /// Files that could not be read.
    package let problems: [AccountStore.FileProblem]

    package init(accounts: [IconAccountInfo], pairs: [String: IconKeyPair], problems: [AccountStore.FileProblem] = []) {
        self.accounts = accounts
        self.pairs = pairs
        self.problems = problems
    }

    /// No ICON accounts.
    package static let empty = IconKeyring(accounts: [], pairs: [:])

    /// The accounts that can sign.
    package var unlockedAccounts: [IconAccountInfo] { accounts.filter { pairs[$0.address] != nil } }

    /// The key of an unlocked account (`hx…`).
    package func keyPair(for address: String) -> IconKeyPair? { pairs[address] }
}
