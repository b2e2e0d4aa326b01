import Foundation
import Logging
import Primitives
import SigningKeys
import Synchronization

extension AccountStore {
    /// At most this many scrypt derivations run at once in `unlockAll` (each needs 32 MiB at N = 2^15,
    /// 128 MiB at 2^17).
    static let maxParallelUnlocks = 4

    /// Decrypts every account that opens with `password` (what `sigil serve` does once at start).
    /// Accounts with another password stay listed but locked; unreadable files are reported in
    /// `problems`. Each account costs one scrypt derivation (about 0.1 s at N = 2^15); up to
    /// `maxParallelUnlocks` run in parallel.
    /// - Throws: only when the accounts directory cannot be listed.
    package func unlockAll(password: Passphrase) throws(KeystoreError) -> UnlockedKeyring {
        let (accounts, problems) = try list()
        let results = Mutex<[Int: Result<KeyPair, KeystoreError>]>([:])
        let workers = max(1, min(Self.maxParallelUnlocks, ProcessInfo.processInfo.activeProcessorCount, accounts.count))
        DispatchQueue.concurrentPerform(iterations: workers) { worker in
            for index in stride(from: worker, to: accounts.count, by: workers) {
                let result: Result<KeyPair, KeystoreError>
                do throws(KeystoreError) {
                    result = .success(try unlock(accounts[index], password: password))
                } catch {
                    result = .failure(error)
                }
                results.withLock { $0[index] = result }
            }
        }
        var pairs: [[UInt8]: KeyPair] = [:]
        var extraProblems: [FileProblem] = []
        let outcomes = results.withLock { $0 }
        for (index, account) in accounts.enumerated() {
            switch outcomes[index] {
            case .success(let pair)?:
                pairs[account.accountId] = pair
            case .failure(let error)? where error.code == .decryptFailed:
                logger.debug("account stays locked", metadata: ["file": "\(account.fileName)"])
            case .failure(let error)?:
                extraProblems.append(FileProblem(fileName: account.fileName, reason: error.reason))
            case nil:
                extraProblems.append(FileProblem(fileName: account.fileName, reason: "not attempted"))
            }
        }
        logger.debug("accounts unlocked", metadata: ["unlocked": "\(pairs.count)", "total": "\(accounts.count)"])
        return UnlockedKeyring(
            accounts: accounts, pairs: pairs, store: self, problems: problems + extraProblems,
            icon: try unlockAllIcon(password: password),
            ethereum: try unlockAllEthereum(password: password))
    }

    /// Lists accounts without unlocking any (serve without a password: everything locked).
    package func lockedKeyring() throws(KeystoreError) -> UnlockedKeyring {
        let (accounts, problems) = try list()
        return UnlockedKeyring(
            accounts: accounts, pairs: [:], store: self, problems: problems, icon: try unlockAllIcon(password: nil),
            ethereum: try unlockAllEthereum(password: nil))
    }
}
