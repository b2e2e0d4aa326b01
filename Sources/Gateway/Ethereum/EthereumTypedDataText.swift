import EthereumCodec
import Primitives
import SignerCore

/// EIP-712 data in words: Permit (ERC-2612) and Permit2 as a sentence (token, spender, amount or
/// **unlimited**, deadline), and every request as a tree of rows (bounded: ``maxRows``).
enum EthereumTypedDataText {
    static let maxRows = 200
    static let permit2 = "0x000000000022d473030f116ddee9f6b43ac78ba3"
    /// 2^160 − 1, Permit2's "unlimited" allowance.
    static let maxUInt160: UInt256 = UInt256(bigEndianBytes: [UInt8](repeating: 0xff, count: 20)) ?? .max

    /// An unsigned integer from a typed-data value: a JSON integer, a decimal string or a `0x` hex string.
    static func uint(_ value: JSONValue?) -> UInt256? {
        guard let value else { return nil }
        if let digits = value.numberValue?.unsignedDigits { return UInt256(decimal: digits) }
        guard let text = value.stringValue else { return nil }
        if text.hasPrefix("0x") || text.hasPrefix("0X") { return UInt256(hexDigits: text.dropFirst(2)) }
        return UInt256(decimal: text)
    }

    /// The `encodeType` strings a permit is described by (docs/reference/ethereum.md §7.5, §7.6): a
    /// request is put in words only when its primary type is exactly one of these, so the sentence
    /// reads only fields the signature covers (a key the type does not declare is not hashed).
    static let canonicalTypes: [String: String] = [
        "Permit": "Permit(address owner,address spender,uint256 value,uint256 nonce,uint256 deadline)",
        "PermitSingle":
            "PermitSingle(PermitDetails details,address spender,uint256 sigDeadline)"
            + "PermitDetails(address token,uint160 amount,uint48 expiration,uint48 nonce)",
        "PermitBatch":
            "PermitBatch(PermitDetails[] details,address spender,uint256 sigDeadline)"
            + "PermitDetails(address token,uint160 amount,uint48 expiration,uint48 nonce)",
        "PermitTransferFrom":
            "PermitTransferFrom(TokenPermissions permitted,address spender,uint256 nonce,uint256 deadline)"
            + "TokenPermissions(address token,uint256 amount)",
        "PermitBatchTransferFrom":
            "PermitBatchTransferFrom(TokenPermissions[] permitted,address spender,uint256 nonce,uint256 deadline)"
            + "TokenPermissions(address token,uint256 amount)",
    ]

    /// Whether the primary type is exactly the canonical permit type of its name.
    static func isCanonical(_ typed: TypedData) -> Bool {
        guard let expected = canonicalTypes[typed.primaryType] else { return false }
        return (try? typed.encodeType(typed.primaryType)) == expected
    }

    /// Most Permit2 batch entries put in the sentence; a longer batch gets no sentence (its rows say it).
    static let maxSentenceEntries = 20

    static func address(_ value: JSONValue?) -> EthereumAddress? {
        guard let text = value?.stringValue else { return nil }
        return try? EthereumAddress(text.lowercased())
    }

    /// The sentence and rows of a known permit; nil sentence for anything else.
    static func describe(_ typed: TypedData, account: SignerAccount, service: EthereumService, chain: UInt64) async
        -> (sentence: String?, rows: [SummaryRow])
    {
        var rows: [SummaryRow] = []
        let domainName = typed.domain["name"]?.stringValue
        let contract = address(typed.domain["verifyingContract"])
        rows.append(SummaryRow("type", typed.primaryType))
        if let domainName { rows.append(SummaryRow("domain", domainName)) }
        if let contract { rows.append(SummaryRow("contract", contract.checksummed)) }
        let message = typed.message
        switch typed.primaryType {
        case "Permit" where isCanonical(typed):
            guard let token = contract, let spender = address(message["spender"]), let value = uint(message["value"])
            else { break }
            let info = await service.tokenInfo(token, chain: chain)
            let amount = value == .max ? "an UNLIMITED amount" : info.amount(value)
            let deadline = uint(message["deadline"]).map(EthereumText.date) ?? "no deadline"
            rows.append(SummaryRow("token", info.name(token)))
            rows.append(SummaryRow("spender", spender.checksummed))
            rows.append(SummaryRow("amount", value == .max ? "unlimited" : info.amount(value)))
            rows.append(SummaryRow("deadline", deadline))
            rows.append(
                SummaryRow(
                    "warning",
                    "This signature lets \(spender.checksummed) spend \(amount) of your \(info.name(token)) without asking you again (ERC-2612 permit).",
                    warning: true))
            return ("Allow \(spender.checksummed) to spend \(amount) of \(info.name(token)) until \(deadline)?", rows)
        case "PermitSingle", "PermitBatch", "PermitTransferFrom", "PermitBatchTransferFrom":
            // Permit2 is one contract at one address on every chain; anything else named so is not it.
            guard domainName == "Permit2", contract?.lowercased == permit2, isCanonical(typed) else {
                if domainName == "Permit2" {
                    rows.append(
                        SummaryRow(
                            "warning",
                            "This calls itself Permit2 but is not the Permit2 contract or its types: read every row.",
                            warning: true))
                }
                break
            }
            return await permit2(typed, rows: rows, service: service, chain: chain)
        default: break
        }
        return (nil, rows)
    }

