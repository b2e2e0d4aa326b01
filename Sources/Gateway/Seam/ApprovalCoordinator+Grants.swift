import Journal
import Keystore
import Logging
import Primitives
import SignerCore

/// The grant book's writes: a person's decisions from the approval page, and the stored
/// authorizations (stored first, applied to memory once stored, newer revisions only).
extension ApprovalCoordinator {
    /// A person approves a pending request. For an authorization, `accounts` are the account keys
    /// ticked (unknown keys are ignored).
    /// - Throws: `SignerError.unknownApproval` if it is no longer pending; `GatewayError.notSaved`
    ///   when the store refused the authorization (the dapp was answered with an error, nothing
    ///   was connected).
    nonisolated(nonsending) func approve(_ id: UInt64, accounts: [String] = []) async throws {
        let decided = try await decide(id, approve: true, accounts: accounts, deliverReply: true)
        if let failure = decided.failure { throw failure }
    }

    /// A person rejects a pending request (`Cancelled`, `Rejected`, or the authorization rejection).
    /// - Throws: `SignerError.unknownApproval` if it is no longer pending; `GatewayError.notSaved`
    ///   when the store refused to record a rejected site (the dapp still got the rejection).
    nonisolated(nonsending) func reject(_ id: UInt64) async throws {
        let decided = try await decide(id, approve: false, accounts: [], deliverReply: true)
        if let failure = decided.failure { throw failure }
    }

    /// Disconnects a source (one store transaction): its waiting requests are cancelled and every
    /// open subscription of it gets an empty account list at once.
    /// - Returns: whether it was connected.
    /// - Throws: `GatewayError.notSaved` when the store refused (nothing changed).
    @discardableResult
    nonisolated(nonsending) func revoke(_ source: String) async throws -> Bool {
        let was = center.book.site(source) != nil
        if let change = try await stored("revoke", source, { try await persistence.revoke(source) }) {
            await apply(change)
        } else {
            // The store holds no such site (another process revoked it): memory follows.
            await disconnect(source)
        }
        return was
    }

    /// The person turns blind signing on or off for one site (the approval page; the command line
    /// writes the same setting). Never reachable by a site.
    /// - Throws: `GatewayError.invalidInput` when `source` is not an exact origin, `.notSaved` when
    ///   the store refused (nothing changed).
    nonisolated(nonsending) func setBlindSigning(_ allowed: Bool, for source: String) async throws {
        guard SiteOrigin(source)?.description == source else {
            throw GatewayError(.invalidInput, "not an exact origin (scheme://host[:port])")
        }
        do {
            try await blindSigning.setAllowed(allowed, for: source)
        } catch {
            throw GatewayError(.notSaved, "blind-signing setting: \(error)")
        }
        logger.notice("blind signing \(allowed ? "on" : "off")", metadata: ["source": "\(source)"])
        notifyUI()
    }

    /// The origins blind signing is on for (stored setting and configuration), sorted; empty when the
    /// store cannot be read.
    nonisolated(nonsending) func blindSigningOrigins() async -> [String] {
        let stored = (try? await blindSigning.allowedOrigins()) ?? []
        return Set(stored).union(options.iconBlindSigningOrigins).sorted()
    }

    /// Replaces the accounts a connected source sees (one store transaction); open subscriptions
    /// get the new list.
    /// - Throws: `SignerError.notEnabled` when the source is not connected (in memory or in the
    ///   store: then memory follows the store), `GatewayError.notSaved` when the store refused.
    nonisolated(nonsending) func setAccounts(_ source: String, accounts: [String]) async throws {
        let known = signer.accounts().map(\.key)
        _ = try center.requireEnabled(source)
        let granted = ApprovalCenter.granted(accounts, known: known)
        guard
            let change = try await stored(
                "set accounts", source, { try await persistence.setAccounts(source, accounts: granted) })
        else {
            await disconnect(source)
            throw SignerError(.notEnabled, "source not enabled")
        }
        await apply(change)
    }

    /// Applies the authorization changes stored since the last look (by this process or another,
    /// e.g. `sigil origins revoke`): each is applied only if newer than what memory holds for its
    /// source, so a change made while the read was under way is never undone.
    /// - Throws: the store's error when it cannot be read (memory is unchanged).
    nonisolated(nonsending) func reconcile() async throws {
        let changes = try await persistence.changes(after: revisions.cursor)
        await reconcile(with: changes)
    }

    /// Applies `stored` (changes read from the store, possibly a while ago): a source's change is
    /// applied only when its revision is newer than what memory holds for the source. Revoked
    /// sources' tabs get an empty list at once; granted or changed ones get their new list.
    nonisolated(nonsending) func reconcile(with stored: AuthorizationChanges) async {
        for change in stored.changes { await apply(change) }
        revisions.advance(to: stored.revision)
    }

    /// Runs one authorization change against the store. A failure is logged (source and the
    /// store's reason, never a secret) and becomes `GatewayError.notSaved`; nothing is swallowed.
    nonisolated(nonsending) func stored<T>(
        _ action: String, _ source: String, _ change: nonisolated(nonsending) () async throws -> T
    ) async throws(GatewayError) -> T {
        do {
            return try await change()
        } catch {
            logger.error(
                "authorization not saved",
                metadata: ["action": "\(action)", "origin": "\(source)", "reason": "\(error)"])
            throw GatewayError(.notSaved, "\(action) not saved")
        }
    }

    /// Applies a stored change to memory if it is newer than what memory holds for its source
    /// (``AuthorizationRevisions``), pushing the new account list to the source's subscriptions.
    nonisolated(nonsending) func apply(_ change: AuthorizationChange) async {
        guard revisions.accept(change) else { return }
        if let site = change.site {
            guard center.book.site(site.source) != site else { return }
            center.grant(site)
            notifyUI()
            await pushCurrentAccounts(to: site.source)
        } else {
            await disconnect(change.source)
        }
    }

    /// Drops a source from memory: its waiting requests are cancelled, its subscriptions get an
    /// empty list.
    nonisolated(nonsending) func disconnect(_ source: String) async {
        let heldKeys = center.book.site(source)?.accounts ?? []
        let (was, dropped) = center.revoke(source)
        // Every protocol's grant ends with the book's record (memory first, so ICRC stops at once);
        // the ICRC scopes are cleared too (a failure is logged by `clear` and they stay void: they
        // count only while the site is in the book).
        try? await clearScopes(source)
        guard was || !dropped.isEmpty else { return }
        for approval in dropped { await answerCancelled(approval, .cancelled, "the site was disconnected") }
        pushAccounts(to: source, list: .array([]))
        for observer in revocationObservers { await observer(source, heldKeys) }
        notifyUI()
    }

    /// Pushes the source's account list as memory holds it now.
    nonisolated(nonsending) func pushCurrentAccounts(to source: String) async {
        guard let keys = center.book.site(source)?.accounts else { return }
        pushAccounts(to: source, list: subscribedAccounts(keys))
    }
}
