import Foundation
import Logging
import Primitives
import SigningKeys
import Synchronization

/// What Sigil knows about a stored Ethereum account without decrypting it. Contains no secret.
package struct EthereumAccountInfo: Sendable, Hashable {
    /// The EIP-55 checksummed address (`0x` + 40 hex digits).
    package var address: String
    /// `sigil.name`.
    package var name: String?
    /// `sigil.whenCreated`, milliseconds since 1970.
    package var whenCreated: Int64?
    /// `sigil.isTesting`: a development account of the public test mnemonic.
    package var isTesting: Bool
    /// The file name inside `accounts/` (`eth-<40 lower-case hex>.json`).
    package var fileName: String

    package init(address: String, name: String?, whenCreated: Int64?, isTesting: Bool, fileName: String) {
        self.address = address
        self.name = name
        self.whenCreated = whenCreated
        self.isTesting = isTesting
        self.fileName = fileName
    }
}

/// Ethereum accounts (docs/reference/ethereum.md §5, §10): one Ethereum keystore v3 file per account,
/// `accounts/eth-<40 lower-case hex>.json`, the format geth, eth-keyfile and ethers read, plus a
/// `sigil` object (name, creation time, test flag) that exports leave out. Neither the polkadot-js
/// list (`0x….json`) nor the ICON list (`hx….json`) reads these files, and this list reads only
/// them. Same rules as the other accounts: atomic writes under `accounts.lock`, imports decrypted
/// and checked (secret → address) before anything is written, secrets only inside these calls.
extension AccountStore {
    /// The KDF of the files `addEthereum` writes: scrypt N = 2^17, r = 8, p = 1 (ethers v6's default).
    package static let ethereumStoreKDF = EthereumKeystoreFile.defaultKDF

    /// Every readable Ethereum account, by creation time then address, and the files that are not.
    package func listEthereum() throws(KeystoreError) -> (accounts: [EthereumAccountInfo], problems: [FileProblem]) {
        var accounts: [EthereumAccountInfo] = []
        var problems: [FileProblem] = []
        for name in try POSIX.listDirectory(directory.accountsPath) where Self.isEthereumFileName(name) {
            do throws(KeystoreError) {
                accounts.append(try readEthereum(fileName: name).1)
            } catch {
                problems.append(FileProblem(fileName: name, reason: error.reason))
            }
        }
        accounts.sort { ($0.whenCreated ?? 0, $0.address) < ($1.whenCreated ?? 0, $1.address) }
        return (accounts, problems)
    }

    /// The Ethereum account a `0x` address (any case) or an exact name (of one Ethereum account) names.
    package func findEthereum(_ query: String) throws(KeystoreError) -> EthereumAccountInfo {
        let accounts = try listEthereum().accounts
        if let bytes = Self.ethereumAddressBytes(query) {
            let wanted = EthereumKeyPair.checksumAddress(bytes)
            if let match = accounts.first(where: { $0.address == wanted }) { return match }
        }
        let named = accounts.filter { $0.name == query }
        if named.count == 1 { return named[0] }
        if named.count > 1 {
            throw KeystoreError(
                .invalidInput, "\(named.count) Ethereum accounts are named \"\(query.prefix(80))\"; give the address")
        }
        throw KeystoreError(.accountNotFound, "no Ethereum account \(query.prefix(80)) in \(directory.accountsPath)")
    }

    /// Encrypts an Ethereum key with `password` (keystore v3, `kdf`) and stores it as a new account.
    /// - Throws: `.accountExists`, `.passwordRequired`, file-system errors.
    @discardableResult
    package func addEthereum(
        _ pair: EthereumKeyPair, name: String?, password: Passphrase, isTesting: Bool = false,
        kdf: EthereumKeystoreFile.KDF = ethereumStoreKDF
    ) throws(KeystoreError) -> EthereumAccountInfo {
        let file = try EthereumKeystoreFile.encrypt(pair, password: password, kdf: kdf)
        return try storeEthereum(file, meta: newMeta(name: name, isTesting: isTesting))
    }

    /// Imports an Ethereum keystore v3 file (geth, eth-keyfile, ethers, MetaMask's export): it must
    /// decrypt with `password` (MAC checked first) and its key must give the address it names before
    /// anything is stored. The file keeps its own encryption and password; `name` is recorded. KDF
    /// costs of the untrusted file are bounded by `EthereumKeystoreFile.parse`.
    /// - Returns: the account and whether it was new (an account already stored is left alone).
    package func importEthereumFile(
        _ bytes: [UInt8], password: Passphrase, name: String?
    ) throws(KeystoreError) -> (account: EthereumAccountInfo, imported: Bool) {
        var file = try EthereumKeystoreFile.parse(bytes)
        let pair = try file.decrypt(password: password)
        // A file without an address (allowed by the format) gets its key's.
        file.address = pair.accountId
        do {
            return (try storeEthereum(file, meta: newMeta(name: name, isTesting: false)), true)
        } catch  where error.code == .accountExists {
            return (try findEthereum(pair.address), false)
        }
    }

