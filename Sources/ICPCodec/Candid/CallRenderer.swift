import Primitives

/// A canister call put into words for the approval page and the terminal
/// (docs/reference/icp.md §6). Known ledger methods whose arguments have exactly the published
/// type are `recognised` and shown field by field, amounts in the token's decimals when the
/// canister is a known ledger. Anything else is blind signing: `recognised == false`, a warning,
/// the method name, the argument size and hex, and a generic rendering when the bytes decode.
package struct RenderedCall: Sendable, Hashable {
    package struct Line: Sendable, Hashable {
        package let label: String
        package let value: String
    }

    /// The canister id text and its known name, if any.
    package let canister: String
    package let canisterName: String?
    package let method: String
    /// A short sentence: "Transfer 1.5 ICP to …" or "Unknown method: blind signing".
    package let summary: String
    package let lines: [Line]
    package let recognised: Bool
    /// Set when not recognised: why, in words a person can act on.
    package let warning: String?
    package let argumentSize: Int
    /// Lower-case hex of the argument, at most `maxHexBytes` bytes (then `…`).
    package let argumentHex: String

    package static let maxHexBytes = 512
    package static let maxGenericLength = 4000

    /// Renders `method(arg)` on `canister`.
    package static func render(canister: Principal, method: String, arg: [UInt8]) -> RenderedCall {
        let known = KnownCanister.lookup(canister)
        let hex = Hex.encode(arg.prefix(maxHexBytes), prefix: false) + (arg.count > maxHexBytes ? "…" : "")
        func blind(_ warning: String, _ lines: [Line]) -> RenderedCall {
            RenderedCall(
                canister: canister.text, canisterName: known?.name, method: method,
                summary: "Call \(method) without a description: blind signing", lines: lines, recognised: false,
                warning: warning, argumentSize: arg.count, argumentHex: hex)
        }
        let message: CandidDecoder.Message
        do {
            message = try CandidDecoder.decode(arg)
        } catch {
            return blind(
                "The argument is not valid Candid (\(error.code.rawValue)); Sigil cannot tell what this call does.", [])
        }
        let generic = [Line(label: "Arguments (decoded, field names unknown)", value: genericText(message))]
        guard let schema = schemas[method] else {
            return blind(
                "Sigil does not know what \(method) does. Approve only if you trust this site completely.", generic)
        }
        guard message.values.count == 1, message.argumentTypes.count == 1,
            schema.matches(message.argumentTypes[0], table: message.table)
        else {
            return blind(
                "The arguments of \(method) do not have the type of the published interface; this is not a standard call.",
                generic)
        }
        let v = message.values[0]
        var r = Renderer(known: known)
        let summary: String
        switch method {
        case "icrc1_transfer":
            let amount = r.amount(v[field: "amount"])
            let to = r.account(v[field: "to"])
            summary = "Transfer \(amount) to \(to)"
            r.add("To", to)
            r.add("Amount", amount)
            r.optionalAmount("Fee", v[field: "fee"], absent: "ledger default")
            r.optionalBlob("From subaccount", v[field: "from_subaccount"])
            r.optionalBlob("Memo", v[field: "memo"])
            r.optionalTime("Created at", v[field: "created_at_time"])
        case "icrc2_approve":
            let amount = r.amount(v[field: "amount"])
            let spender = r.account(v[field: "spender"])
            summary = "Allow \(spender) to spend up to \(amount)"
            r.add("Spender", spender)
            r.add("Allowance", amount)
            r.optionalAmount("Expected current allowance", v[field: "expected_allowance"], absent: "not checked")
            r.optionalTime("Allowance expires", v[field: "expires_at"], absent: "never")
            r.optionalAmount("Fee", v[field: "fee"], absent: "ledger default")
            r.optionalBlob("From subaccount", v[field: "from_subaccount"])
            r.optionalBlob("Memo", v[field: "memo"])
            r.optionalTime("Created at", v[field: "created_at_time"])
        case "icrc2_transfer_from":
            let amount = r.amount(v[field: "amount"])
            let from = r.account(v[field: "from"])
            let to = r.account(v[field: "to"])
            summary = "Transfer \(amount) from \(from) to \(to) (using an allowance)"
            r.add("From", from)
            r.add("To", to)
            r.add("Amount", amount)
            r.optionalAmount("Fee", v[field: "fee"], absent: "ledger default")
            r.optionalBlob("Spender subaccount", v[field: "spender_subaccount"])
            r.optionalBlob("Memo", v[field: "memo"])
            r.optionalTime("Created at", v[field: "created_at_time"])
        case "transfer":
            let amount = r.e8s(v[field: "amount"])
            let to = r.blobHex(v[field: "to"])
            summary = "Transfer \(amount) to account \(to)"
            r.add("To account", to)
            r.add("Amount", amount)
            r.add("Fee", r.e8s(v[field: "fee"]))
            r.add("Memo", r.nat64(v[field: "memo"]))
            r.optionalBlob("From subaccount", v[field: "from_subaccount"])
            if case .opt(let stamp?) = v[field: "created_at_time"] {
                r.add("Created at", r.nat64(stamp[field: "timestamp_nanos"]) + " ns since 1970")
            }
        default:  // account_balance
            let account = r.blobHex(v[field: "account"])
            summary = "Read the balance of account \(account)"
            r.add("Account", account)
        }
        if known == nil, method != "account_balance" {
            r.add("Token", "unknown ledger: amounts are in the token's smallest unit")
        }
        return RenderedCall(
            canister: canister.text, canisterName: known?.name, method: method, summary: summary, lines: r.lines,
            recognised: true, warning: nil, argumentSize: arg.count, argumentHex: hex)
    }

    static let schemas: [String: CandidSchema] = [
        "icrc1_transfer": LedgerTypes.icrc1TransferArg,
        "icrc2_approve": LedgerTypes.icrc2ApproveArgs,
        "icrc2_transfer_from": LedgerTypes.icrc2TransferFromArgs,
        "transfer": LedgerTypes.icpTransferArgs,
        "account_balance": LedgerTypes.icpAccountBalanceArgs,
    ]

    /// A bounded one-line rendering of any decoded message (field ids, not names).
    static func genericText(_ message: CandidDecoder.Message) -> String {
        var out = ""
        var budget = maxGenericLength
        func emit(_ s: String) {
            guard budget > 0 else { return }
            let part = String(s.prefix(budget))
            budget -= part.count
            out += part
        }
        func walk(_ v: CandidValue) {
            guard budget > 0 else { return }
            switch v {
            case .null: emit("null")
            case .bool(let b): emit(b ? "true" : "false")
            case .nat(let n): emit(n.description)
            case .int(let negative, let n): emit((negative ? "-" : "") + n.description)
            case .nat8(let x): emit("\(x)")
            case .nat16(let x): emit("\(x)")
            case .nat32(let x): emit("\(x)")
            case .nat64(let x): emit("\(x)")
            case .int8(let x): emit("\(x)")
            case .int16(let x): emit("\(x)")
            case .int32(let x): emit("\(x)")
            case .int64(let x): emit("\(x)")
            case .float32(let bits): emit("float32 bits 0x\(String(bits, radix: 16))")
            case .float64(let bits): emit("float64 bits 0x\(String(bits, radix: 16))")
            case .text(let t): emit("\"\(t.unicodeScalars.map { $0.escaped(asASCII: true) }.joined())\"")
            case .reserved: emit("reserved")
            case .principal(let p): emit("principal \(p.text)")
            case .opt(nil): emit("null")
            case .opt(let inner?): emit("opt "); walk(inner)
            case .blob(let b): emit("blob 0x" + Hex.encode(b.prefix(64), prefix: false) + (b.count > 64 ? "…" : ""))
            case .vec(let items):
                emit("vec {")
                for (i, item) in items.enumerated() {
                    if i > 0 { emit("; ") }
                    walk(item)
                }
                emit("}")
            case .repeated(let count, let element):
                emit("vec {\(count) × ")
                walk(element)
                emit("}")
            case .record(let fields):
                emit("record {")
                for (i, f) in fields.enumerated() {
                    if i > 0 { emit("; ") }
                    emit("\(f.id) = ")
                    walk(f.value)
                }
                emit("}")
            case .variant(let id, _, let value):
                emit("variant {\(id) = ")
                walk(value)
                emit("}")
            case .function(let service, let method): emit("func \(service.text).\(method)")
            case .service(let p): emit("service \(p.text)")
            }
        }
        emit("(")
        for (i, v) in message.values.enumerated() {
            if i > 0 { emit(", ") }
            walk(v)
        }
        emit(")")
        if budget <= 0 { out += "…" }
        return out
    }
}

