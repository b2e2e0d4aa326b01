import Foundation
import ICPCodec
import Primitives
import SignerCore

extension EntryPoint {
    /// `POST /v1/icrc`: ICRC-25/27/29/49 JSON-RPC.
    package static let icrc = EntryPoint("POST", "/v1/icrc")
    /// `POST /v1/icrc29`: the ICRC-29 signer page relaying a dapp's `event.origin`.
    package static let icrc29 = EntryPoint("POST", "/v1/icrc29")
}

/// Where approved calls go: a replica (`--ic-url`), or a test double.
package protocol IcNetwork: Sendable {
    /// Submits the signed call, waits until its status is replied, rejected or done, and returns the
    /// CBOR certificate of that `read_state` answer. Throws `IcrcError(.networkError, …)`.
    func submit(canister: Principal, call: SignedIcpCall) async throws(IcrcError) -> [UInt8]
}

/// What one origin was allowed (ICRC-25 scopes) and whether it may ask for calls Sigil cannot
/// describe (blind signing, off by default as ICRC-49 requires).
package struct IcrcSitePermissions: Sendable, Hashable, Codable {
    package enum State: String, Sendable, Hashable, Codable {
        case granted
        case denied
        case askOnUse = "ask_on_use"
    }

    package var scopes: [String: State]
    package var blindSigning: Bool

    package init(scopes: [String: State] = [:], blindSigning: Bool = false) {
        self.scopes = scopes
        self.blindSigning = blindSigning
    }

    package func state(_ method: IcrcMethod) -> State { scopes[method.name] ?? .askOnUse }
}

/// ICRC permissions per origin. Writes are field-level: each scope is its own record, written
/// alone, and the blind-signing switch is never written here (it is the one switch every protocol
/// reads, ``BlindSigningSettings``), so no read–await–write of a snapshot can undo another change.
/// In `sigil serve` the ``GatewayService`` is the store the ICRC layer sees: the scopes count only
/// while the origin is in the one grant book.
package protocol IcrcPermissionStore: Sendable {
    /// The origin's scopes and its blind-signing switch (nil or empty scopes when it never asked).
    func load(_ origin: String) async throws -> IcrcSitePermissions?
    /// Records the states of exactly these scopes (by method name); other scopes are untouched.
    func setScopes(_ states: [String: IcrcSitePermissions.State], for origin: String) async throws
    /// Forgets every scope of the origin (it was revoked).
    func clear(_ origin: String) async throws
}

/// ICRC scopes kept in memory only (tests, embedding); `blindOrigins` stands for the switch.
package actor InMemoryIcrcPermissions: IcrcPermissionStore {
    private var scopes: [String: [String: IcrcSitePermissions.State]] = [:]
    private let blindOrigins: Set<String>

    package init(blindOrigins: Set<String> = []) { self.blindOrigins = blindOrigins }

    package func load(_ origin: String) -> IcrcSitePermissions? {
        let blind = blindOrigins.contains(origin)
        guard let stored = scopes[origin] else { return blind ? IcrcSitePermissions(blindSigning: true) : nil }
        return IcrcSitePermissions(scopes: stored, blindSigning: blind)
    }

    package func setScopes(_ states: [String: IcrcSitePermissions.State], for origin: String) {
        scopes[origin, default: [:]].merge(states) { _, new in new }
    }

    package func clear(_ origin: String) { scopes[origin] = nil }
}

