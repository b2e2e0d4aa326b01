import Foundation
import ICPCodec
import Primitives
import SigningKeys

/// An ICRC-49 call as a site sends it (`icrc49_call_canister` params), not yet checked.
package struct IcpCallParams: Sendable, Hashable, Decodable {
    package var canisterId: String
    package var sender: String
    package var method: String
    /// Base64 Candid.
    package var arg: String
    /// Base64, at most 32 bytes.
    package var nonce: String?

    package init(canisterId: String, sender: String, method: String, arg: String, nonce: String? = nil) {
        self.canisterId = canisterId
        self.sender = sender
        self.method = method
        self.arg = arg
        self.nonce = nonce
    }
}

/// A canister call checked and put into words: what the approval shows and exactly what `sign`
/// signs (the content is built once here and never rebuilt).
package struct PreparedIcpCall: Sendable, Hashable {
    package let origin: String
    package let content: ICPRequestContent
    package let rendered: RenderedCall
    /// The sender's ICP ledger account (default subaccount), hex.
    package let senderAccountId: String
    /// The request id of `content` (what the signature covers).
    package let requestId: [UInt8]

    /// What a person reads, in order: canister (and its known name), method, the rendered call,
    /// sender and account, expiry and how long the signature stays valid.
    package func rows(now: UInt64) -> [SummaryRow] {
        var rows: [SummaryRow] = []
        if !rendered.recognised {
            rows.append(SummaryRow("warning", rendered.warning ?? "blind signing", warning: true))
        }
        let canisterText = rendered.canisterName.map { "\(rendered.canister) (\($0))" } ?? rendered.canister
        rows.append(SummaryRow("canister", canisterText))
        rows.append(SummaryRow("method", rendered.method))
        rows.append(SummaryRow("call", rendered.summary, warning: !rendered.recognised))
        for line in rendered.lines { rows.append(SummaryRow(line.label, line.value)) }
        if !rendered.recognised {
            rows.append(
                SummaryRow("argument", "\(rendered.argumentSize) bytes: \(rendered.argumentHex)", warning: true))
        }
        rows.append(SummaryRow("sender", content.sender.text))
        rows.append(SummaryRow("sender account", senderAccountId))
        let seconds = content.ingressExpiry > now ? (content.ingressExpiry - now) / 1_000_000_000 : 0
        rows.append(
            SummaryRow("expiry", "\(content.ingressExpiry) ns since 1970 (valid for \(seconds) s after signing)"))
        rows.append(SummaryRow("request id", "0x" + Hex.encode(requestId, prefix: false)))
        return rows
    }
}

/// An offline series: the checked call (what is shown) and the contents with staggered expiries.
package struct PreparedIcpSeries: Sendable, Hashable {
    package let call: PreparedIcpCall
    package let contents: [ICPRequestContent]

    /// The call's rows, then how many envelopes are signed and until when the last is usable.
    package func rows(now: UInt64) -> [SummaryRow] {
        let last = contents.last?.ingressExpiry ?? now
        let seconds = last > now ? (last - now) / 1_000_000_000 : 0
        return call.rows(now: now).filter { $0.label != "expiry" && $0.label != "request id" } + [
            SummaryRow(
                "offline series",
                "\(contents.count) signed envelopes for later submission by another tool; usable until \(last) ns since 1970 (\(seconds) s from now)",
                warning: true)
        ]
    }
}

/// The signed result: ICRC-49's `contentMap` plus the envelopes a tool can submit itself.
package struct SignedIcpCall: Sendable, Hashable {
    package let requestId: [UInt8]
    /// Tagged CBOR of the content alone (ICRC-49 `contentMap`).
    package let contentMap: [UInt8]
    /// Tagged CBOR `{content, sender_pubkey, sender_sig}` of the call.
    package let envelope: [UInt8]
    /// The matching `read_state` for `["request_status", id]`, same sender and expiry.
    package let readStateEnvelope: [UInt8]
    package let ingressExpiry: UInt64
    /// The call envelope's `sender_sig` (64 bytes), what the journal records.
    package let signature: [UInt8]
}

