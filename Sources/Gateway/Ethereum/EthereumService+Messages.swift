import EthereumCodec
import Primitives
import SignerCore

/// `personal_sign` (EIP-191, with SIWE checks), `eth_signTypedData_v4` (EIP-712) and `eth_sign`
/// (blind, only after the per-site switch).
extension EthereumService {
    /// The warning every blind request carries first, as for the other protocols.
    static let blindWarning =
        "BLIND SIGNING: this is a bare 32-byte hash, so Sigil cannot show what it stands for; it may be a "
        + "transaction moving all your funds. Approve only if you know exactly what this site is asking you to sign."

    /// `personal_sign [data, address]`: the message as text when it is printable UTF-8, else hex
    /// with a warning; a SIWE message is checked against the origin, the account and the chain.
    func personalSign(_ params: JSONValue, origin: String) async throws(EthereumRPCError) -> JSONValue {
        let data = try Self.param(params, 0, String.self, "expected [data, address]")
        let address = try Self.param(params, 1, String.self, "expected [data, address]")
        let account = try await authorizedAccount(address, origin: origin)
        let message: [UInt8]
        do {
            message = try PersonalMessage.messageBytes(param: data)
        } catch {
            throw .params(error, "the message")
        }
        let chain = try await signingChain(of: origin)
        var rows: [SummaryRow] = []
        var sentence = "Sign a message for \(origin) with \(account.address)?"
        if let text = Self.printableText(message) {
            if text.contains("wants you to sign in with your Ethereum account") {
                let (siweRows, siweSentence) = siweRowsFor(text, origin: origin, account: account, chain: chain)
                rows += siweRows
                if let siweSentence { sentence = siweSentence }
            }
            rows.append(SummaryRow("message", text))
        } else {
            rows.append(
                SummaryRow(
                    "warning", "The message is not readable text; Sigil shows its bytes. It may be a hash of anything.",
                    warning: true))
            rows.append(SummaryRow("message (hex)", Self.hexExcerpt(message)))
        }
        rows.insert(contentsOf: [SummaryRow("site", origin), SummaryRow("account", account.address)], at: 0)
        let hash = PersonalMessage.hash(message)
        rows.append(SummaryRow("hash signed (EIP-191)", EthereumText.hex(hash)))
        let approval = AdapterApproval(
            method: "personal_sign", title: sentence, summary: Self.warningsFirst(rows), requestId: hash,
            wallet: "ethereum", sentence: sentence, account: account.address)
        let signature = try await signApproved(approval, account: account, origin: origin)
        return .string(EthereumText.hex(try Self.messageSignature(signature)))
    }

    /// `r ‖ s ‖ v` with v = 27/28.
    static func messageSignature(_ signature: [UInt8]) throws(EthereumRPCError) -> [UInt8] {
        guard let sig = try? EthereumSignature(bytes65: signature) else {
            throw .internalError("Internal error: the signer answered a malformed signature.")
        }
        return sig.messageSignature
    }

