import Dispatch
import EthereumCodec
import GatewayHTTP
import Primitives
import SignerCore

/// An EIP-1193 / EIP-1474 error as the dapp receives it (the `error` object of a JSON-RPC 2.0
/// reply). Inside `Ethereum/` only; its `message` is a fixed text or a short, escaped excerpt
/// (never a secret, never the request's bytes).
package struct EthereumRPCError: Error, Sendable, Equatable, CustomStringConvertible {
    package let code: Int
    package let message: String

    package init(_ code: Int, _ message: String) {
        self.code = code
        self.message = message
    }

    /// 4001: the person said no (or closed the prompt without deciding).
    package static func rejected(_ what: String = "The person rejected the request.") -> Self { Self(4001, what) }
    /// 4100: the site (or this account) is not authorized.
    package static func unauthorized(_ message: String) -> Self { Self(4100, message) }
    /// 4200: an unknown or disabled method, worded as MetaMask does (ethers matches the words).
    package static func unsupported(_ method: String) -> Self {
        Self(4200, "The method \"\(EthereumText.excerpt(method, 60))\" does not exist / is not available.")
    }
    /// 4900: no endpoint at all.
    package static func disconnected(_ message: String) -> Self { Self(4900, message) }
    /// 4901: no endpoint for the site's chain.
    package static func chainDisconnected(_ message: String) -> Self { Self(4901, message) }
    /// 4902: a chain Sigil does not know (EIP-3326 convention).
    package static func unrecognizedChain(_ message: String) -> Self { Self(4902, message) }
    /// -32602: malformed params.
    package static func invalidParams(_ message: String) -> Self { Self(-32602, message) }
    /// -32603: an internal failure (the endpoint's answer was unusable, signing failed).
    package static func internalError(_ message: String) -> Self { Self(-32603, message) }
    /// -32002: the same request is already waiting for the person (EIP-1474 "resource unavailable";
    /// MetaMask's answer to a second connection request).
    package static func resourceUnavailable(_ message: String) -> Self { Self(-32002, message) }
    /// -32700: the body is not JSON.
    package static let parse = Self(-32700, "Parse error: the body is not JSON.")
    /// -32600: not a JSON-RPC 2.0 request object.
    package static func invalidRequest(_ message: String) -> Self { Self(-32600, message) }

    /// The JSON-RPC `error` object.
    package var json: JSONValue { ["code": .integer(code), "message": .string(message)] }

    package var description: String { "EthereumRPCError(\(code)): \(message)" }

    /// Two errors are equal when their codes are (docs/reference/conventions.md §1).
    package static func == (a: Self, b: Self) -> Bool { a.code == b.code }

    /// A codec refusal of the site's params as -32602, naming the field, never the value.
    static func params(_ error: EthereumCodecError, _ context: String) -> Self {
        let field = error.field.map { " (\(EthereumText.excerpt($0, 60)))" } ?? ""
        return .invalidParams("Invalid params: \(context)\(field): \(EthereumText.excerpt(error.reason, 120))")
    }
}

/// One Ethereum JSON-RPC endpoint (`sigil serve --eth-rpc URL`), or a test double.
package protocol EthereumRPC: Sendable {
    /// A short name for messages (the URL's scheme, host and port; never its path, which may hold a key).
    var name: String { get }
    /// Sends one JSON-RPC request. - Returns: its `result`.
    /// - Throws: the endpoint's own `error` (code and an escaped message), or -32603 when it did
    ///   not answer, answered without JSON or beyond the size bound.
    func request(_ method: String, _ params: JSONValue) async throws(EthereumRPCError) -> JSONValue
}

