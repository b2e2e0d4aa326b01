import Dispatch
import GatewayHTTP
import Glibc
import Primitives

/// Where ICON transactions are sent (`sigil serve --icon-rpc URL`): `icx_sendTransaction` with the
/// signed params, answered with the node's transaction hash. A hash is reported to a dapp only when
/// the node accepted the transaction and its hash is the one Sigil signed.
package protocol IconNode: Sendable {
    /// Submits signed `icx_sendTransaction` params. - Returns: the node's `0x…` transaction hash.
    /// - Throws: ``IconConnectError`` `-9999` naming what went wrong (never the params).
    func sendTransaction(_ params: JSONValue) async throws -> String
}

/// An ICON node's JSON-RPC v3 endpoint over HTTP(S) (`http(s)://host[:port]/api/v3`), through
/// GatewayHTTP's bounded client (TLS verified, 10 s for the whole exchange, 64 KiB answers).
package struct HTTPIconNode: IconNode {
    package let url: String
    let probe: HTTPProbe

    /// - Throws: `HTTPError` for a URL the client cannot use.
    package init(url: String, timeout: Duration = .seconds(10)) throws {
        self.url = url
        var probe = try HTTPProbe(url: url)
        probe.timeout = timeout
        self.probe = probe
    }

    package func sendTransaction(_ params: JSONValue) async throws -> String {
        let request: JSONValue = [
            "jsonrpc": "2.0", "method": "icx_sendTransaction", "id": .integer(1), "params": params,
        ]
        let probe = self.probe
        let body = request.encoded()
        let response: HTTPProbe.Response = try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async {
                do throws(HTTPError) {
                    continuation.resume(returning: try probe.postJSON(body))
                } catch {
                    continuation.resume(throwing: IconConnectError.network("node unreachable: \(error.reason)"))
                }
            }
        }
        guard let answer = try? JSONValue.parse(response.body), case .object = answer else {
            throw IconConnectError.network("node answered HTTP \(response.status) without JSON")
        }
        if let error = answer["error"] {
            let code = error["code"]?.integer(as: Int.self).map(String.init) ?? "?"
            let message = Self.printable(error["message"]?.stringValue ?? "")
            throw IconConnectError.network("node refused the transaction: \(code) \(message)")
        }
        guard response.status == 200, let hash = answer["result"]?.stringValue else {
            throw IconConnectError.network("node answered HTTP \(response.status) without a result")
        }
        return hash
    }

    static func printable(_ s: String) -> String {
        String(s.unicodeScalars.prefix(200).map { $0.value >= 0x20 && $0.value < 0x7f ? Character($0) : "?" })
    }
}

/// The wall clock for ICON timestamps (microseconds since 1970, `CLOCK_REALTIME`).
package enum IconClock {
    package static func nowMicroseconds() -> Int64 {
        var ts = timespec()
        clock_gettime(CLOCK_REALTIME, &ts)
        return Int64(ts.tv_sec) * 1_000_000 + Int64(ts.tv_nsec) / 1000
    }
}
