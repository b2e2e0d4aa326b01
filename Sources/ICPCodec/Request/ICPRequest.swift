import Primitives
import SigningKeys

/// The `content` of an IC HTTP request (docs/reference/icp.md §2): a call, a query or a
/// read_state, with the fields the interface specification names. Build with the initialisers,
/// which enforce the expiry and nonce rules; decode a content map (ICRC-49 `contentMap`) with
/// `init(cbor:)`, which checks shapes only (no clock).
package struct ICPRequestContent: Sendable, Hashable {
    package enum RequestType: String, Sendable, Hashable, CaseIterable {
        case call
        case query
        case readState = "read_state"
    }

    package let requestType: RequestType
    package let sender: Principal
    /// Nanoseconds since 1970.
    package let ingressExpiry: UInt64
    /// At most 32 bytes, or absent.
    package let nonce: [UInt8]?
    /// call and query only.
    package let canisterId: Principal?
    package let methodName: String?
    /// Candid-encoded argument (call and query).
    package let arg: [UInt8]?
    /// read_state only: label paths.
    package let paths: [[[UInt8]]]?

    package static let maxNonceLength = 32
    /// The replica's `MAX_INGRESS_TTL`: an expiry further ahead is refused.
    package static let maxIngressTTLNanos: UInt64 = 5 * 60 * 1_000_000_000
    /// Sigil's default: four minutes ahead, as IcpKit and agent-js do.
    package static let defaultTTLNanos: UInt64 = 4 * 60 * 1_000_000_000

    /// A call or query. `now` is the clock in nanoseconds since 1970; `ingressExpiry` defaults to
    /// `now + 4 min` and must lie in `(now, now + 5 min]`.
    package init(
        _ type: RequestType, sender: Principal, canisterId: Principal, methodName: String, arg: [UInt8],
        nonce: [UInt8]? = nil, ingressExpiry: UInt64? = nil, now: UInt64
    ) throws(ICPCodecError) {
        guard type != .readState else {
            throw ICPCodecError(.invalidRequest, "read_state has paths, not a method; use init(readState:)")
        }
        self.requestType = type
        self.sender = sender
        self.ingressExpiry = try ICPRequestContent.checkedExpiry(ingressExpiry, now: now)
        self.nonce = try ICPRequestContent.checkedNonce(nonce)
        self.canisterId = canisterId
        self.methodName = methodName
        self.arg = arg
        self.paths = nil
    }

    /// A read_state request.
    package init(
        readStatePaths paths: [[[UInt8]]], sender: Principal, nonce: [UInt8]? = nil, ingressExpiry: UInt64? = nil,
        now: UInt64
    ) throws(ICPCodecError) {
        requestType = .readState
        self.sender = sender
        self.ingressExpiry = try ICPRequestContent.checkedExpiry(ingressExpiry, now: now)
        self.nonce = try ICPRequestContent.checkedNonce(nonce)
        canisterId = nil
        methodName = nil
        arg = nil
        self.paths = paths
    }

    /// Step between the expiries of an offline series: `MAX_INGRESS_TTL − PERMITTED_DRIFT − 120 s`,
    /// as DFINITY's Rosetta node uses (docs/reference/icp.md §2.4).
    package static let seriesStepNanos: UInt64 = 120 * 1_000_000_000
    /// Longest window an offline series may cover (Rosetta's limit).
    package static let maxSeriesWindowNanos: UInt64 = 24 * 3600 * 1_000_000_000

    /// An offline series of the same call (Rosetta-style, docs/reference/icp.md §2.4): expiries
    /// `now + 4 min + k · 2 min` for k = 0…⌈window / 2 min⌉, no nonce, so that one of them is
    /// acceptable to a replica at any moment of `[now, now + window]` (each envelope is accepted
    /// during the five minutes before its expiry). `window` at most 24 h.
    package static func series(
        sender: Principal, canisterId: Principal, methodName: String, arg: [UInt8], now: UInt64, window: UInt64
    ) throws(ICPCodecError) -> [ICPRequestContent] {
        guard window <= maxSeriesWindowNanos else {
            throw ICPCodecError(.expiryOutOfRange, "an offline series covers at most 24 hours")
        }
        let (first, overflow) = now.addingReportingOverflow(defaultTTLNanos + maxSeriesWindowNanos)
        guard !overflow, first > now else { throw ICPCodecError(.expiryOutOfRange, "clock out of range") }
        let count = window / seriesStepNanos + (window % seriesStepNanos == 0 ? 1 : 2)
        return (0..<count).map { k in
            ICPRequestContent(
                unchecked: .call, sender: sender, ingressExpiry: now + defaultTTLNanos + k * seriesStepNanos,
                nonce: nil, canisterId: canisterId, methodName: methodName, arg: arg, paths: nil)
        }
    }

    /// The read_state that asks for the status of `requestId` (`["request_status", id]`), with
    /// this request's sender and expiry (the matching pair of an offline-signed call).
    package func readStateForStatus(requestId: [UInt8]) -> ICPRequestContent {
        ICPRequestContent(
            unchecked: .readState, sender: sender, ingressExpiry: ingressExpiry, nonce: nil, canisterId: nil,
            methodName: nil, arg: nil, paths: [[Array("request_status".utf8), requestId]])
    }

    init(
        unchecked type: RequestType, sender: Principal, ingressExpiry: UInt64, nonce: [UInt8]?, canisterId: Principal?,
        methodName: String?, arg: [UInt8]?, paths: [[[UInt8]]]?
    ) {
        self.requestType = type
        self.sender = sender
        self.ingressExpiry = ingressExpiry
        self.nonce = nonce
        self.canisterId = canisterId
        self.methodName = methodName
        self.arg = arg
        self.paths = paths
    }

    static func checkedExpiry(_ expiry: UInt64?, now: UInt64) throws(ICPCodecError) -> UInt64 {
        let (limit, overflow) = now.addingReportingOverflow(maxIngressTTLNanos)
        guard !overflow else { throw ICPCodecError(.expiryOutOfRange, "clock out of range") }
        let value = expiry ?? now + defaultTTLNanos
        guard value > now else { throw ICPCodecError(.expiryOutOfRange, "ingress_expiry is not in the future") }
        guard value <= limit else {
            throw ICPCodecError(.expiryOutOfRange, "ingress_expiry is more than five minutes ahead")
        }
        return value
    }

    static func checkedNonce(_ nonce: [UInt8]?) throws(ICPCodecError) -> [UInt8]? {
        if let nonce, nonce.count > maxNonceLength {
            throw ICPCodecError(.nonceTooLong, "a nonce is at most 32 bytes, got \(nonce.count)")
        }
        return nonce
    }

    /// The fields as the request-id hash sees them (absent optional fields are absent).
    package var hashable: [String: HashableValue] {
        var m: [String: HashableValue] = [
            "request_type": .text(requestType.rawValue),
            "sender": .blob(sender.bytes),
            "ingress_expiry": .nat(ingressExpiry),
        ]
        if let nonce { m["nonce"] = .blob(nonce) }
        if let canisterId { m["canister_id"] = .blob(canisterId.bytes) }
        if let methodName { m["method_name"] = .text(methodName) }
        if let arg { m["arg"] = .blob(arg) }
        if let paths { m["paths"] = .array(paths.map { .array($0.map { .blob($0) }) }) }
        return m
    }

    /// The 32-byte request id.
    package var requestId: [UInt8] { HashableValue.hashOfMap(hashable) }

    /// The content as a CBOR map, keys in lexicographic order (as agent-js and the ICRC-49 example).
    package var cbor: CBORValue {
        var entries: [(key: String, value: CBORValue)] = [
            ("request_type", .text(requestType.rawValue)),
            ("sender", .bytes(sender.bytes)),
            ("ingress_expiry", .unsigned(ingressExpiry)),
        ]
        if let nonce { entries.append(("nonce", .bytes(nonce))) }
        if let canisterId { entries.append(("canister_id", .bytes(canisterId.bytes))) }
        if let methodName { entries.append(("method_name", .text(methodName))) }
        if let arg { entries.append(("arg", .bytes(arg))) }
        if let paths { entries.append(("paths", .array(paths.map { .array($0.map { .bytes($0) }) }))) }
        return .map(entries.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) })
    }

    /// ICRC-49's `contentMap`: the tagged CBOR of the content alone.
    package var contentMap: [UInt8] { CBORValue.tag(CBORValue.selfDescribeTag, cbor).encoded() }

    /// Decodes a content map (tagged or not). Checks field types and request-type shapes; refuses
    /// unknown fields (they would change the request id without being shown) and long nonces.
    package init(cbor value: CBORValue) throws(ICPCodecError) {
        guard case .map(let entries) = value.untagged else {
            throw ICPCodecError(.invalidRequest, "request content is not a map")
        }
        let known: Set<String> = [
            "request_type", "sender", "ingress_expiry", "nonce", "canister_id", "method_name", "arg", "paths",
        ]
        for entry in entries where !known.contains(entry.key) {
            throw ICPCodecError(.invalidRequest, "unknown request field")
        }
        let v = value.untagged
        func blob(_ key: String) throws(ICPCodecError) -> [UInt8]? {
            guard let field = v[key] else { return nil }
            guard case .bytes(let b) = field else { throw ICPCodecError(.invalidRequest, "\(key) is not a blob") }
            return b
        }
        guard case .text(let typeText) = v["request_type"], let type = RequestType(rawValue: typeText) else {
            throw ICPCodecError(.invalidRequest, "request_type missing or not call/query/read_state")
        }
        guard let senderBytes = try blob("sender") else { throw ICPCodecError(.invalidRequest, "sender missing") }
        guard case .unsigned(let expiry) = v["ingress_expiry"] else {
            throw ICPCodecError(.invalidRequest, "ingress_expiry missing or not a nat")
        }
        let nonce = try ICPRequestContent.checkedNonce(try blob("nonce"))
        var canister: Principal?
        var method: String?
        var arg: [UInt8]?
        var paths: [[[UInt8]]]?
        if type == .readState {
            guard v["canister_id"] == nil, v["method_name"] == nil, v["arg"] == nil,
                case .array(let list) = v["paths"]
            else { throw ICPCodecError(.invalidRequest, "read_state needs paths and nothing else") }
            var out: [[[UInt8]]] = []
            for path in list {
                guard case .array(let labels) = path else { throw ICPCodecError(.invalidRequest, "a path is an array") }
                var labelBytes: [[UInt8]] = []
                for label in labels {
                    guard case .bytes(let b) = label else { throw ICPCodecError(.invalidRequest, "a label is a blob") }
                    labelBytes.append(b)
                }
                out.append(labelBytes)
            }
            paths = out
        } else {
            guard v["paths"] == nil, let c = try blob("canister_id"), case .text(let m) = v["method_name"],
                let a = try blob("arg")
            else { throw ICPCodecError(.invalidRequest, "call/query needs canister_id, method_name and arg") }
            canister = try Principal(bytes: c)
            method = m
            arg = a
        }
        self.init(
            unchecked: type, sender: try Principal(bytes: senderBytes), ingressExpiry: expiry, nonce: nonce,
            canisterId: canister, methodName: method, arg: arg, paths: paths)
    }

    /// Decodes ICRC-49 `contentMap` bytes.
    package init(contentMap bytes: [UInt8]) throws(ICPCodecError) {
        try self.init(cbor: CBORDecoder.decode(bytes))
    }
}