/// An endpoint over HTTP(S) through GatewayHTTP's bounded client (as ``HTTPIconNode`` and
/// ``IcReplicaClient``): TLS verified, one timeout for the whole exchange, answers bounded
/// (`maxResponseBytes`, 4 MiB: `eth_getLogs` pages).
package struct HTTPEthereumRPC: EthereumRPC {
    package let name: String
    let probe: HTTPProbe

    /// - Throws: -32603 for a URL the client cannot use (only `http://` and `https://`).
    package init(url: String, timeout: Duration = .seconds(10), maxResponseBytes: Int = 4 << 20)
        throws(EthereumRPCError)
    {
        guard url.hasPrefix("http://") || url.hasPrefix("https://"), var probe = try? HTTPProbe(url: url) else {
            throw .internalError("--eth-rpc must be an http:// or https:// URL")
        }
        probe.timeout = timeout
        probe.maxResponseBytes = maxResponseBytes
        self.probe = probe
        let target = probe.target
        name = "\(target.secure ? "https" : "http")://\(target.host):\(target.port)"
    }

    package func request(_ method: String, _ params: JSONValue) async throws(EthereumRPCError) -> JSONValue {
        let body: JSONValue = ["jsonrpc": "2.0", "id": 1, "method": .string(method), "params": params]
        let probe = self.probe
        let encoded = body.encoded()
        let name = self.name
        let response: HTTPProbe.Response
        do {
            response = try await withCheckedThrowingContinuation { continuation in
                DispatchQueue.global().async {
                    do throws(HTTPError) {
                        continuation.resume(returning: try probe.postJSON(encoded))
                    } catch {
                        continuation.resume(
                            throwing: EthereumRPCError.internalError(
                                "The Ethereum endpoint \(name) did not answer (\(error.code))."))
                    }
                }
            }
        } catch let error as EthereumRPCError {
            throw error
        } catch {
            throw .internalError("The Ethereum endpoint \(name) did not answer.")
        }
        return try Self.result(of: response.body, status: response.status, name: name)
    }

    /// The `result` of a JSON-RPC reply, or its `error` (code kept, message escaped and cut).
    static func result(of body: [UInt8], status: Int, name: String) throws(EthereumRPCError) -> JSONValue {
        guard let answer = try? JSONValue.parse(body), case .object = answer else {
            throw .internalError("The Ethereum endpoint \(name) answered HTTP \(status) without JSON.")
        }
        if let error = answer["error"], !error.isNull {
            // Only a node's own codes pass (EIP-1474 server errors -32000…-32099, 3 for a revert): an
            // endpoint must not speak for the person or the wallet (4001, 4100, 4900 …).
            let code = error["code"]?.integer(as: Int.self) ?? -32603
            let passed = (-32099 ... -32000).contains(code) || code == 3 ? code : -32603
            throw EthereumRPCError(passed, EthereumText.excerpt(error["message"]?.stringValue ?? "error", 200))
        }
        guard let result = answer["result"] else {
            throw .internalError("The Ethereum endpoint \(name) answered HTTP \(status) without a result.")
        }
        return result
    }
}

/// Text helpers shared by the adapter.
enum EthereumText {
    /// At most `limit` printable ASCII characters of untrusted text (others shown as `?`).
    static func excerpt(_ text: String, _ limit: Int) -> String {
        let scalars = text.unicodeScalars.prefix(limit).map {
            $0.value >= 0x20 && $0.value < 0x7f ? Character($0) : "?"
        }
        return String(scalars) + (text.unicodeScalars.count > limit ? "…" : "")
    }

    /// `0x` + lower-case hex.
    static func hex(_ bytes: [UInt8]) -> String { "0x" + Hex.encode(bytes, prefix: false) }

    /// A chain id as EIP-695 hex (`0x1`).
    static func chainHex(_ chain: UInt64) -> String { "0x" + String(chain, radix: 16) }

    /// `amount` (base units) with `decimals` places, exact (no floating point), trailing zeros kept
    /// to the full precision so nothing is rounded away: `1.500000000000000000`.
    static func decimal(_ amount: UInt256, decimals: Int) -> String {
        let digits = amount.description
        guard decimals > 0 else { return digits }
        let padded = String(repeating: "0", count: max(0, decimals + 1 - digits.count)) + digits
        let cut = padded.index(padded.endIndex, offsetBy: -decimals)
        return padded[..<cut] + "." + padded[cut...]
    }

    /// An amount of ether (18 decimals, exact).
    static func ether(_ wei: UInt256) -> String { decimal(wei, decimals: 18) + " ETH" }

    /// Wei per gas as gwei (9 decimals, exact).
    static func gwei(_ wei: UInt256) -> String { decimal(wei, decimals: 9) + " gwei" }

    /// A Unix time in seconds as `YYYY-MM-DD HH:MM:SS UTC` by integer arithmetic (Howard Hinnant's
    /// civil-from-days); the raw number for values past year 9999.
    static func date(_ seconds: UInt256) -> String {
        guard let s = seconds.uint64, s < 253_402_300_800 else { return "\(seconds) (Unix time, far future)" }
        return UTCTime.text(seconds: Int64(s))
    }
}