/// ICP identities Sigil can sign with, by principal, and the two steps of a signature:
/// `prepare` (untrusted params → `PreparedIcpCall`, before any approval is queued) and `sign`
/// (exactly the prepared content, after a person approved it).
package struct IcpCallSigner: Sendable {
    private let keys: [Principal: IcpKeyPair]

    package init(keys: [IcpKeyPair]) {
        var map: [Principal: IcpKeyPair] = [:]
        for key in keys { map[Principal(selfAuthenticating: key.derPublicKey)] = key }
        self.keys = map
    }

    /// The principals this signer holds keys for, sorted.
    package var principals: [Principal] { keys.keys.sorted() }

    /// Checks untrusted ICRC-49 params. `now` is the clock (ns since 1970); `blindSigningAllowed` is
    /// the site's opt-in. Errors: `invalidInput` (texts, Base64, nonce, expiry), `unknownAccount`
    /// (the sender is not one of ours), `blindSigningOff` (an undescribed call without the opt-in).
    package func prepare(
        _ params: IcpCallParams, origin: String, now: UInt64, blindSigningAllowed: Bool
    ) throws(SignerError) -> PreparedIcpCall {
        func decoded(_ base64: String, _ what: String) throws(SignerError) -> [UInt8] {
            guard let bytes = Base64.decode(base64) else { throw SignerError(.invalidInput, "\(what) is not Base64") }
            return bytes
        }
        let sender: Principal
        let canister: Principal
        do {
            sender = try Principal(text: params.sender)
            canister = try Principal(text: params.canisterId)
        } catch {
            throw SignerError(.invalidInput, "sender or canisterId is not a principal")
        }
        guard keys[sender] != nil else { throw SignerError(.unknownAccount, "the sender is not a Sigil identity") }
        guard !params.method.isEmpty, params.method.utf8.count <= 1024 else {
            throw SignerError(.invalidInput, "method name must be 1…1024 bytes")
        }
        let arg = try decoded(params.arg, "arg")
        let nonce = try params.nonce.map { (n: String) throws(SignerError) -> [UInt8] in try decoded(n, "nonce") }
        let content: ICPRequestContent
        do {
            content = try ICPRequestContent(
                .call, sender: sender, canisterId: canister, methodName: params.method, arg: arg, nonce: nonce, now: now
            )
        } catch {
            throw SignerError(.invalidInput, "canister call refused: \(error.code.rawValue)")
        }
        let rendered = RenderedCall.render(canister: canister, method: params.method, arg: arg)
        guard rendered.recognised || blindSigningAllowed else {
            throw SignerError(.blindSigningOff, "Sigil cannot describe this call and blind signing is off for the site")
        }
        let account = (try? sender.accountIdentifier().hex) ?? ""
        return PreparedIcpCall(
            origin: origin, content: content, rendered: rendered, senderAccountId: account, requestId: content.requestId
        )
    }

    /// An offline series of the call (`ICPRequestContent.series`) over `window` nanoseconds, after
    /// the same checks as `prepare`; the rows say how many envelopes and until when they are usable.
    package func prepareSeries(
        _ params: IcpCallParams, origin: String, now: UInt64, blindSigningAllowed: Bool, window: UInt64
    ) throws(SignerError) -> PreparedIcpSeries {
        let first = try prepare(params, origin: origin, now: now, blindSigningAllowed: blindSigningAllowed)
        guard let canister = first.content.canisterId, let method = first.content.methodName,
            let arg = first.content.arg
        else { throw SignerError(.invalidInput, "not a call") }
        do {
            let contents = try ICPRequestContent.series(
                sender: first.content.sender, canisterId: canister, methodName: method, arg: arg, now: now,
                window: window)
            return PreparedIcpSeries(call: first, contents: contents)
        } catch {
            throw SignerError(.invalidInput, "offline series refused: \(error.code.rawValue)")
        }
    }

    /// Signs every call of a series and its read_state.
    package func sign(_ series: PreparedIcpSeries, now: UInt64) throws(SignerError) -> [SignedIcpCall] {
        var out: [SignedIcpCall] = []
        for content in series.contents {
            let prepared = PreparedIcpCall(
                origin: series.call.origin, content: content, rendered: series.call.rendered,
                senderAccountId: series.call.senderAccountId, requestId: content.requestId)
            out.append(try sign(prepared, now: now))
        }
        return out
    }

    /// Signs the prepared content (and its read_state). Errors: `unknownAccount` when the key went
    /// away, `expired` when the content expired while it waited for approval.
    package func sign(_ prepared: PreparedIcpCall, now: UInt64) throws(SignerError) -> SignedIcpCall {
        guard let key = keys[prepared.content.sender] else {
            throw SignerError(.unknownAccount, "the sender is not a Sigil identity")
        }
        guard prepared.content.ingressExpiry > now else {
            throw SignerError(.expired, "the call expired before it was approved")
        }
        do {
            let envelope = try ICPEnvelope(signing: prepared.content, with: key)
            let readState = try ICPEnvelope(
                signing: prepared.content.readStateForStatus(requestId: prepared.requestId), with: key)
            return SignedIcpCall(
                requestId: prepared.requestId, contentMap: prepared.content.contentMap, envelope: envelope.encoded,
                readStateEnvelope: readState.encoded, ingressExpiry: prepared.content.ingressExpiry,
                signature: envelope.senderSignature ?? [])
        } catch {
            throw SignerError(.invalidInput, "signing failed: \(error.code.rawValue)")
        }
    }
}

/// Standard Base64 with padding, strict (no whitespace): what ICRC-49 blobs are on the wire.
enum Base64 {
    static func decode(_ text: String) -> [UInt8]? {
        guard text.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7f }) else { return nil }
        return Data(base64Encoded: text).map(Array.init)
    }
}