/// A signed request: `{content, sender_pubkey, sender_sig}` under the self-describe tag. The
/// anonymous sender has neither key nor signature (the fields are omitted, never null).
package struct ICPEnvelope: Sendable, Hashable {
    package let content: ICPRequestContent
    package let senderPublicKey: [UInt8]?
    package let senderSignature: [UInt8]?

    /// The domain separator in front of the request id: `0x0A "ic-request"`.
    package static let domainSeparator: [UInt8] = [0x0A] + Array("ic-request".utf8)

    /// Signs `content` with `key`, which must be the sender's key (its self-authenticating principal
    /// equals `content.sender`), else `signature`.
    package init(signing content: ICPRequestContent, with key: IcpKeyPair) throws(ICPCodecError) {
        guard Principal(selfAuthenticating: key.derPublicKey) == content.sender else {
            throw ICPCodecError(.signature, "the key is not the request's sender")
        }
        let signature: [UInt8]
        do {
            signature = try key.sign(ICPEnvelope.domainSeparator + content.requestId)
        } catch {
            throw ICPCodecError(.signature, "signing failed")
        }
        self.content = content
        senderPublicKey = key.derPublicKey
        senderSignature = signature
    }

    /// An anonymous request (sender must be `2vxsx-fae`).
    package init(anonymous content: ICPRequestContent) throws(ICPCodecError) {
        guard content.sender.isAnonymous else {
            throw ICPCodecError(.signature, "only the anonymous sender sends unsigned requests")
        }
        self.content = content
        senderPublicKey = nil
        senderSignature = nil
    }

    /// Checks an envelope from elsewhere: the public key's principal is the sender and the
    /// signature over the request id verifies (or both are absent for the anonymous sender).
    package init(content: ICPRequestContent, senderPublicKey: [UInt8]?, senderSignature: [UInt8]?) throws(ICPCodecError)
    {
        switch (senderPublicKey, senderSignature) {
        case (nil, nil):
            guard content.sender.isAnonymous else {
                throw ICPCodecError(.signature, "unsigned request from a non-anonymous sender")
            }
        case (let key?, let sig?):
            guard Principal(selfAuthenticating: key) == content.sender else {
                throw ICPCodecError(.signature, "sender_pubkey does not belong to the sender")
            }
            guard
                IcpKeyPair.verify(
                    signature: sig, message: ICPEnvelope.domainSeparator + content.requestId, derPublicKey: key)
            else { throw ICPCodecError(.signature, "sender_sig does not verify") }
        default:
            throw ICPCodecError(.signature, "sender_pubkey and sender_sig come together")
        }
        self.content = content
        self.senderPublicKey = senderPublicKey
        self.senderSignature = senderSignature
    }

    /// Decodes and verifies envelope CBOR (as a replica would).
    package init(cborBytes: [UInt8]) throws(ICPCodecError) {
        let value = try CBORDecoder.decode(cborBytes).untagged
        guard case .map(let entries) = value, let content = value["content"] else {
            throw ICPCodecError(.invalidRequest, "an envelope is a map with content")
        }
        for entry in entries where !["content", "sender_pubkey", "sender_sig"].contains(entry.key) {
            throw ICPCodecError(.invalidRequest, "unsupported envelope field (delegations are not accepted)")
        }
        func blob(_ key: String) throws(ICPCodecError) -> [UInt8]? {
            guard let field = value[key] else { return nil }
            guard case .bytes(let b) = field else { throw ICPCodecError(.invalidRequest, "\(key) is not a blob") }
            return b
        }
        try self.init(
            content: ICPRequestContent(cbor: content), senderPublicKey: try blob("sender_pubkey"),
            senderSignature: try blob("sender_sig"))
    }

    package var requestId: [UInt8] { content.requestId }

    /// The envelope CBOR with the self-describe tag, keys in lexicographic order at both levels.
    package var encoded: [UInt8] {
        var entries: [(key: String, value: CBORValue)] = [("content", content.cbor)]
        if let senderPublicKey { entries.append(("sender_pubkey", .bytes(senderPublicKey))) }
        if let senderSignature { entries.append(("sender_sig", .bytes(senderSignature))) }
        return CBORValue.tag(CBORValue.selfDescribeTag, .map(entries)).encoded()
    }
}
