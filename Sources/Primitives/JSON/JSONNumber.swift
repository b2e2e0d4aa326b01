/// A JSON number kept as its exact text (RFC 8259 grammar, checked), so that no value, however wide,
/// passes through a binary floating point. Integer accessors parse the text exactly and return `nil`
/// when it is not an integer in range; there is deliberately no `Double` accessor.
package struct JSONNumber: Sendable, Hashable, CustomStringConvertible, ExpressibleByIntegerLiteral {
    /// The number's text exactly as written (or as produced from an integer).
    package let text: String

    /// A number from text; `nil` unless `text` is one RFC 8259 number (`-? int frac? exp?`).
    package init?(_ text: String) {
        guard Self.isValid(text.utf8) else { return nil }
        self.text = text
    }

    /// Text already checked by the parser.
    init(validated text: String) { self.text = text }

    /// The decimal text of an integer.
    package init(_ value: some BinaryInteger) { text = String(value) }

    package init(integerLiteral value: Int) { text = String(value) }

    /// Whether the text is an integer (`-? digits`: no fraction, no exponent).
    package var isInteger: Bool {
        !text.utf8.contains { $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "e") || $0 == UInt8(ascii: "E") }
    }

    /// Whether the text is a non-negative integer.
    package var isUnsignedInteger: Bool { isInteger && text.utf8.first != UInt8(ascii: "-") }

    /// The value as an integer type when the text is an integer that fits; `nil` otherwise.
    package func integer<T: FixedWidthInteger>(as _: T.Type = T.self) -> T? {
        guard isInteger else { return nil }
        return T(text, radix: 10)
    }

    /// The decimal digits of a non-negative integer (no sign), for integers wider than 64 bits.
    package var unsignedDigits: Substring? { isUnsignedInteger ? Substring(text) : nil }

    package var description: String { text }

    /// RFC 8259 §6: `-? (0 | [1-9][0-9]*) (\.[0-9]+)? ([eE][+-]?[0-9]+)?`.
    static func isValid(_ utf8: some Collection<UInt8>) -> Bool {
        var it = utf8.makeIterator()
        var c = it.next()
        if c == UInt8(ascii: "-") { c = it.next() }
        guard let first = c, isDigit(first) else { return false }
        c = it.next()
        if first != UInt8(ascii: "0") {
            while let d = c, isDigit(d) { c = it.next() }
        }
        if c == UInt8(ascii: ".") {
            c = it.next()
            guard let d = c, isDigit(d) else { return false }
            while let d = c, isDigit(d) { c = it.next() }
        }
        if c == UInt8(ascii: "e") || c == UInt8(ascii: "E") {
            c = it.next()
            if c == UInt8(ascii: "+") || c == UInt8(ascii: "-") { c = it.next() }
            guard let d = c, isDigit(d) else { return false }
            while let d = c, isDigit(d) { c = it.next() }
        }
        return c == nil
    }

    @inline(__always)
    static func isDigit(_ c: UInt8) -> Bool { c >= 0x30 && c <= 0x39 }
}
