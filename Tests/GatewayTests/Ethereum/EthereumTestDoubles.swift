import EthereumCodec
import Primitives
import SignerCore
import SigningKeys
import Synchronization

@testable import Gateway

/// The seam and the grant book with a scripted person: every approval is recorded with what it
/// showed; `answer` decides (true approve, false reject, nil nobody); `sign` runs only on approval.
final class SeamTestDouble: ApprovalSeam, GrantBook {
    struct State {
        var answers: [Bool?] = []
        var approvals: [AdapterApproval] = []
        var signatures: [[UInt8]] = []
        var grants: [String: [String]] = [:]
        var pushes: [(origin: String, event: String, payload: JSONValue)] = []
        var blind: Set<String> = []
    }
    let state = Mutex(State())

    init(answers: [Bool?] = [], grants: [String: [String]] = [:], blind: Set<String> = []) {
        state.withLock {
            $0.answers = answers
            $0.grants = grants
            $0.blind = blind
        }
    }

    var approvals: [AdapterApproval] { state.withLock { $0.approvals } }
    var signatures: [[UInt8]] { state.withLock { $0.signatures } }
    var pushes: [(origin: String, event: String, payload: JSONValue)] { state.withLock { $0.pushes } }
    var grants: [String: [String]] { state.withLock { $0.grants } }

    func decide(origin: String, _ request: AdapterApproval) async -> Bool? {
        state.withLock {
            $0.approvals.append(request)
            return $0.answers.isEmpty ? false : $0.answers.removeFirst()
        }
    }

    func decideAndSign<T: Sendable>(
        origin: String, _ request: AdapterApproval, sign: @escaping @Sendable () throws -> (T, [UInt8])
    ) async throws(GatewayError) -> T? {
        guard await decide(origin: origin, request) == true else { return nil }
        do {
            let (value, signature) = try sign()
            state.withLock { $0.signatures.append(signature) }
            return value
        } catch {
            throw GatewayError(.signingFailed, "not signed")
        }
    }

    func grantedAccounts(_ origin: String) async -> [String]? { state.withLock { $0.grants[origin] } }

    func setGrantedAccounts(
        _ origin: String, appName: String, accounts: [String], ownKey: @Sendable (String) -> Bool
    ) async throws {
        state.withLock { s in
            var keys = (s.grants[origin] ?? []).filter { !ownKey($0) }
            for key in accounts where !keys.contains(key) { keys.append(key) }
            s.grants[origin] = keys
        }
    }

    func isBlindSigningAllowed(_ origin: String) async -> Bool { state.withLock { $0.blind.contains(origin) } }

    func push(_ origin: String, event: String, payload: JSONValue) async {
        state.withLock { $0.pushes.append((origin, event, payload)) }
    }

    /// Revocations are the real grant book's (GatewayService); this double has none.
    func observeRevocations(_ observer: @escaping @Sendable (String, [String]) async -> Void) async {}
}

/// An Ethereum endpoint answering like a node from fixed state: chain id, the pending nonce, a gas
/// estimate, the latest block's base fee (nil: a pre-London chain), tips and gas price, ERC-20
/// `symbol()`/`decimals()` of known tokens, and `eth_sendRawTransaction` (the keccak of the raw
/// bytes, another hash, or an error). Records every request.
final class EthereumRPCTestDouble: EthereumRPC {
    enum SendAnswer: Sendable { case hashOfRaw, otherHash, error }
    struct Token: Sendable {
        let symbol: String
        let decimals: UInt8
    }
    let name = "http://node.test:8545"
    let chainId: UInt64
    let nonce: UInt64
    let gas: UInt64
    let baseFee: UInt256?
    let tip: UInt256
    let gasPrice: UInt256
    let tokens: [String: Token]
    let sendAnswer: SendAnswer
    /// Answers no `eth_maxPriorityFeePerGas` (as some nodes): the tip comes from `eth_feeHistory`.
    let feeHistoryOnly: Bool
    private let log = Mutex<[(String, JSONValue)]>([])

    init(
        chainId: UInt64 = 1, nonce: UInt64 = 7, gas: UInt64 = 21_000, baseFee: UInt256? = 30_000_000_000,
        tip: UInt256 = 1_500_000_000, gasPrice: UInt256 = 20_000_000_000, tokens: [String: Token] = [:],
        sendAnswer: SendAnswer = .hashOfRaw, feeHistoryOnly: Bool = false
    ) {
        self.feeHistoryOnly = feeHistoryOnly
        self.chainId = chainId
        self.nonce = nonce
        self.gas = gas
        self.baseFee = baseFee
        self.tip = tip
        self.gasPrice = gasPrice
        self.tokens = tokens
        self.sendAnswer = sendAnswer
    }

    var requests: [(String, JSONValue)] { log.withLock { $0 } }
    var sentRaw: [[UInt8]] {
        requests.filter { $0.0 == "eth_sendRawTransaction" }.compactMap {
            $0.1.arrayValue?.first?.stringValue.flatMap { try? Hex.decode($0, prefix: .required) }
        }
    }

    func request(_ method: String, _ params: JSONValue) async throws(EthereumRPCError) -> JSONValue {
        log.withLock { $0.append((method, params)) }
        switch method {
        case "eth_chainId": return .string(EthereumText.chainHex(chainId))
        case "eth_getTransactionCount": return .string(UInt256(nonce).quantity)
        case "eth_estimateGas": return .string(UInt256(gas).quantity)
        case "eth_gasPrice": return .string(gasPrice.quantity)
        case "eth_maxPriorityFeePerGas":
            guard !feeHistoryOnly else { throw EthereumRPCError(-32601, "the method does not exist") }
            return .string(tip.quantity)
        case "eth_feeHistory":
            return ["baseFeePerGas": [], "reward": [[.string(tip.quantity)], ["0x1"]]]
        case "eth_getBlockByNumber":
            var block: [String: JSONValue] = ["number": "0x10"]
            if let baseFee { block["baseFeePerGas"] = .string(baseFee.quantity) }
            return .object(block)
        case "eth_getBalance": return "0xde0b6b3a7640000"
        case "eth_call":
            guard let to = params.arrayValue?.first?["to"]?.stringValue, let token = tokens[to.lowercased()],
                let data = params.arrayValue?.first?["data"]?.stringValue
            else { throw EthereumRPCError(-32000, "execution reverted") }
            if data == EthereumText.hex(Calldata.selector("decimals()")) {
                return .string(EthereumText.hex(UInt256(UInt64(token.decimals)).word))
            }
            let bytes = Array(token.symbol.utf8)
            let padded = bytes + [UInt8](repeating: 0, count: (32 - bytes.count % 32) % 32)
            return .string(
                EthereumText.hex(UInt256(32).word + UInt256(UInt64(bytes.count)).word + padded))
        case "eth_sendRawTransaction":
            guard let text = params.arrayValue?.first?.stringValue, let raw = try? Hex.decode(text, prefix: .required)
            else {
                throw EthereumRPCError(-32602, "bad raw")
            }
            switch sendAnswer {
            case .hashOfRaw: return .string(EthereumText.hex(Keccak256.hash(raw)))
            case .otherHash: return .string(EthereumText.hex([UInt8](repeating: 0xab, count: 32)))
            case .error: throw EthereumRPCError(-32000, "nonce too low")
            }
        default: throw EthereumRPCError(-32601, "the method does not exist")
        }
    }
}
