import Foundation
import ICPCodec
import Primitives
import SignerCore

/// A person's answer to an ICRC request (the approval page or the terminal).
public protocol IcrcApprover: Sendable {
    /// Shows `rows` under `title` for `origin` and waits for a decision; `true` when approved.
    func decide(origin: String, title: String, rows: [SummaryRow]) async -> Bool
}

/// Where approved calls go: a replica (`--ic-url`), or a test double.
public protocol IcNetwork: Sendable {
    /// Submits the signed call, waits until its status is replied, rejected or done, and returns the
    /// CBOR certificate of that `read_state` answer. Throws `IcrcError(.networkError, …)`.
    func submit(canister: Principal, call: SignedIcpCall) async throws(IcrcError) -> [UInt8]
}

/// What one origin was allowed (ICRC-25 scopes) and whether it may ask for calls Sigil cannot
/// describe (blind signing, off by default as ICRC-49 requires).
public struct IcrcSitePermissions: Sendable, Hashable, Codable {
    public enum State: String, Sendable, Hashable, Codable {
        case granted
        case denied
        case askOnUse = "ask_on_use"
    }

    public var scopes: [String: State]
    public var blindSigning: Bool

    public init(scopes: [String: State] = [:], blindSigning: Bool = false) {
        self.scopes = scopes
        self.blindSigning = blindSigning
    }

    public func state(_ method: IcrcMethod) -> State { scopes[method.rawValue] ?? .askOnUse }
}

/// Persistence of ICRC permissions per origin.
public protocol IcrcPermissionStore: Sendable {
    func load(_ origin: String) async throws -> IcrcSitePermissions?
    func save(_ origin: String, _ permissions: IcrcSitePermissions) async throws
}