    /// An Ethereum keystore v3 file of a stored account that geth, eth-keyfile and ethers load:
    /// decrypted with `password` (proving it), re-encrypted with the same password, a fresh salt,
    /// IV and id and `kdf`, without Sigil's `sigil` object; `address` lower-case without `0x`.
    package func exportEthereum(
        _ query: String, password: Passphrase, kdf: EthereumKeystoreFile.KDF = EthereumKeystoreFile.defaultKDF
    ) throws(KeystoreError) -> [UInt8] {
        let info = try findEthereum(query)
        let pair = try unlockEthereum(info, password: password)
        let out = try EthereumKeystoreFile.encrypt(pair, password: password, kdf: kdf)
        logger.debug("Ethereum account exported", metadata: ["file": "\(info.fileName)"])
        return out.json.encoded([.pretty])
    }

    /// Decrypts one Ethereum account. - Throws: `.decryptFailed`, `.keyMismatch`, `.malformedFile`.
    package func unlockEthereum(
        _ account: EthereumAccountInfo, password: Passphrase
    ) throws(KeystoreError) -> EthereumKeyPair {
        try readEthereum(fileName: account.fileName).0.decrypt(password: password)
    }

    /// Sets an Ethereum account's name (`sigil.name`; not encrypted, so no password). The rest of
    /// the file, its encryption included, is written back as it was.
    @discardableResult
    package func renameEthereum(_ query: String, to name: String) throws(KeystoreError) -> EthereumAccountInfo {
        try withAccountsLock { () throws(KeystoreError) -> EthereumAccountInfo in
            let info = try findEthereum(query)
            let bytes = try POSIX.readFile(path(info.fileName), limit: EthereumKeystoreFile.maxFileBytes)
            guard case .object(var root)? = try? JSONValue.parse(bytes) else {
                throw KeystoreError(.malformedFile, "\(info.fileName): not a JSON object")
            }
            var meta = root["sigil"]?.objectValue ?? [:]
            meta["name"] = .string(name)
            root["sigil"] = .object(meta)
            try AtomicFile.write(JSONValue.object(root).encoded([.pretty]), to: path(info.fileName))
            return try readEthereum(fileName: info.fileName).1
        }
    }

    /// Deletes an Ethereum account's file.
    @discardableResult
    package func removeEthereum(_ query: String) throws(KeystoreError) -> EthereumAccountInfo {
        try withAccountsLock { () throws(KeystoreError) -> EthereumAccountInfo in
            let info = try findEthereum(query)
            guard try AtomicFile.remove(path(info.fileName)) else {
                throw KeystoreError(.accountNotFound, "account \(info.address) was removed meanwhile")
            }
            return info
        }
    }

    /// At most this many Ethereum key derivations run at once in `unlockAllEthereum`: an imported
    /// file may ask for scrypt up to the 256 MiB bound.
    static let maxParallelEthereumUnlocks = 2

    /// Decrypts every Ethereum account that opens with `password` (nil: none); the others stay locked.
    /// Each costs one KDF run (scrypt N = 2^17 for the files Sigil writes: 128 MiB, about half a
    /// second); up to `maxParallelEthereumUnlocks` run in parallel.
    package func unlockAllEthereum(password: Passphrase?) throws(KeystoreError) -> EthereumKeyring {
        let (accounts, problems) = try listEthereum()
        guard let password, !accounts.isEmpty else {
            return EthereumKeyring(accounts: accounts, pairs: [:], problems: problems)
        }
        let results = Mutex<[Int: Result<EthereumKeyPair, KeystoreError>]>([:])
        let workers = max(
            1, min(Self.maxParallelEthereumUnlocks, ProcessInfo.processInfo.activeProcessorCount, accounts.count))
        DispatchQueue.concurrentPerform(iterations: workers) { worker in
            for index in stride(from: worker, to: accounts.count, by: workers) {
                let result: Result<EthereumKeyPair, KeystoreError>
                do throws(KeystoreError) {
                    result = .success(try unlockEthereum(accounts[index], password: password))
                } catch {
                    result = .failure(error)
                }
                results.withLock { $0[index] = result }
            }
        }
        var pairs: [String: EthereumKeyPair] = [:]
        var extra: [FileProblem] = []
        let outcomes = results.withLock { $0 }
        for (index, account) in accounts.enumerated() {
            switch outcomes[index] {
            case .success(let pair)?:
                pairs[account.address] = pair
            case .failure(let error)? where error.code == .decryptFailed:
                logger.debug("Ethereum account stays locked", metadata: ["file": "\(account.fileName)"])
            case .failure(let error)?:
                extra.append(FileProblem(fileName: account.fileName, reason: error.reason))
            case nil:
                extra.append(FileProblem(fileName: account.fileName, reason: "not attempted"))
            }
        }
        return EthereumKeyring(accounts: accounts, pairs: pairs, problems: problems + extra)
    }

    // MARK: internals

