import IconCodec
import Primitives

/// An ICON transaction in words (docs/protocol.md "ICON"): network by `nid`, sender and receiver,
/// ICX with all 18 decimals (exact: hex → decimal digits, no floating point), step limit, the
/// timestamp as a UTC date with its distance from now (a warning beyond `skewWarning`), the call's
/// method and parameters, a message's text. Values from the dapp are made safe for display.
package enum IconSummary {
    /// Networks by `nid` (ICON's published network ids).
    package static let networks: [String: String] = [
        "0x1": "ICON Mainnet", "0x2": "Lisbon testnet", "0x7": "Berlin testnet", "0x53": "Sejong testnet",
    ]

    /// Distance between the transaction's timestamp and now beyond which the person is warned.
    package static let skewWarningMicroseconds: Int64 = 5 * 60 * 1_000_000

    /// The rows for `transaction` signed by `account`. `names` gives the person's names of other
    /// ICON accounts (to show a receiver that is one of them); `now` is microseconds since 1970.
    package static func rows(
        _ tx: IconTransaction, account: SignerAccount, names: [String: String], now: Int64
    ) -> [SummaryRow] {
        var rows: [SummaryRow] = []
        rows.append(
            SummaryRow(
                "network", networks[tx.nid].map { "\($0) (nid \(tx.nid))" } ?? "nid \(tx.nid) (unknown network)",
                warning: networks[tx.nid] == nil))
        rows.append(SummaryRow("from", account.label))
        if tx.to.hasPrefix("cx") {
            rows.append(SummaryRow("to", "contract (SCORE) \(tx.to)"))
        } else if let name = names[tx.to] {
            rows.append(SummaryRow("to", "\(name) (\(tx.to)), one of your accounts"))
        } else {
            rows.append(SummaryRow("to", tx.to))
        }
        if tx.from == tx.to { rows.append(SummaryRow("warning", "sender and receiver are the same", warning: true)) }
        // ICX sent along with a contract call is flagged (the headline says it too).
        rows.append(
            SummaryRow(
                "value",
                "\(icx(tx.value ?? "0x0")) ICX (\(decimal(tx.value ?? "0x0")) loop)"
                    + (movesICX(tx) && tx.dataType == .call ? ", sent to the contract with the call" : ""),
                warning: movesICX(tx) && tx.dataType == .call))
        rows.append(SummaryRow("step limit", decimal(tx.stepLimit)))
        rows.append(timestampRow(tx.timestamp, now: now))
        if let nonce = tx.nonce { rows.append(SummaryRow("nonce", decimal(nonce))) }
        switch (tx.dataType, tx.data) {
        case (.call?, let data?):
            rows.append(SummaryRow("call", safe(data["method"]?.stringValue ?? "")))
            if let params = data["params"]?.objectValue {
                for (key, value) in params.keys.sorted().compactMap({ k in params[k].map { (k, $0) } }) {
                    rows.append(SummaryRow("  \(safe(key))", safe(text(value))))
                }
                if tx.to.hasPrefix("cx"), data["method"]?.stringValue == "transfer",
                    let amount = params["_value"]?.stringValue, isCanonicalHex(amount)
                {
                    rows.append(SummaryRow("token amount", "\(decimal(amount)) in the token's smallest unit"))
                }
            }
        case (.message?, .string(let hex)?):
            rows.append(messageRow(hex))
        case (.deposit?, let data?):
            rows.append(SummaryRow("deposit", safe(text(data))))
        default: break
        }
        rows.append(SummaryRow("transaction hash", tx.transactionHash))
        return rows
    }

    /// What the person is told about a request that came from a link (`GET /icon/connect`):
    /// `source` is only the referring page's claim.
    package static func linkWarning(_ source: String) -> String {
        "a link, not the site's own script: \(source) is the page that referred the browser here "
            + "(its Referer), which Sigil cannot verify; a link posted on a site you trust shows that site"
    }

    /// Whether `tx` moves native ICX (a `value` other than zero).
    package static func movesICX(_ tx: IconTransaction) -> Bool {
        guard let v = tx.value else { return false }
        return decimal(v) != "0"
    }

    /// `0x…` loop as ICX with the 18 decimals written out (trailing zeros dropped), exact.
    package static func icx(_ hex: String) -> String {
        let digits = decimal(hex)
        let padded = String(repeating: "0", count: max(0, 19 - digits.count)) + digits
        let whole = padded.dropLast(18)
        var fraction = Substring(padded.suffix(18))
        while fraction.last == "0" { fraction = fraction.dropLast() }
        return fraction.isEmpty ? String(whole) : "\(whole).\(fraction)"
    }

    /// A canonical `0x` hex integer as decimal digits (schoolbook base conversion; any width).
    package static func decimal(_ hex: String) -> String {
        var digits: [UInt8] = [0]  // little-endian base 10
        for c in hex.utf8.dropFirst(2) {
            let v: UInt8
            switch c {
            case 0x30...0x39: v = c - 0x30
            case 0x61...0x66: v = c - 0x61 + 10
            case 0x41...0x46: v = c - 0x41 + 10
            default: return hex
            }
            var carry = Int(v)
            for i in digits.indices {
                let x = Int(digits[i]) * 16 + carry
                digits[i] = UInt8(x % 10)
                carry = x / 10
            }
            while carry > 0 {
                digits.append(UInt8(carry % 10))
                carry /= 10
            }
        }
        while digits.count > 1 && digits.last == 0 { digits.removeLast() }
        return String(decoding: digits.reversed().map { $0 + 0x30 }, as: UTF8.self)
    }

    package static func isCanonicalHex(_ s: String) -> Bool {
        let u = Array(s.utf8)
        return u.count >= 3 && u.count <= 66 && u[0] == 0x30 && u[1] == 0x78
            && u[2...].allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x61 && $0 <= 0x66) }
    }

    /// The timestamp (µs) as a UTC date and its distance from `now`; a warning beyond five minutes.
    static func timestampRow(_ hex: String, now: Int64) -> SummaryRow {
        guard hex.utf8.count <= 18, let micros = Int64(hex.dropFirst(2), radix: 16) else {
            return SummaryRow("timestamp", "\(hex) (out of range)", warning: true)
        }
        let skew = micros - now
        let minutes = abs(skew) / 60_000_000
        let seconds = (abs(skew) / 1_000_000) % 60
        let distance = skew >= 0 ? "\(minutes) min \(seconds) s from now" : "\(minutes) min \(seconds) s ago"
        let far = abs(skew) > skewWarningMicroseconds
        return SummaryRow(
            "timestamp", "\(utcDate(micros)) (\(distance))" + (far ? "; far from the current time, check it" : ""),
            warning: far)
    }

    /// `YYYY-MM-DD hh:mm:ss UTC` from microseconds since 1970 (proleptic Gregorian, civil-from-days).
    static func utcDate(_ micros: Int64) -> String {
        UTCTime.text(seconds: micros >= 0 ? micros / 1_000_000 : (micros - 999_999) / 1_000_000)
    }

    /// A `message` data: its UTF-8 text when it is `0x` hex of printable text, else the raw value.
    static func messageRow(_ value: String) -> SummaryRow {
        if let bytes = try? Hex.decode(value, prefix: .required),
            let text = String(validating: bytes, as: UTF8.self), !text.unicodeScalars.contains(where: isUnsafe)
        {
            return SummaryRow("message", text)
        }
        return SummaryRow("message (not hex text)", safe(value), warning: true)
    }

    /// JSON text of a value from `data` (strings bare).
    static func text(_ value: JSONValue) -> String {
        if case .string(let s) = value { return s }
        return value.serialized()
    }

    /// At most 2,000 characters, control, format and line-separator characters escaped
    /// (``DisplayText/visible(_:)``; also for text the gateway adds, such as a Connect caller URL).
    package static func safe(_ s: String) -> String {
        let cut = s.unicodeScalars.count > 2000
        let head = cut ? String(String.UnicodeScalarView(s.unicodeScalars.prefix(2000))) : s
        return DisplayText.visible(head) + (cut ? "…" : "")
    }

    static func isUnsafe(_ u: Unicode.Scalar) -> Bool {
        (u.value < 0x20 && u != "\n") || (0x7f...0x9f).contains(u.value) || (0x202a...0x202e).contains(u.value)
            || (0x2066...0x2069).contains(u.value) || u.value == 0x200e || u.value == 0x200f || u.value == 0x061c
    }
}
