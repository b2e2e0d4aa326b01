import Keystore
import Logging
import Primitives
import SignerCore

/// The ICRC layer's person: ICRC requests join the same approval queue as polkadot-js requests
/// (approval page, terminal, automatic mode, expiry, journal), and the ICRC layer awaits the answer.
/// A call is signed here, between the decision and its journal entry, so the entry records the
/// signature (`sender_sig`) and is durable before the signature leaves, as for every protocol.
extension GatewayService: IcrcApprover {
    package nonisolated func decide(origin: String, title: String, rows: [SummaryRow]) async -> Bool? {
        let request = IcpApprovalRequest(method: Icrc.RequestPermissions.name, title: title, summary: rows)
        switch await icpDecision(origin: origin, request: request, sign: nil) {
        case .approved: return true
        case .rejected: return false
        case .withdrawn, .failed: return nil
        }
    }

    package nonisolated func decideAndSign<T: Sendable>(
        origin: String, method: IcrcMethod, title: String, rows: [SummaryRow], requestId: [UInt8],
        sign: @escaping @Sendable () throws -> (T, [UInt8])
    ) async throws(IcrcError) -> T? {
        let request = IcpApprovalRequest(method: method.name, title: title, summary: rows, requestId: requestId)
        let outcome = await icpDecision(
            origin: origin, request: request,
            sign: {
                let (value, signature) = try sign()
                return IcpSigned(value: value, signature: signature)
            })
        switch outcome {
        case .rejected, .withdrawn: return nil
        case .failed(let error): throw error
        case .approved(let signed):
            guard let value = signed?.value as? T else { throw IcrcError(.genericError, "nothing was signed") }
            return value
        }
    }

    /// Queues the request and waits for a person (or the automatic mode; expiry, revocation or the
    /// client going away: `.withdrawn`). A stranger's request takes a place of the connection
    /// requests' pool (``ApprovalCenter/requestIcp(source:request:now:)``). When the waiting task is
    /// cancelled (the HTTP client dropped its connection), the prompt is withdrawn at once: work for
    /// a vanished client stops.
    func icpDecision(origin: String, request: IcpApprovalRequest, sign: IcpWaiter.Sign?) async -> IcpOutcome {
        guard !Task.isCancelled else { return .withdrawn }
        let approval: PendingApproval<ApprovalSubject>
        do {
            approval = try center.requestIcp(source: origin, request: request, now: clock.now)
        } catch {
            logger.debug("ICP request refused", metadata: ["origin": "\(origin)", "reason": "\(error)"])
            return .withdrawn
        }
        let id = approval.id
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                icpWaiters[id] = IcpWaiter(continuation: continuation, sign: sign)
                if options.approvalMode == .automatic {
                    Task { _ = try? await self.decide(id, approve: true, accounts: nil, deliverReply: false) }
                } else {
                    notifyUI()
                    for listener in approvalListeners.values { listener.yield(approval) }
                }
            }
        } onCancel: {
            Task { await self.withdraw(id, "the client went away") }
        }
    }

    /// Withdraws a waiting request whose client went away: recorded as `cancelled` (within the
    /// journal budget) and answered to whoever still waits.
    func withdraw(_ id: UInt64, _ detail: String) async {
        guard let approval = center.withdraw(id: id) else { return }
        notifyUI()
        await answerCancelled(approval, .cancelled, detail)
    }

    /// The decided step for an ICP approval: signs an approved call (before its journal entry).
    /// - Returns: the signature to journal, the detail, and the outcome to resume the ICRC layer with
    ///   once the entry is stored (`finish`).
    func icpSigned(_ waiter: IcpWaiter?, approved: Bool) -> (signature: [UInt8]?, detail: String, outcome: IcpOutcome) {
        guard approved else { return (nil, "", .rejected) }
        guard let sign = waiter?.sign else { return (nil, "", .approved(nil)) }
        do {
            let signed = try sign()
            return (signed.signature, "", .approved(signed))
        } catch {
            return (
                nil, "signing failed: \(Self.ruleName(error))",
                .failed(IcrcError(.genericError, "the call could not be signed: \(Self.ruleName(error))"))
            )
        }
    }
}

/// An ICRC request waiting for its person, and how to sign it once approved (nil for permissions).
struct IcpWaiter {
    typealias Sign = @Sendable () throws -> IcpSigned
    let continuation: CheckedContinuation<IcpOutcome, Never>
    let sign: Sign?
}

/// What an approved ICP request signed: the ICRC layer's result and the signature bytes journaled.
struct IcpSigned: Sendable {
    /// `decideAndSign`'s `T`, read back with `as? T`.
    let value: any Sendable
    let signature: [UInt8]
}

/// How an ICP approval ended, for the waiting ICRC layer.
enum IcpOutcome: Sendable {
    /// A person said no.
    case rejected
    /// Nobody decided: expired, the site was revoked, the client went away, or no place was left.
    case withdrawn
    /// Approved; what was signed (nil for a permission).
    case approved(IcpSigned?)
    /// Approved but not signed, or the signature could not be journaled (and is withheld).
    case failed(IcrcError)
}

/// The grant book's Internet Computer view: ICRC-25 scopes are kept per origin (``icrcScopes``) but
/// count only while the origin is in the one grant book (``AuthorizationBook``), the same book every
/// protocol's connection is recorded in. A decided scope puts the origin into the book (with no
/// Polkadot accounts) if it is not there yet, so it shows on `/api/state` and in `sigil origins
/// list`; revoking the origin (approval page, `sigil origins revoke`, another process) ends every
/// scope, in memory and across restarts. The blind-signing switch is read fresh at each load and
/// never written here.
extension GatewayService: IcrcPermissionStore {
    package func load(_ origin: String) async throws -> IcrcSitePermissions? {
        let blind = await isBlindSigningAllowed(origin)
        guard center.book.site(origin) != nil else { return IcrcSitePermissions(blindSigning: blind) }
        var permissions = try await icrcScopes.load(origin) ?? IcrcSitePermissions()
        permissions.blindSigning = blind
        return permissions
    }

    /// Records decided scopes (only these fields) and, when the origin is not in the grant book yet,
    /// connects it there (one store transaction; memory follows once stored).
    /// - Throws: `GatewayError.notSaved` when the store refused.
    package func setScopes(_ states: [String: IcrcSitePermissions.State], for origin: String) async throws {
        try await stored("ICRC scopes", origin, { try await icrcScopes.setScopes(states, for: origin) })
        defer { notifyUI() }
        guard center.book.site(origin) == nil, !storingAuthorizations.contains(origin) else { return }
        storingAuthorizations.insert(origin)
        defer { storingAuthorizations.remove(origin) }
        let site = AuthorizedSite(source: origin, appName: "", accounts: [])
        await apply(try await stored("grant", origin, { try await persistence.grant(site) }))
    }

    package func clear(_ origin: String) async throws {
        try await stored("ICRC scopes cleared", origin, { try await icrcScopes.clear(origin) })
    }
}
