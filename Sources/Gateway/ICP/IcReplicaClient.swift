import Foundation
import GatewayHTTP
import ICPCodec
import Primitives
import SignerCore

/// Submits approved calls to a replica or boundary node (`sigil serve --ic-url URL`): `POST
/// /api/v2/canister/<id>/call` (202 expected), then `POST …/read_state` with the matching signed
/// read_state until the certificate says `replied`, `rejected` or `done` (ICRC-49 "Message
/// processing"), and returns that certificate for the dapp, which verifies it against the root key.
///
/// Sigil does not verify the certificate's BLS signature; it only reads the status to know when to
/// stop polling, and never reports a call as executed without a certificate. Polls every
/// `pollInterval` until the request's `ingress_expiry`; network failures, non-202 answers and
/// malformed replies are `IcrcError(.networkError, …)` naming the step, never the bytes.
package struct IcReplicaClient: IcNetwork {
    package let baseURL: String
    package var pollInterval: Duration = .milliseconds(250)
    package var timeout: Duration = .seconds(10)
    /// Wall clock in nanoseconds since 1970.
    let now: @Sendable () -> UInt64

    package init(baseURL: String, now: @escaping @Sendable () -> UInt64 = IcrcService.wallClock) throws(IcrcError) {
        var base = baseURL
        while base.hasSuffix("/") { base.removeLast() }
        guard base.hasPrefix("http://") || base.hasPrefix("https://"), (try? HTTPProbe(url: base + "/")) != nil else {
            throw IcrcError(.networkError, "--ic-url must be an http:// or https:// URL")
        }
        self.baseURL = base
        self.now = now
    }

    private func post(_ path: String, _ body: [UInt8]) throws(IcrcError) -> HTTPProbe.Response {
        do {
            var probe = try HTTPProbe(url: baseURL + path)
            probe.timeout = timeout
            probe.maxResponseBytes = 4 << 20
            return try probe.post(body, contentType: "application/cbor")
        } catch {
            throw IcrcError(.networkError, "the IC endpoint did not answer (\(error.code))")
        }
    }

    package func submit(canister: Principal, call: SignedIcpCall) async throws(IcrcError) -> [UInt8] {
        let prefix = "/api/v2/canister/\(canister.text)"
        let submitted = try post(prefix + "/call", call.envelope)
        guard submitted.status == 202 || submitted.status == 200 else {
            throw IcrcError(
                .networkError, "the IC endpoint refused the call (HTTP \(submitted.status))",
                httpStatus: Int(submitted.status))
        }
        while now() < call.ingressExpiry {
            let answer = try post(prefix + "/read_state", call.readStateEnvelope)
            guard answer.status == 200 else {
                throw IcrcError(
                    .networkError, "read_state failed (HTTP \(answer.status))", httpStatus: Int(answer.status))
            }
            guard case .bytes(let certificate)? = (try? CBORDecoder.decode(answer.body))?.untagged["certificate"] else {
                throw IcrcError(.networkError, "read_state reply without a certificate")
            }
            if let status = Self.status(certificate: certificate, requestId: call.requestId),
                ["replied", "rejected", "done"].contains(status)
            {
                return certificate
            }
            do {
                try await Task.sleep(for: pollInterval)
            } catch {
                throw IcrcError(.networkError, "cancelled while waiting for the call")
            }
        }
        throw IcrcError(.networkError, "the call expired before its status was known")
    }

    /// `request_status/<id>/status` in a certificate's hash tree, when present.
    static func status(certificate: [UInt8], requestId: [UInt8]) -> String? {
        guard let tree = (try? CBORDecoder.decode(certificate))?.untagged["tree"] else { return nil }
        let path = [Array("request_status".utf8), requestId, Array("status".utf8)]
        guard case .bytes(let value)? = lookup(tree, path[...]) else { return nil }
        return String(bytes: value, encoding: .utf8)
    }

    /// Hash-tree lookup (interface spec "Certificate"): 0 empty, 1 fork, 2 labeled, 3 leaf, 4 pruned.
    static func lookup(_ node: CBORValue, _ path: ArraySlice<[UInt8]>) -> CBORValue? {
        guard case .array(let items) = node, case .unsigned(let kind)? = items.first else { return nil }
        switch (kind, items.count) {
        case (1, 3): return lookup(items[1], path) ?? lookup(items[2], path)
        case (2, 3):
            guard let label = path.first, case .bytes(let l) = items[1], l == label else { return nil }
            return path.count == 1 ? leaf(items[2]) : lookup(items[2], path.dropFirst())
        default: return nil
        }
    }

    static func leaf(_ node: CBORValue) -> CBORValue? {
        guard case .array(let items) = node, items.count == 2, case .unsigned(3) = items[0] else { return nil }
        return items[1]
    }
}