/// The ICRC-25/27/29/49 signer (docs/protocol.md §ICP): JSON-RPC 2.0 in, JSON-RPC 2.0 out. Methods are
/// looked up in the typed ``MethodRegistry`` (the `.icrc` protocol) and dispatched exhaustively over
/// ``IcrcMethod``; every failure becomes its ICRC-25 error through the registry's ``IcrcErrorMapper``.
/// The origin is the transport's word (HTTP `Origin`, or `event.origin` relayed by the ICRC-29 page),
/// never a field of the request. Every call is approved by a person; without a network the reply is
/// 4000 and nothing claims the call was executed.
package actor IcrcService {
    private let registry: MethodRegistry
    private let signer: IcpCallSigner
    private let permissions: any IcrcPermissionStore
    private let approver: any ApprovalSeam
    private let network: (any IcNetwork)?
    private let now: @Sendable () -> UInt64

    /// `now` is the clock in nanoseconds since 1970 (injectable; IC expiries are wall-clock times).
    package init(
        registry: MethodRegistry, signer: IcpCallSigner, permissions: any IcrcPermissionStore,
        approver: any ApprovalSeam,
        network: (any IcNetwork)?, now: @escaping @Sendable () -> UInt64 = IcrcService.wallClock
    ) {
        self.registry = registry
        self.signer = signer
        self.permissions = permissions
        self.approver = approver
        self.network = network
        self.now = now
    }

    package static let wallClock: @Sendable () -> UInt64 = {
        UInt64(max(0, Date().timeIntervalSince1970 * 1_000_000)) * 1000
    }

    /// Handles a request body (bytes of one JSON-RPC object).
    package func handle(body: [UInt8], origin: String) async -> JSONValue {
        guard let json = try? JSONValue.parse(body) else {
            return IcrcRequest.reply(id: nil, error: IcrcError(.parseError, "the body is not JSON"))
        }
        let request: IcrcRequest
        do {
            request = try IcrcRequest(json: json)
        } catch {
            return IcrcRequest.reply(id: json["id"], error: error)
        }
        return await handle(request, origin: origin)
    }

    package func handle(_ request: IcrcRequest, origin: String) async -> JSONValue {
        do {
            return request.reply(try await dispatch(request, origin: origin))
        } catch {
            // The `.icrc` protocol's mapper answers with the JSON-RPC `error` object.
            switch registry.errorMapper(for: .icrc).body(for: error, source: origin) {
            case .response(let object): return ["jsonrpc": "2.0", "id": request.id, "error": object]
            case .error, .subscription:
                return IcrcRequest.reply(id: request.id, error: IcrcErrorMapper.error(for: error))
            }
        }
    }

    /// The site's stored permissions (empty when it never asked).
    package func sitePermissions(_ origin: String) async throws -> IcrcSitePermissions {
        try await permissions.load(origin) ?? IcrcSitePermissions()
    }

    /// Looks the method up in the registry and dispatches it exhaustively. A name that is not an
    /// ICRC method (unknown, or another protocol's) is ICRC-25 2000 "Not supported".
    private func dispatch(_ request: IcrcRequest, origin: String) async throws -> JSONValue {
        guard case .icrc(let method) = registry.method(named: request.method) else {
            throw GatewayError(.unknownMessage, "not an ICRC method")
        }
        if let scope = method.scope { try await requirePermission(scope, origin: origin) }
        switch method {
        case .status:
            return try Self.encode(Icrc.Status.self, "ready")
        case .supportedStandards:
            return try Self.encode(Icrc.SupportedStandards.self, .init(supportedStandards: IcrcMethod.standards))
        case .permissions:
            return try Self.encode(Icrc.Permissions.self, scopes(try await sitePermissions(origin)))
        case .requestPermissions:
            let params = try Self.params(
                Icrc.RequestPermissions.self, request, "params.scopes must be a non-empty array of {method}")
            return try Self.encode(Icrc.RequestPermissions.self, try await requestPermissions(params, origin: origin))
        case .accounts:
            return try Self.encode(
                Icrc.Accounts.self, .init(accounts: signer.principals.map { .init(owner: $0.text) }))
        case .callCanister:
            let params = try Self.params(Icrc.CallCanister.self, request, Self.callShape)
            return try Self.encode(Icrc.CallCanister.self, try await callCanister(params, origin: origin))
        case .signEnvelopes:
            let params = try Self.params(
                Icrc.SignEnvelopes.self, request, Self.callShape + "; windowSeconds an integer from 0 to 86400")
            return try Self.encode(Icrc.SignEnvelopes.self, try await signEnvelopes(params, origin: origin))
        }
    }

    /// The seam's `decideAndSign`, its failure as ICRC-25 1000 (the reason, never a secret).
    static func decideAndSign<T: Sendable>(
        _ approver: any ApprovalSeam, origin: String, _ request: AdapterApproval,
        sign: @escaping @Sendable () throws -> (T, [UInt8])
    ) async throws(IcrcError) -> T? {
        do {
            return try await approver.decideAndSign(origin: origin, request, sign: sign)
        } catch {
            throw IcrcError(.genericError, error.reason)
        }
    }

    static let callShape = "params must have canisterId, sender, method and arg (Base64)"

    /// The typed parameters of `M` (absent reads as `{}`). - Throws: 1000 with `shape`, never the input.
    static func params<M: WireMethod>(_: M.Type, _ request: IcrcRequest, _ shape: String) throws -> M.Params {
        do {
            return try JSONValueDecoder().decode(M.Params.self, from: request.params == .null ? [:] : request.params)
        } catch {
            throw IcrcError(.genericError, shape)
        }
    }

    /// `M`'s typed result as JSON.
    static func encode<M: WireMethod>(_: M.Type, _ result: M.Result) throws -> JSONValue {
        try JSONValueEncoder().encode(result)
    }

    private func scopes(_ p: IcrcSitePermissions) -> Icrc.ScopesResult {
        .init(scopes: IcrcMethod.scoped.map { .init(scope: .init(method: $0.name), state: p.state($0).rawValue) })
    }

    private func requestPermissions(_ params: Icrc.RequestPermissions.Params, origin: String) async throws
        -> Icrc.ScopesResult
    {
        guard !params.scopes.isEmpty else {
            throw IcrcError(.genericError, "params.scopes must be a non-empty array of {method}")
        }
        var asked: [IcrcMethod] = []
        for scope in params.scopes {
            // Unknown scopes are not granted (ICRC-25: the signer answers with the scopes it knows).
            if case .icrc(let method) = registry.method(named: scope.method), IcrcMethod.scoped.contains(method),
                !asked.contains(method)
            {
                asked.append(method)
            }
        }
        let current = try await sitePermissions(origin)
        let asking = asked.filter { current.state($0) != .granted }
        if !asking.isEmpty {
            let rows =
                asking.map { SummaryRow("permission", Self.describe($0)) }
                + [SummaryRow("accounts", signer.principals.map(\.text).joined(separator: ", "))]
            guard
                let approved = await approver.decide(
                    origin: origin,
                    AdapterApproval(
                        method: Icrc.RequestPermissions.name, title: "Connect \(origin) (Internet Computer)?",
                        summary: rows))
            else { throw IcrcError(.actionAborted, "nobody decided") }
            // Field-level: only the scopes just decided are written (never a snapshot loaded before the wait).
            var states: [String: IcrcSitePermissions.State] = [:]
            for method in asking { states[method.name] = approved ? .granted : .denied }
            try await permissions.setScopes(states, for: origin)
        }
        return scopes(try await sitePermissions(origin))
    }

    static func describe(_ method: IcrcMethod) -> String {
        switch method {
        case .accounts: "see your Internet Computer principals (icrc27_accounts)"
        case .callCanister: "ask you to approve canister calls (icrc49_call_canister); each call is shown to you"
        default: method.name
        }
    }

    private func requirePermission(_ method: IcrcMethod, origin: String) async throws {
        switch try await sitePermissions(origin).state(method) {
        case .granted: return
        case .denied: throw IcrcError(.permissionNotGranted, "the site was not allowed \(method.name)")
        case .askOnUse:
            guard
                let approved = await approver.decide(
                    origin: origin,
                    AdapterApproval(
                        method: Icrc.RequestPermissions.name, title: "Allow \(origin) (Internet Computer)?",
                        summary: [SummaryRow("permission", Self.describe(method))]))
            else { throw IcrcError(.actionAborted, "nobody decided") }
            try await permissions.setScopes([method.name: approved ? .granted : .denied], for: origin)
            guard approved else {
                throw IcrcError(.permissionNotGranted, "the site was not allowed \(method.name)")
            }
        }
    }

    /// The offline result (docs/protocol.md §8): signed envelopes and their read_state twins, never
    /// submitted by Sigil.
    private func signEnvelopes(_ params: Icrc.SignEnvelopes.Params, origin: String) async throws
        -> Icrc.EnvelopesResult
    {
        let windowSeconds = params.windowSeconds ?? 0
        guard windowSeconds <= 86_400 else {
            throw IcrcError(.genericError, "windowSeconds must be an integer from 0 to 86400")
        }
        let p = try await sitePermissions(origin)
        // Refusals (unknown sender, blind signing off) are SignerErrors the mapper turns into 3000/2001.
        let series = try signer.prepareSeries(
            params.call, origin: origin, now: now(), blindSigningAllowed: p.blindSigning,
            window: windowSeconds * 1_000_000_000)
        let (signer, now) = (self.signer, self.now)
        let signed = try await Self.decideAndSign(
            approver, origin: origin,
            AdapterApproval(
                method: IcrcMethod.signEnvelopes.name,
                title: "Sign \(series.contents.count) envelope(s) of \(series.call.rendered.method) for \(origin)?",
                summary: series.rows(now: now()) + [
                    SummaryRow("request id", "0x" + Hex.encode(series.call.requestId, prefix: false))
                ],
                requestId: series.call.requestId, account: series.call.content.sender.text),
            sign: {
                let calls = try signer.sign(series, now: now())
                return (calls, calls.flatMap(\.signature))
            })
        guard let signed else { throw IcrcError(.actionAborted, "the envelopes were rejected") }
        return .init(
            envelopes: signed.map {
                .init(
                    requestId: Hex.encode($0.requestId, prefix: false), ingressExpiry: String($0.ingressExpiry),
                    contentMap: Data($0.contentMap).base64EncodedString(),
                    envelope: Data($0.envelope).base64EncodedString(),
                    readStateEnvelope: Data($0.readStateEnvelope).base64EncodedString())
            })
    }

    private func callCanister(_ call: IcpCallParams, origin: String) async throws -> Icrc.CallResult {
        let p = try await sitePermissions(origin)
        // Refusals (unknown sender, blind signing off) are SignerErrors the mapper turns into 3000/2001.
        let prepared = try signer.prepare(call, origin: origin, now: now(), blindSigningAllowed: p.blindSigning)
        // Without a network the call cannot be executed: say so before asking anyone to sign.
        guard let network else {
            throw IcrcError(.networkError, "no Internet Computer endpoint is configured (sigil serve --ic-url)")
        }
        let (signer, now) = (self.signer, self.now)
        let signed = try await Self.decideAndSign(
            approver, origin: origin,
            AdapterApproval(
                method: IcrcMethod.callCanister.name, title: "Call \(prepared.rendered.method) for \(origin)?",
                summary: prepared.rows(now: now()), requestId: prepared.requestId,
                account: prepared.content.sender.text),
            sign: {
                let call = try signer.sign(prepared, now: now())
                return (call, call.signature)
            })
        guard let signed else { throw IcrcError(.actionAborted, "the call was rejected") }
        guard let canister = prepared.content.canisterId else { throw IcrcError(.genericError, "no canister") }
        let certificate = try await network.submit(canister: canister, call: signed)
        return .init(
            contentMap: Data(signed.contentMap).base64EncodedString(),
            certificate: Data(certificate).base64EncodedString())
    }
}