    static func permit2(_ typed: TypedData, rows start: [SummaryRow], service: EthereumService, chain: UInt64) async
        -> (sentence: String?, rows: [SummaryRow])
    {
        var rows = start
        let message = typed.message
        guard let spender = address(message["spender"]) else { return (nil, rows) }
        let single = typed.primaryType == "PermitSingle" || typed.primaryType == "PermitBatch"
        // (token, amount, expiration) per entry.
        var entries: [(EthereumAddress, UInt256, UInt256?)] = []
        let raw: [JSONValue]
        switch typed.primaryType {
        case "PermitSingle": raw = [message["details"] ?? .null]
        case "PermitBatch": raw = message["details"]?.arrayValue ?? []
        case "PermitTransferFrom": raw = [message["permitted"] ?? .null]
        default: raw = message["permitted"]?.arrayValue ?? []
        }
        guard raw.count <= maxSentenceEntries else {
            rows.append(
                SummaryRow(
                    "warning",
                    "This Permit2 signature covers \(raw.count) tokens: every one is listed below; read them all.",
                    warning: true))
            return (nil, rows)
        }
        for entry in raw {
            guard let token = address(entry["token"]), let amount = uint(entry["amount"]) else { return (nil, rows) }
            entries.append((token, amount, single ? uint(entry["expiration"]) : nil))
        }
        var phrases: [String] = []
        for (token, amount, expiration) in entries {
            let info = await service.tokenInfo(token, chain: chain)
            let unlimited = single ? amount >= maxUInt160 : amount == .max
            let words = unlimited ? "an UNLIMITED amount" : info.amount(amount)
            rows.append(SummaryRow("token", info.name(token)))
            rows.append(SummaryRow("amount", unlimited ? "unlimited" : info.amount(amount)))
            if let expiration { rows.append(SummaryRow("allowance expires", EthereumText.date(expiration))) }
            phrases.append("\(words) of \(info.name(token))")
        }
        let deadline = uint(message[single ? "sigDeadline" : "deadline"]).map(EthereumText.date) ?? "no deadline"
        rows.append(SummaryRow("spender", spender.checksummed))
        rows.append(SummaryRow("signature valid until", deadline))
        let what = phrases.joined(separator: ", ")
        if single {
            rows.append(
                SummaryRow(
                    "warning",
                    "This Permit2 signature lets \(spender.checksummed) spend \(what) from your account without asking you again.",
                    warning: true))
            return ("Allow \(spender.checksummed) to spend \(what) through Permit2?", rows)
        }
        rows.append(
            SummaryRow(
                "warning", "This Permit2 signature lets \(spender.checksummed) take \(what) from your account once.",
                warning: true))
        return ("Let \(spender.checksummed) transfer \(what) from your account through Permit2?", rows)
    }

