/// RFC 8259 JSON text → ``JSONValue`` in one pass: every byte is looked at a constant number of times,
/// nesting is bounded by ``JSONLimits/maxDepth`` (so the recursion is too), and nothing is retried
/// (no backtracking, no decode-by-trial). Strict: no comments, no trailing commas, no leading BOM,
/// no bare control characters in strings, no lone surrogates, no duplicate keys, no trailing data.
struct JSONParser {
    let limits: JSONLimits
    private var bytes: [UInt8] = []
    private var index = 0
    private var depth = 0
    /// The members read so far of every object still open, innermost last, and their keys'
    /// offsets: one buffer for the whole document instead of one growing array per object.
    private var openMembers: [JSONObject.Member] = []
    private var openKeyOffsets: [Int] = []
    /// Units of work done (bytes examined plus values built): tests bound it by the input size.
    private(set) var steps = 0

    init(limits: JSONLimits) { self.limits = limits }

    mutating func parseDocument(_ input: some Collection<UInt8>) throws(PrimitivesError) -> JSONValue {
        guard input.count <= limits.maxBytes else {
            throw PrimitivesError(.jsonTooLarge, "\(input.count) bytes, at most \(limits.maxBytes)")
        }
        bytes = Array(input)
        index = 0
        depth = 0
        openMembers.removeAll(keepingCapacity: true)
        openKeyOffsets.removeAll(keepingCapacity: true)
        skipWhitespace()
        let value = try parseValue()
        skipWhitespace()
        guard index == bytes.count else { throw error(.jsonSyntax, "data after the JSON value") }
        return value
    }

    private func error(_ code: PrimitivesError.Code, _ reason: String) -> PrimitivesError {
        PrimitivesError(code, at: index, reason)
    }