/// ICRC on the dapp port (`POST /v1/icrc`), through the one adapter route, and the ICRC-29 signer
/// page's relay (`POST /v1/icrc29`, the dapp's `event.origin` in `X-Sigil-ICRC29-Origin`).
extension IcrcService: JSONRPCAdapter {
    package nonisolated var entryPoint: EntryPoint { .icrc }
    package nonisolated var defaultSession: String { "icrc-json-rpc" }
    package nonisolated var pageRelay: PageRelay? {
        PageRelay(entryPoint: .icrc29, originHeader: "X-Sigil-ICRC29-Origin", session: "icrc29-relay")
    }
    /// ICRC-25 permission requests, ICRC-27 accounts, ICRC-49 calls and envelope signing ask a person.
    package nonisolated func asksAPerson(_ method: String) -> Bool {
        switch IcrcMethod.allCases.first(where: { $0.name == method }) {
        case .requestPermissions?, .accounts?, .callCanister?, .signEnvelopes?: true
        case .permissions?, .supportedStandards?, .status?, nil: false
        }
    }
    /// A denied host gets ICRC-25 3000 "Permission not granted".
    package nonisolated func deniedReply(id: JSONValue?) -> JSONValue {
        IcrcRequest.reply(id: id, error: IcrcError(.permissionNotGranted, "the site is on the deny list"))
    }
}