    /// Every field of the domain and the message as rows (`path`: value), depth-first, bounded.
    static func tree(_ typed: TypedData) -> [SummaryRow] {
        var rows: [SummaryRow] = []
        var omitted = 0
        func add(_ label: String, _ value: String) {
            if rows.count < maxRows { rows.append(SummaryRow(label, value)) } else { omitted += 1 }
        }
        func walk(_ type: String, _ value: JSONValue, _ path: String, _ depth: Int) {
            guard depth <= TypedData.maxDepth else { add(path, "…"); return }
            if type.hasSuffix("]"), let open = type.lastIndex(of: "[") {
                let element = String(type[..<open])
                let items = value.arrayValue ?? []
                add(path, "\(items.count) item(s)")
                for (i, item) in items.enumerated() {
                    if omitted > 0 { omitted += 1; continue }
                    walk(element, item, "\(path)[\(i)]", depth + 1)
                }
                return
            }
            if let fields = typed.types[type] {
                if !path.isEmpty && depth > 0 { add(path, type) }
                for field in fields {
                    walk(
                        field.type, value[field.name] ?? .null, path.isEmpty ? field.name : "\(path).\(field.name)",
                        depth + 1)
                }
                return
            }
            add(path, leaf(type, value))
        }
        walk("EIP712Domain", .object(typed.domain), "domain", 0)
        if typed.primaryType != "EIP712Domain" { walk(typed.primaryType, typed.message, "message", 0) }
        if omitted > 0 {
            rows.append(
                SummaryRow(
                    "warning", "\(omitted) more field(s) are not shown; the signature covers them too.", warning: true))
        }
        return rows
    }

    static func leaf(_ type: String, _ value: JSONValue) -> String {
        switch value {
        case .null: return "(none)"
        case .bool(let b): return b ? "true" : "false"
        case .number(let n): return n.text
        case .string(let s):
            if type == "address", let a = try? EthereumAddress(s.lowercased()) { return a.checksummed }
            if type.hasPrefix("uint"), let n = uint(value) { return n.description }
            return s
        default: return EthereumText.excerpt(String(decoding: value.encoded(), as: UTF8.self), 200)
        }
    }
}

/// What Sigil learned of a token contract (ERC-20 `symbol()` and `decimals()` through `eth_call`).
struct EthereumTokenInfo: Sendable {
    var symbol: String?
    var decimals: Int?

    func name(_ token: EthereumAddress) -> String {
        symbol.map { "\($0) (\(token.checksummed))" } ?? "token \(token.checksummed)"
    }

    /// The amount in the token's units (exact), or base units when its decimals are unknown.
    func amount(_ value: UInt256) -> String {
        guard let decimals else { return "\(value) base units (decimals unknown)" }
        return EthereumText.decimal(value, decimals: decimals) + (symbol.map { " " + $0 } ?? "")
    }
}

extension EthereumService {
    /// `symbol()` and `decimals()` of `token` on `chain` (nothing when there is no endpoint or the
    /// answers do not decode; both bounded).
    func tokenInfo(_ token: EthereumAddress, chain: UInt64) async -> EthereumTokenInfo {
        guard let rpc = try? await endpoint(for: chain) else { return EthereumTokenInfo() }
        func call(_ selector: [UInt8]) async -> [UInt8]? {
            let params: JSONValue = [
                ["to": .string(token.lowercased), "data": .string(EthereumText.hex(selector))], "latest",
            ]
            guard let text = try? await rpc.request("eth_call", params).stringValue, text.utf8.count <= 4096 else {
                return nil
            }
            return try? EthereumQuantity.parseData(text)
        }
        var info = EthereumTokenInfo()
        if let word = await call(Calldata.selector("decimals()")), word.count == 32,
            let value = UInt256(bigEndianBytes: word)?.uint64, value <= 77
        {
            info.decimals = Int(value)
        }
        if let bytes = await call(Calldata.selector("symbol()")) { info.symbol = Self.abiString(bytes) }
        return info
    }

    /// An ABI `string` return value (or a `bytes32`, as old tokens answer), when short and printable.
    static func abiString(_ bytes: [UInt8]) -> String? {
        var text: [UInt8]
        if bytes.count == 32 {
            text = Array(bytes.prefix { $0 != 0 })
        } else {
            guard bytes.count >= 64, let offset = UInt256(bigEndianBytes: bytes[0..<32])?.uint64, offset <= 4000,
                Int(offset) + 32 <= bytes.count,
                let length = UInt256(bigEndianBytes: bytes[Int(offset)..<(Int(offset) + 32)])?.uint64, length <= 64,
                Int(offset) + 32 + Int(length) <= bytes.count
            else { return nil }
            text = Array(bytes[(Int(offset) + 32)..<(Int(offset) + 32 + Int(length))])
        }
        guard !text.isEmpty, text.count <= 32, text.allSatisfy({ $0 >= 0x20 && $0 < 0x7f }) else { return nil }
        return String(decoding: text, as: UTF8.self)
    }
}