    @inline(__always)
    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D:
                index += 1
                steps += 1
            default: return
            }
        }
    }

    private mutating func parseValue() throws(PrimitivesError) -> JSONValue {
        steps += 1
        guard index < bytes.count else { throw error(.jsonSyntax, "unexpected end of input") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try parseObject()
        case UInt8(ascii: "["): return try parseArray()
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): return try literal("true", .bool(true))
        case UInt8(ascii: "f"): return try literal("false", .bool(false))
        case UInt8(ascii: "n"): return try literal("null", .null)
        case UInt8(ascii: "-"), 0x30...0x39: return .number(try parseNumber())
        default: throw error(.jsonSyntax, "unexpected character")
        }
    }

    private mutating func literal(_ word: StaticString, _ value: JSONValue) throws(PrimitivesError) -> JSONValue {
        let count = word.utf8CodeUnitCount
        guard bytes.count - index >= count else { throw error(.jsonSyntax, "unexpected end of input") }
        let matches = word.withUTF8Buffer { expected in
            var k = 0
            while k < count, bytes[index + k] == expected[k] { k += 1 }
            return k == count
        }
        guard matches else { throw error(.jsonSyntax, "invalid literal") }
        index += count
        steps += count
        return value
    }

    private mutating func enter() throws(PrimitivesError) {
        depth += 1
        guard depth <= limits.maxDepth else {
            throw error(.jsonTooDeep, "nesting deeper than \(limits.maxDepth)")
        }
    }

    private mutating func parseArray() throws(PrimitivesError) -> JSONValue {
        try enter()
        index += 1  // [
        var items: [JSONValue] = []
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
            index += 1
            depth -= 1
            return .array(items)
        }
        while true {
            skipWhitespace()
            items.append(try parseValue())
            skipWhitespace()
            guard index < bytes.count else { throw error(.jsonSyntax, "unterminated array") }
            let c = bytes[index]
            index += 1
            steps += 1
            if c == UInt8(ascii: "]") { break }
            guard c == UInt8(ascii: ",") else { throw error(.jsonSyntax, "expected , or ] in array") }
        }
        depth -= 1
        return .array(items)
    }

    private mutating func parseObject() throws(PrimitivesError) -> JSONValue {
        try enter()
        index += 1  // {
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
            index += 1
            depth -= 1
            return .object(JSONObject())
        }
        // Members are collected first and the object is built once at its size (one hash per key,
        // no rehashing as it grows); a duplicate key is reported at its own offset.
        let first = openMembers.count
        let firstKey = openKeyOffsets.count
        while true {
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
                throw error(.jsonSyntax, "expected a string key")
            }
            openKeyOffsets.append(index)
            let key = try parseString()
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else {
                throw error(.jsonSyntax, "expected : after a key")
            }
            index += 1
            skipWhitespace()
            let value = try parseValue()
            openMembers.append(JSONObject.Member(key: key, value: value))
            skipWhitespace()
            guard index < bytes.count else { throw error(.jsonSyntax, "unterminated object") }
            let c = bytes[index]
            index += 1
            steps += 1
            if c == UInt8(ascii: "}") { break }
            guard c == UInt8(ascii: ",") else { throw error(.jsonSyntax, "expected , or } in object") }
        }
        depth -= 1
        let object = JSONObject.uniqueMembers(openMembers[first...])
        openMembers.removeSubrange(first...)
        switch object {
        case .success(let object):
            openKeyOffsets.removeSubrange(firstKey...)
            return .object(object)
        case .failure(let duplicate):
            throw PrimitivesError(
                .jsonDuplicateKey, at: openKeyOffsets[firstKey + duplicate.index], "a key appears twice in one object")
        }
    }

    private mutating func parseNumber() throws(PrimitivesError) -> JSONNumber {
        let start = index
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        guard index < bytes.count, JSONNumber.isDigit(bytes[index]) else { throw error(.jsonSyntax, "invalid number") }
        if bytes[index] == 0x30 {
            index += 1
        } else {
            while index < bytes.count, JSONNumber.isDigit(bytes[index]) { index += 1 }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard index < bytes.count, JSONNumber.isDigit(bytes[index]) else {
                throw error(.jsonSyntax, "invalid number fraction")
            }
            while index < bytes.count, JSONNumber.isDigit(bytes[index]) { index += 1 }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                index += 1
            }
            guard index < bytes.count, JSONNumber.isDigit(bytes[index]) else {
                throw error(.jsonSyntax, "invalid number exponent")
            }
            while index < bytes.count, JSONNumber.isDigit(bytes[index]) { index += 1 }
        }
        steps += index - start
        return JSONNumber(validated: String(decoding: bytes[start..<index], as: UTF8.self))
    }

    /// A string starting at the opening quote; leaves `index` after the closing quote.
    private mutating func parseString() throws(PrimitivesError) -> String {
        index += 1  // opening quote
        let start = index
        // Fast path: no escapes.
        var high: UInt8 = 0  // the OR of the bytes: below 0x80 means ASCII
        while index < bytes.count {
            let c = bytes[index]
            if c == UInt8(ascii: "\"") {
                steps += index - start
                let text = try high < 0x80 ? ascii(start..<index) : validatedUTF8(bytes[start..<index], at: start)
                index += 1
                return text
            }
            if c == UInt8(ascii: "\\") { break }
            guard c >= 0x20 else { throw error(.jsonSyntax, "control character in a string") }
            high |= c
            index += 1
        }
        // Slow path: unescape into a buffer, from the start again for simplicity (still linear: the
        // fast path stopped at the first escape, so each byte is looked at most twice).
        var out: [UInt8] = Array(bytes[start..<index])
        while true {
            guard index < bytes.count else { throw error(.jsonSyntax, "unterminated string") }
            let c = bytes[index]
            steps += 1
            if c == UInt8(ascii: "\"") {
                index += 1
                steps += index - start
                return try validatedUTF8(out[...], at: start)
            }
            if c == UInt8(ascii: "\\") {
                index += 1
                guard index < bytes.count else { throw error(.jsonSyntax, "unterminated escape") }
                let e = bytes[index]
                index += 1
                switch e {
                case UInt8(ascii: "\""): out.append(0x22)
                case UInt8(ascii: "\\"): out.append(0x5C)
                case UInt8(ascii: "/"): out.append(0x2F)
                case UInt8(ascii: "b"): out.append(0x08)
                case UInt8(ascii: "f"): out.append(0x0C)
                case UInt8(ascii: "n"): out.append(0x0A)
                case UInt8(ascii: "r"): out.append(0x0D)
                case UInt8(ascii: "t"): out.append(0x09)
                case UInt8(ascii: "u"):
                    var scalar = try hex4()
                    if scalar >= 0xD800 && scalar <= 0xDBFF {
                        guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"),
                            bytes[index + 1] == UInt8(ascii: "u")
                        else { throw error(.jsonInvalidUTF8, "unpaired surrogate escape") }
                        index += 2
                        let low = try hex4()
                        guard low >= 0xDC00 && low <= 0xDFFF else {
                            throw error(.jsonInvalidUTF8, "unpaired surrogate escape")
                        }
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    } else if scalar >= 0xDC00 && scalar <= 0xDFFF {
                        throw error(.jsonInvalidUTF8, "unpaired surrogate escape")
                    }
                    guard let u = Unicode.Scalar(scalar) else { throw error(.jsonInvalidUTF8, "invalid escape") }
                    UTF8.encode(u) { out.append($0) }
                default:
                    throw error(.jsonSyntax, "invalid escape")
                }
                continue
            }
            guard c >= 0x20 else { throw error(.jsonSyntax, "control character in a string") }
            out.append(c)
            index += 1
        }
    }

    private mutating func hex4() throws(PrimitivesError) -> UInt32 {
        guard bytes.count - index >= 4 else { throw error(.jsonSyntax, "short \\u escape") }
        var v: UInt32 = 0
        for _ in 0..<4 {
            guard let n = Hex.nibble(bytes[index]) else { throw error(.jsonSyntax, "invalid \\u escape") }
            v = v << 4 | UInt32(n)
            index += 1
        }
        return v
    }

    /// ASCII bytes of the input as a string (ASCII is valid UTF-8: nothing to validate, and no
    /// generic validation entry point with its runtime metadata look-ups on the hot path).
    private func ascii(_ range: Range<Int>) -> String {
        bytes.withUnsafeBufferPointer { String(decoding: UnsafeBufferPointer(rebasing: $0[range]), as: UTF8.self) }
    }

    private func validatedUTF8(_ slice: ArraySlice<UInt8>, at offset: Int) throws(PrimitivesError) -> String {
        guard let text = String(validating: slice, as: UTF8.self) else {
            throw PrimitivesError(.jsonInvalidUTF8, at: offset, "a string is not valid UTF-8")
        }
        return text
    }
}

extension JSONValue {
    /// Parses and also returns the parser's work count (bytes examined plus values built), so tests
    /// can bound the work per input byte without timing anything.
    package static func parseCountingSteps(
        _ bytes: [UInt8], limits: JSONLimits = .default
    ) -> (result: Result<JSONValue, PrimitivesError>, steps: Int) {
        var parser = JSONParser(limits: limits)
        do {
            let value = try parser.parseDocument(bytes)
            return (.success(value), parser.steps)
        } catch {
            return (.failure(error), parser.steps)
        }
    }
}