    /// The rows of a SIWE (ERC-4361) message and its one sentence; mismatches are loud warnings.
    func siweRowsFor(_ text: String, origin: String, account: SignerAccount, chain: UInt64)
        -> ([SummaryRow], String?)
    {
        let siwe: SiweMessage
        do {
            siwe = try SiweMessage(text)
        } catch {
            return (
                [
                    SummaryRow(
                        "warning",
                        "This looks like a Sign-In with Ethereum message but does not follow ERC-4361; do not trust what it claims.",
                        warning: true)
                ], nil
            )
        }
        var rows: [SummaryRow] = []
        let site = SiteOrigin(origin)
        let scheme = siwe.scheme ?? "https"
        let (host, port) = Self.splitDomain(siwe.domain)
        if let site {
            let sameHost = host.lowercased() == site.host.lowercased()
            let samePort = port.map { $0 == (site.port ?? (site.scheme == "https" ? 443 : 80)) } ?? true
            if !(sameHost && samePort && scheme == site.scheme) {
                rows.append(
                    SummaryRow(
                        "warning",
                        "DOMAIN MISMATCH: the message signs you in to \(scheme)://\(siwe.domain), but the request comes from \(origin). This is how phishing sites steal logins.",
                        warning: true))
            }
        }
        if siwe.address.bytes != (try? EthereumAddress(account.key))?.bytes {
            rows.append(
                SummaryRow(
                    "warning",
                    "ADDRESS MISMATCH: the message names \(siwe.address.checksummed), not the signing account \(account.address).",
                    warning: true))
        }
        if siwe.chainId != chain {
            rows.append(
                SummaryRow(
                    "warning", "CHAIN MISMATCH: the message names chain \(siwe.chainId); the site's chain is \(chain).",
                    warning: true))
        }
        let nowSeconds = now()
        if let expiry = siwe.expirationTime, let t = Self.rfc3339Seconds(expiry), t <= nowSeconds {
            rows.append(SummaryRow("warning", "EXPIRED: the message expired at \(expiry).", warning: true))
        }
        if let notBefore = siwe.notBefore, let t = Self.rfc3339Seconds(notBefore), t > nowSeconds {
            rows.append(
                SummaryRow("warning", "NOT YET VALID: the message is valid only from \(notBefore).", warning: true))
        }
        rows.append(SummaryRow("sign in to", "\(scheme)://\(siwe.domain)"))
        if let statement = siwe.statement { rows.append(SummaryRow("statement", statement)) }
        rows.append(SummaryRow("sign-in chain", String(siwe.chainId)))
        if let expiry = siwe.expirationTime { rows.append(SummaryRow("expires", expiry)) }
        for resource in siwe.resources.prefix(20) { rows.append(SummaryRow("resource", resource)) }
        return (rows, "Sign in to \(siwe.domain) as \(account.address)?")
    }

    static func splitDomain(_ domain: String) -> (String, Int?) {
        // `[::1]:8080`, `host:8080`, `host`.
        if domain.hasPrefix("["), let close = domain.firstIndex(of: "]") {
            let host = String(domain[...close])
            let rest = domain[domain.index(after: close)...]
            return (host, rest.hasPrefix(":") ? Int(rest.dropFirst()) : nil)
        }
        let parts = domain.split(separator: ":", omittingEmptySubsequences: false)
        if parts.count == 2 { return (String(parts[0]), Int(parts[1])) }
        return (domain, nil)
    }

