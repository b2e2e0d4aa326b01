/// How a chain writes amounts of its token: decimals and symbol (`10`, `DOT`).
///
/// Decimals may come from a dapp (metadata properties), so they are clamped once in `init` and
/// cannot be changed afterwards: `format` never overflows (10^38 < 2^128).
package struct TokenFormat: Hashable, Sendable {
    /// Decimal places, 0…38.
    package private(set) var decimals: Int
    /// The token symbol shown after amounts (display only; may be empty).
    package var symbol: String

    /// Creates a format; decimals are clamped to 0…38 (u128 has at most 39 digits).
    package init(decimals: Int, symbol: String) {
        self.decimals = min(max(decimals, 0), 38)
        self.symbol = symbol
    }

    /// `12345678901234` planck with 10 decimals → `"1,234.5678901234 DOT"`. Exact (integer arithmetic).
    package func format(_ amount: UInt128) -> String {
        var divisor: UInt128 = 1
        for _ in 0..<decimals { divisor *= 10 }
        let whole = amount / divisor
        let frac = amount % divisor
        var text = Self.grouped(String(whole))
        if frac > 0 {
            var digits = String(frac)
            digits = String(repeating: "0", count: decimals - digits.count) + digits
            while digits.hasSuffix("0") { digits.removeLast() }
            text += "." + digits
        }
        return symbol.isEmpty ? text : text + " " + symbol
    }

    /// Inserts thousands separators: `"1234567"` → `"1,234,567"`.
    package static func grouped(_ digits: String) -> String {
        let count = digits.count
        var out = ""
        out.reserveCapacity(digits.utf8.count + count / 3)
        for (i, c) in digits.enumerated() {
            if i > 0 && (count - i) % 3 == 0 { out.append(",") }
            out.append(c)
        }
        return out
    }
}