    private func newMeta(name: String?, isTesting: Bool) -> JSONObject {
        var meta: JSONObject = ["whenCreated": .integer(now())]
        if let name { meta["name"] = .string(name) }
        if isTesting { meta["isTesting"] = true }
        return meta
    }

    /// Writes `file` (which names its address) with Sigil's `meta` as a new account file.
    func storeEthereum(_ file: EthereumKeystoreFile, meta: JSONObject) throws(KeystoreError) -> EthereumAccountInfo {
        guard let address = file.address else { throw KeystoreError(.invalidInput, "the file names no address") }
        return try withAccountsLock { () throws(KeystoreError) -> EthereumAccountInfo in
            let fileName = Self.ethereumFileName(address)
            if try POSIX.status(path(fileName)) != nil {
                throw KeystoreError(
                    .accountExists, "Ethereum account \(EthereumKeyPair.checksumAddress(address)) is already stored")
            }
            guard case .object(var root) = file.json else {
                throw KeystoreError(.invalidInput, "the keystore file is not an object")
            }
            root["sigil"] = .object(meta)
            try AtomicFile.write(JSONValue.object(root).encoded([.pretty]), to: path(fileName))
            logger.debug("Ethereum account added", metadata: ["file": "\(fileName)"])
            return Self.ethereumInfo(address: address, meta: meta, fileName: fileName)
        }
    }

    func readEthereum(fileName: String) throws(KeystoreError) -> (EthereumKeystoreFile, EthereumAccountInfo) {
        let bytes = try POSIX.readFile(path(fileName), limit: EthereumKeystoreFile.maxFileBytes)
        let file: EthereumKeystoreFile
        do throws(KeystoreError) {
            file = try EthereumKeystoreFile.parse(bytes)
        } catch {
            throw KeystoreError(error.code, "\(fileName): \(error.reason)")
        }
        guard let address = file.address, Self.ethereumFileName(address) == fileName else {
            throw KeystoreError(.keyMismatch, "\(fileName): the address inside names another account")
        }
        // The file parsed above, so it is JSON; its `sigil` object is Sigil's own record.
        let meta = (try? JSONValue.parse(bytes))?["sigil"]?.objectValue ?? [:]
        return (file, Self.ethereumInfo(address: address, meta: meta, fileName: fileName))
    }

    static func ethereumInfo(address: [UInt8], meta: JSONObject, fileName: String) -> EthereumAccountInfo {
        EthereumAccountInfo(
            address: EthereumKeyPair.checksumAddress(address), name: meta["name"]?.stringValue,
            whenCreated: meta["whenCreated"]?.integer(as: Int64.self),
            isTesting: meta["isTesting"]?.boolValue ?? false, fileName: fileName)
    }

    /// `eth-<40 lower-case hex>.json`.
    static func ethereumFileName(_ address: [UInt8]) -> String {
        "eth-" + Hex.encode(address, prefix: false) + ".json"
    }

    static func isEthereumFileName(_ name: String) -> Bool {
        let u = Array(name.utf8)
        return name.hasPrefix("eth-") && name.hasSuffix(".json") && u.count == 4 + 40 + 5
            && u[4..<44].allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x61 && $0 <= 0x66) }
    }

    /// The 20 bytes of `0x` + 40 hex digits in any case (the checksum is not checked: a person may
    /// type an address in lower case); nil for anything else.
    package static func ethereumAddressBytes(_ text: String) -> [UInt8]? {
        guard text.utf8.count == 42, text.hasPrefix("0x") || text.hasPrefix("0X") else { return nil }
        return try? Hex.decode(String(text.dropFirst(2)), prefix: .forbidden, byteCount: 20)
    }
}

/// The Ethereum accounts a running gateway knows and the key pairs of those it could unlock, by
/// EIP-55 address. Immutable; holds decrypted keys (in SigningKeys' wiped buffers) until released.
package final class EthereumKeyring: Sendable {
    /// Every Ethereum account, unlocked or not.
    package let accounts: [EthereumAccountInfo]
    private let pairs: [String: EthereumKeyPair]
    /// Files that could not be read.
    package let problems: [AccountStore.FileProblem]

    /// `pairs` by EIP-55 address (the accounts' `address`).
    package init(
        accounts: [EthereumAccountInfo], pairs: [String: EthereumKeyPair], problems: [AccountStore.FileProblem] = []
    ) {
        self.accounts = accounts
        self.pairs = pairs
        self.problems = problems
    }

    /// No Ethereum accounts.
    package static let empty = EthereumKeyring(accounts: [], pairs: [:])

    /// The accounts that can sign.
    package var unlockedAccounts: [EthereumAccountInfo] { accounts.filter { pairs[$0.address] != nil } }

    /// The key of an unlocked account, by its address in any case (`0x` + 40 hex digits).
    package func keyPair(for address: String) -> EthereumKeyPair? {
        guard let bytes = AccountStore.ethereumAddressBytes(address) else { return nil }
        return pairs[EthereumKeyPair.checksumAddress(bytes)]
    }
}