/// The ICRC-25/27/29/49 signer (docs/protocol.md §ICP): JSON-RPC 2.0 in, JSON-RPC 2.0 out. The origin
/// is the transport's word (HTTP `Origin`, or `event.origin` relayed by the ICRC-29 page), never a
/// field of the request. Every call is approved by a person; without a network the reply is 4000 and
/// nothing claims the call was executed.
public actor IcrcService {
    private let signer: IcpCallSigner
    private let permissions: any IcrcPermissionStore
    private let approver: any IcrcApprover
    private let network: (any IcNetwork)?
    private let now: @Sendable () -> UInt64

    /// `now` is the clock in nanoseconds since 1970 (injectable; IC expiries are wall-clock times).
    public init(
        signer: IcpCallSigner, permissions: any IcrcPermissionStore, approver: any IcrcApprover,
        network: (any IcNetwork)?, now: @escaping @Sendable () -> UInt64 = IcrcService.wallClock
    ) {
        self.signer = signer
        self.permissions = permissions
        self.approver = approver
        self.network = network
        self.now = now
    }

    public static let wallClock: @Sendable () -> UInt64 = {
        UInt64(max(0, Date().timeIntervalSince1970 * 1_000_000)) * 1000
    }

    /// Handles a request body (bytes of one JSON-RPC object).
    public func handle(body: [UInt8], origin: String) async -> JSONValue {
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

    public func handle(_ request: IcrcRequest, origin: String) async -> JSONValue {
        do {
            return request.reply(try await result(request, origin: origin))
        } catch let error as IcrcError {
            return IcrcRequest.reply(id: request.id, error: error)
        } catch {
            return IcrcRequest.reply(id: request.id, error: IcrcError(.genericError, "the request failed"))
        }
    }

    /// The site's stored permissions (empty when it never asked).
    public func sitePermissions(_ origin: String) async throws -> IcrcSitePermissions {
        try await permissions.load(origin) ?? IcrcSitePermissions()
    }

    /// A person turns blind signing on or off for one origin (approval page / command line only).
    public func setBlindSigning(_ allowed: Bool, origin: String) async throws {
        var p = try await sitePermissions(origin)
        p.blindSigning = allowed
        try await permissions.save(origin, p)
    }

    private func result(_ request: IcrcRequest, origin: String) async throws -> JSONValue {
        guard let method = IcrcMethod(rawValue: request.method) else {
            throw IcrcError(.notSupported, "Sigil does not implement this method")
        }
        switch method {
        case .status:
            return "ready"
        case .supportedStandards:
            return [
                "supportedStandards": .array(
                    IcrcMethod.standards.map { ["name": .string($0.name), "url": .string($0.url)] })
            ]
        case .permissions:
            return scopesJSON(try await sitePermissions(origin))
        case .requestPermissions:
            return try await requestPermissions(request.params, origin: origin)
        case .accounts:
            try await requirePermission(.accounts, origin: origin)
            return ["accounts": .array(signer.principals.map { ["owner": .string($0.text)] })]
        case .callCanister:
            try await requirePermission(.callCanister, origin: origin)
            return try await callCanister(request.params, origin: origin)
        case .signEnvelopes:
            try await requirePermission(.callCanister, origin: origin)
            return try await signEnvelopes(request.params, origin: origin)
        }
    }

    private func scopesJSON(_ p: IcrcSitePermissions) -> JSONValue {
        [
            "scopes": .array(
                IcrcMethod.scoped.map {
                    ["scope": ["method": .string($0.rawValue)], "state": .string(p.state($0).rawValue)]
                })
        ]
    }

    private func requestPermissions(_ params: JSONValue, origin: String) async throws -> JSONValue {
        guard let scopes = params["scopes"]?.arrayValue, !scopes.isEmpty else {
            throw IcrcError(.genericError, "params.scopes must be a non-empty array")
        }
        var asked: [IcrcMethod] = []
        for scope in scopes {
            guard let name = scope["method"]?.stringValue else {
                throw IcrcError(.genericError, "a scope needs a method")
            }
            // Unknown scopes are not granted (ICRC-25: the signer answers with the scopes it knows).
            if let method = IcrcMethod(rawValue: name), IcrcMethod.scoped.contains(method), !asked.contains(method) {
                asked.append(method)
            }
        }
        var p = try await sitePermissions(origin)
        let open = asked.filter { p.state($0) != .granted }
        if !open.isEmpty {
            let rows =
                open.map { SummaryRow("permission", Self.describe($0)) }
                + [SummaryRow("accounts", signer.principals.map(\.text).joined(separator: ", "))]
            let approved = await approver.decide(
                origin: origin, title: "Connect \(origin) (Internet Computer)?", rows: rows)
            for method in open { p.scopes[method.rawValue] = approved ? .granted : .denied }
            try await permissions.save(origin, p)
        }
        return scopesJSON(p)
    }

    static func describe(_ method: IcrcMethod) -> String {
        switch method {
        case .accounts: "see your Internet Computer principals (icrc27_accounts)"
        case .callCanister: "ask you to approve canister calls (icrc49_call_canister); each call is shown to you"
        default: method.rawValue
        }
    }

    private func requirePermission(_ method: IcrcMethod, origin: String) async throws {
        var p = try await sitePermissions(origin)
        switch p.state(method) {
        case .granted: return
        case .denied: throw IcrcError(.permissionNotGranted, "the site was not allowed \(method.rawValue)")
        case .askOnUse:
            let approved = await approver.decide(
                origin: origin, title: "Allow \(origin) (Internet Computer)?",
                rows: [SummaryRow("permission", Self.describe(method))])
            p.scopes[method.rawValue] = approved ? .granted : .denied
            try await permissions.save(origin, p)
            guard approved else {
                throw IcrcError(.permissionNotGranted, "the site was not allowed \(method.rawValue)")
            }
        }
    }

    /// The offline result (docs/protocol.md §8): signed envelopes and their read_state twins, never
    /// submitted by Sigil.
    private func signEnvelopes(_ params: JSONValue, origin: String) async throws -> JSONValue {
        let call: IcpCallParams
        do {
            call = try JSONValueDecoder().decode(IcpCallParams.self, from: params)
        } catch {
            throw IcrcError(.genericError, "params must have canisterId, sender, method and arg (Base64)")
        }
        var windowSeconds: UInt64 = 0
        if let w = params["windowSeconds"] {
            guard let value = w.integer(as: UInt64.self), value <= 86_400 else {
                throw IcrcError(.genericError, "windowSeconds must be an integer from 0 to 86400")
            }
            windowSeconds = value
        }
        let p = try await sitePermissions(origin)
        let series: PreparedIcpSeries
        do {
            series = try signer.prepareSeries(
                call, origin: origin, now: now(), blindSigningAllowed: p.blindSigning,
                window: windowSeconds * 1_000_000_000)
        } catch {
            throw Self.refusal(error)
        }
        let approved = await approver.decide(
            origin: origin,
            title: "Sign \(series.contents.count) envelope(s) of \(series.call.rendered.method) for \(origin)?",
            rows: series.rows(now: now()) + [
                SummaryRow("request id", "0x" + Hex.encode(series.call.requestId, prefix: false))
            ])
        guard approved else { throw IcrcError(.actionAborted, "the envelopes were rejected") }
        let signed: [SignedIcpCall]
        do {
            signed = try signer.sign(series, now: now())
        } catch {
            throw IcrcError(.genericError, "the envelopes could not be signed: \(error.code)")
        }
        return [
            "envelopes": .array(
                signed.map {
                    [
                        "requestId": .string(Hex.encode($0.requestId, prefix: false)),
                        "ingressExpiry": .string(String($0.ingressExpiry)),
                        "contentMap": .string(Data($0.contentMap).base64EncodedString()),
                        "envelope": .string(Data($0.envelope).base64EncodedString()),
                        "readStateEnvelope": .string(Data($0.readStateEnvelope).base64EncodedString()),
                    ]
                })
        ]
    }

    static func refusal(_ error: SignerError) -> IcrcError {
        switch error.code {
        case .unknownAccount: IcrcError(.permissionNotGranted, "the sender is not one of Sigil's identities")
        case .blindSigningOff:
            IcrcError(
                .noConsentMessage,
                "Sigil cannot describe this call and blind signing is off for this site (turn it on in Sigil)")
        default: IcrcError(.genericError, "the call was refused: \(error.code)")
        }
    }

    private func callCanister(_ params: JSONValue, origin: String) async throws -> JSONValue {
        let call: IcpCallParams
        do {
            call = try JSONValueDecoder().decode(IcpCallParams.self, from: params)
        } catch {
            throw IcrcError(.genericError, "params must have canisterId, sender, method and arg (Base64)")
        }
        let p = try await sitePermissions(origin)
        let prepared: PreparedIcpCall
        do {
            prepared = try signer.prepare(call, origin: origin, now: now(), blindSigningAllowed: p.blindSigning)
        } catch {
            switch error.code {
            case .unknownAccount: throw IcrcError(.permissionNotGranted, "the sender is not one of Sigil's identities")
            case .blindSigningOff:
                throw IcrcError(
                    .noConsentMessage,
                    "Sigil cannot describe this call and blind signing is off for this site (turn it on in Sigil)")
            default: throw IcrcError(.genericError, "the call was refused: \(error.code)")
            }
        }
        // Without a network the call cannot be executed: say so before asking anyone to sign.
        guard let network else {
            throw IcrcError(.networkError, "no Internet Computer endpoint is configured (sigil serve --ic-url)")
        }
        let approved = await approver.decide(
            origin: origin, title: "Call \(prepared.rendered.method) for \(origin)?", rows: prepared.rows(now: now()))
        guard approved else { throw IcrcError(.actionAborted, "the call was rejected") }
        let signed: SignedIcpCall
        do {
            signed = try signer.sign(prepared, now: now())
        } catch {
            throw IcrcError(.genericError, "the call could not be signed: \(error.code)")
        }
        guard let canister = prepared.content.canisterId else { throw IcrcError(.genericError, "no canister") }
        let certificate = try await network.submit(canister: canister, call: signed)
        return [
            "contentMap": .string(Data(signed.contentMap).base64EncodedString()),
            "certificate": .string(Data(certificate).base64EncodedString()),
        ]
    }
}
