import Logging
import SigningKeys

extension AccountStore {
    /// Decrypts every account that opens with `password` (what `sigil serve` does once at start).
    /// Accounts with another password stay listed but locked; unreadable files are reported in
    /// `problems`. Each account costs one scrypt derivation (about 0.1 s at N = 2^15).
    /// - Throws: only when the accounts directory cannot be listed.
    public func unlockAll(password: Passphrase) throws(KeystoreError) -> UnlockedKeyring {
        let (accounts, problems) = try list()
        var pairs: [[UInt8]: KeyPair] = [:]
        var extraProblems: [FileProblem] = []
        for account in accounts {
            do throws(KeystoreError) {
                pairs[account.accountId] = try unlock(account, password: password)
            } catch  where error.code == .decryptFailed {
                logger.debug("account stays locked", metadata: ["file": "\(account.fileName)"])
            } catch {
                extraProblems.append(FileProblem(fileName: account.fileName, reason: error.reason))
            }
        }
        logger.debug("accounts unlocked", metadata: ["unlocked": "\(pairs.count)", "total": "\(accounts.count)"])
        return UnlockedKeyring(accounts: accounts, pairs: pairs, store: self, problems: problems + extraProblems)
    }

    /// Lists accounts without unlocking any (serve without a password: everything locked).
    public func lockedKeyring() throws(KeystoreError) -> UnlockedKeyring {
        let (accounts, problems) = try list()
        return UnlockedKeyring(accounts: accounts, pairs: [:], store: self, problems: problems)
    }
}