/// Field formatting for `RenderedCall.render`; the values were already checked against the schema,
/// so a mismatch here cannot happen and shows as "?" rather than trapping.
private struct Renderer {
    let known: KnownCanister?
    var lines: [RenderedCall.Line] = []

    mutating func add(_ label: String, _ value: String) { lines.append(.init(label: label, value: value)) }

    func amount(_ v: CandidValue?) -> String {
        guard case .nat(let n) = v else { return "?" }
        guard let known else { return "\(n) (smallest units)" }
        return "\(n.formatted(decimals: known.decimals)) \(known.symbol)"
    }

    func e8s(_ v: CandidValue?) -> String {
        guard case .nat64(let n) = v?[field: "e8s"] else { return "?" }
        let symbol = known?.symbol == "ICP" ? "ICP" : "(8 decimals, ICP-ledger interface)"
        return "\(CandidNat(n).formatted(decimals: 8)) \(symbol)"
    }

    func nat64(_ v: CandidValue?) -> String {
        guard case .nat64(let n) = v else { return "?" }
        return "\(n)"
    }

    func blobHex(_ v: CandidValue?) -> String {
        guard case .blob(let b) = v else { return "?" }
        return Hex.encode(b, prefix: false)
    }

    func account(_ v: CandidValue?) -> String {
        guard case .principal(let owner) = v?[field: "owner"] else { return "?" }
        var sub: [UInt8]?
        if case .opt(.blob(let b)?) = v?[field: "subaccount"] { sub = b }
        if let sub, sub.count != 32 {
            return "\(owner.text) with an invalid \(sub.count)-byte subaccount 0x\(Hex.encode(sub, prefix: false))"
        }
        return (try? ICRC1Account(owner: owner, subaccount: sub).text) ?? "?"
    }

    mutating func optionalAmount(_ label: String, _ v: CandidValue?, absent: String) {
        if case .opt(let inner?) = v { add(label, amount(inner)) } else { add(label, absent) }
    }

    mutating func optionalBlob(_ label: String, _ v: CandidValue?) {
        if case .opt(.blob(let b)?) = v { add(label, "0x" + Hex.encode(b, prefix: false)) }
    }

    mutating func optionalTime(_ label: String, _ v: CandidValue?, absent: String? = nil) {
        if case .opt(.nat64(let n)?) = v {
            add(label, "\(n) ns since 1970")
        } else if let absent {
            add(label, absent)
        }
    }
}