    /// Seconds since 1970 of an RFC 3339 time (`2023-11-14T22:00:00Z`, `…00.5+02:00`), computed with
    /// integers (days from the civil date); nil when malformed or before 1970.
    static func rfc3339Seconds(_ text: String) -> UInt64? {
        let b = Array(text.utf8)
        guard b.count >= 20, b.count <= 40 else { return nil }
        func number(_ range: Range<Int>) -> Int64? {
            var v: Int64 = 0
            for i in range {
                guard b[i] >= 0x30, b[i] <= 0x39 else { return nil }
                v = v * 10 + Int64(b[i] - 0x30)
            }
            return v
        }
        guard let year = number(0..<4), b[4] == 0x2d, let month = number(5..<7), b[7] == 0x2d,
            let day = number(8..<10), b[10] == 0x54 || b[10] == 0x74, let hour = number(11..<13), b[13] == 0x3a,
            let minute = number(14..<16), b[16] == 0x3a, let second = number(17..<19),
            (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second <= 60
        else { return nil }
        var i = 19
        if b[i] == 0x2e {
            i += 1
            while i < b.count, b[i] >= 0x30, b[i] <= 0x39 { i += 1 }
        }
        guard i < b.count else { return nil }
        var offset: Int64 = 0
        if b[i] == 0x5a || b[i] == 0x7a {
            guard i + 1 == b.count else { return nil }
        } else {
            guard b[i] == 0x2b || b[i] == 0x2d, i + 6 == b.count, let oh = number((i + 1)..<(i + 3)),
                b[i + 3] == 0x3a, let om = number((i + 4)..<(i + 6))
            else { return nil }
            offset = (oh * 60 + om) * 60 * (b[i] == 0x2b ? 1 : -1)
        }
        // Days from civil (Howard Hinnant).
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = month > 2 ? month - 3 : month + 9
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        let days = era * 146_097 + doe - 719_468
        let seconds = days * 86_400 + hour * 3600 + minute * 60 + second - offset
        return seconds >= 0 ? UInt64(seconds) : nil
    }

    /// The message as text when it is valid UTF-8 without control characters other than tab and
    /// line breaks.
    static func printableText(_ bytes: [UInt8]) -> String? {
        guard let text = String(validating: bytes, as: UTF8.self) else { return nil }
        let ok = text.unicodeScalars.allSatisfy { s in
            s == "\n" || s == "\t" || s == "\r"
                || (s.value >= 0x20 && s.value != 0x7f && !(0x80...0x9f).contains(s.value))
        }
        return ok ? text : nil
    }

    /// Hex of at most 1024 bytes, the length said.
    static func hexExcerpt(_ bytes: [UInt8]) -> String {
        let shown = EthereumText.hex(Array(bytes.prefix(1024)))
        return bytes.count > 1024 ? "\(shown)… (\(bytes.count) bytes)" : "\(shown) (\(bytes.count) bytes)"
    }

    static func warningsFirst(_ rows: [SummaryRow]) -> [SummaryRow] {
        rows.filter { $0.label == "warning" } + rows.filter { $0.label != "warning" }
    }

    /// `eth_signTypedData_v4 [address, typedData]`: the domain's chain must be the site's chain
    /// (-32602 otherwise); Permit and Permit2 are put in words; the rest is shown as a tree.
    func signTypedData(_ params: JSONValue, origin: String) async throws(EthereumRPCError) -> JSONValue {
        let address = try Self.param(params, 0, String.self, "expected [address, typedData]")
        guard let list = params.arrayValue, list.count >= 2 else {
            throw .invalidParams("Invalid params: expected [address, typedData].")
        }
        let account = try await authorizedAccount(address, origin: origin)
        let typed: TypedData
        let digest: [UInt8]
        let domainChain: UInt256?
        do {
            typed = try TypedData(json: list[1])
            digest = try typed.digest()
            domainChain = try typed.domainChainId()
        } catch {
            throw .params(error, "the typed data")
        }
        let chain = try await signingChain(of: origin)
        if let domainChain, domainChain != UInt256(chain) {
            throw .invalidParams(
                "Invalid params: the typed data's domain.chainId (\(domainChain)) is not the site's chain (\(chain)).")
        }
        var rows: [SummaryRow] = [SummaryRow("site", origin), SummaryRow("account", account.address)]
        let described = await EthereumTypedDataText.describe(typed, account: account, service: self, chain: chain)
        rows += described.rows
        rows += EthereumTypedDataText.tree(typed)
        rows.append(SummaryRow("hash signed (EIP-712)", EthereumText.hex(digest)))
        let sentence = described.sentence ?? "Sign \(typed.primaryType) data for \(origin) with \(account.address)?"
        let approval = AdapterApproval(
            method: "eth_signTypedData_v4", title: sentence, summary: Self.warningsFirst(rows), requestId: digest,
            wallet: "ethereum", sentence: sentence, account: account.address)
        let signature = try await signApproved(approval, account: account, origin: origin)
        return .string(EthereumText.hex(try Self.messageSignature(signature)))
    }

    /// `eth_sign [address, hash]`: a bare 32-byte hash, refused (4200) unless the person allowed this
    /// site blind signing, then shown with the blind-signing warning.
    func ethSign(_ params: JSONValue, origin: String) async throws(EthereumRPCError) -> JSONValue {
        let address = try Self.param(params, 0, String.self, "expected [address, hash]")
        let data = try Self.param(params, 1, String.self, "expected [address, hash]")
        let account = try await authorizedAccount(address, origin: origin)
        guard await grants.isBlindSigningAllowed(origin) else {
            throw EthereumRPCError(
                4200,
                "The method \"eth_sign\" does not exist / is not available: it signs a bare hash (blind signing), "
                    + "which is off for \(origin); use personal_sign or eth_signTypedData_v4.")
        }
        guard let hash = try? Hex.decode(data, prefix: .required, byteCount: 32) else {
            throw .invalidParams("Invalid params: eth_sign signs exactly 32 bytes (0x + 64 hex digits).")
        }
        let sentence = "Blind-sign a hash for \(origin) with \(account.address)?"
        let approval = AdapterApproval(
            method: "eth_sign", title: sentence,
            summary: [
                SummaryRow("warning", Self.blindWarning, warning: true), SummaryRow("site", origin),
                SummaryRow("account", account.address), SummaryRow("hash signed", EthereumText.hex(hash)),
            ], requestId: hash, wallet: "ethereum", sentence: sentence, account: account.address)
        let signature = try await signApproved(approval, account: account, origin: origin)
        return .string(EthereumText.hex(try Self.messageSignature(signature)))
    }
}
