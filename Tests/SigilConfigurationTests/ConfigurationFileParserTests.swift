import Testing

@testable import SigilConfiguration

struct ConfigurationFileParserTests {
    private func parse(_ text: String) throws(ConfigurationError) -> [ConfigurationFileEntry] {
        try ConfigurationFileParser.parse(Array(text.utf8), path: "sigil.toml")
    }

    struct Accepted: CustomTestStringConvertible, Sendable {
        let text: String
        let expected: [String: ConfigurationFileValue]
        var testDescription: String { text.debugDescription }
    }

    static let accepted: [Accepted] = [
        Accepted(text: "", expected: [:]),
        Accepted(text: "# only a comment\n\n   \n", expected: [:]),
        Accepted(text: "port = 9715", expected: ["port": .integer(9715)]),
        Accepted(text: "port=0\n", expected: ["port": .integer(0)]),
        Accepted(
            text: "n = -12\nm = +7\nk = 1_000", expected: ["n": .integer(-12), "m": .integer(7), "k": .integer(1000)]),
        Accepted(
            text: "dev = true # on\nauto-approve = false",
            expected: ["dev": .boolean(true), "auto-approve": .boolean(false)]),
        Accepted(text: #"host = "0.0.0.0""#, expected: ["host": .string("0.0.0.0")]),
        Accepted(text: #"s = "a\"b\\c\n\t\u00e9\U0001F600""#, expected: ["s": .string("a\"b\\c\n\té😀")]),
        Accepted(text: #"p = 'C:\path\no escapes'"#, expected: ["p": .string(#"C:\path\no escapes"#)]),
        Accepted(text: "s = \"# not a comment\" # a comment", expected: ["s": .string("# not a comment")]),
        Accepted(text: "c = []", expected: ["c": .array([])]),
        Accepted(text: #"c = ["a", 'b']"#, expected: ["c": .array([.string("a"), .string("b")])]),
        Accepted(
            text: "c = [\n  \"a\", # first\n  \"b\",\n]\nport = 1",
            expected: ["c": .array([.string("a"), .string("b")]), "port": .integer(1)]),
        Accepted(text: "port = 1\r\nui-port = 2\r\n", expected: ["port": .integer(1), "ui-port": .integer(2)]),
        Accepted(text: "\u{FEFF}port = 3", expected: ["port": .integer(3)]),
        Accepted(text: "under_score = 1", expected: ["under_score": .integer(1)]),
        Accepted(text: "m = [1, true]", expected: ["m": .array([.integer(1), .boolean(true)])]),
    ]

    @Test("Accepts the TOML subset", arguments: accepted)
    func acceptsTheSubset(_ vector: Accepted) throws {
        let entries = try parse(vector.text)
        #expect(Dictionary(uniqueKeysWithValues: entries.map { ($0.key, $0.value) }) == vector.expected)
    }

    @Test func entriesCarryTheLineOfTheirKey() throws {
        let entries = try parse("# header\n\nport = 1\nclient = [\n \"a\",\n]\nhost = \"::1\"\n")
        #expect(entries.map(\.line) == [3, 4, 7])
    }

    struct Refused: CustomTestStringConvertible, Sendable {
        let text: String
        let code: ConfigurationError.Code
        let line: Int
        let message: String
        var testDescription: String { text.debugDescription }
    }

    static let refused: [Refused] = [
        Refused(text: "[server]\nport = 1", code: .syntax, line: 1, message: "sections ([table]) are not supported"),
        Refused(text: "port = 1\n[[x]]", code: .syntax, line: 2, message: "sections"),
        Refused(text: "server.port = 1", code: .syntax, line: 1, message: "dotted keys are not supported"),
        Refused(text: "\"port\" = 1", code: .syntax, line: 1, message: "quoted keys are not supported"),
        Refused(text: "port 1", code: .syntax, line: 1, message: "expected '=' after key 'port'"),
        Refused(text: "port =", code: .syntax, line: 1, message: "key 'port' has no value"),
        Refused(text: "port = # none", code: .syntax, line: 1, message: "key 'port' has no value"),
        Refused(text: "= 1", code: .syntax, line: 1, message: "expected a key"),
        Refused(text: "host = \"0.0.0.0", code: .syntax, line: 1, message: "unterminated string"),
        Refused(text: "host = \"a\nb\"", code: .syntax, line: 1, message: "unterminated string"),
        Refused(text: "host = 'a", code: .syntax, line: 1, message: "unterminated string"),
        Refused(text: "x = 1\nc = [\"a\",\n", code: .syntax, line: 3, message: "unterminated array"),
        Refused(text: "c = [\"a\" \"b\"]", code: .syntax, line: 1, message: "expected ',' or ']'"),
        Refused(text: "c = [,]", code: .syntax, line: 1, message: "not a value"),
        Refused(text: "s = \"\"\"long\"\"\"", code: .syntax, line: 1, message: "multi-line strings are not supported"),
        Refused(text: "s = '''long'''", code: .syntax, line: 1, message: "multi-line strings are not supported"),
        Refused(text: "t = { a = 1 }", code: .syntax, line: 1, message: "inline tables are not supported"),
        Refused(text: "f = 1.5", code: .syntax, line: 1, message: "floats and dates are not supported"),
        Refused(text: "f = 1e3", code: .syntax, line: 1, message: "floats and dates are not supported"),
        Refused(text: "f = inf", code: .syntax, line: 1, message: "floats and dates are not supported"),
        Refused(text: "d = 2024-01-01", code: .syntax, line: 1, message: "not a valid integer"),
        Refused(text: "h = 0x10", code: .syntax, line: 1, message: "only decimal integers"),
        Refused(text: "z = 0123", code: .syntax, line: 1, message: "not a valid integer"),
        Refused(text: "z = 1__0", code: .syntax, line: 1, message: "not a valid integer"),
        Refused(text: "z = 10_", code: .syntax, line: 1, message: "not a valid integer"),
        Refused(text: "z = 99999999999999999999", code: .syntax, line: 1, message: "not a valid integer"),
        Refused(text: "b = True", code: .syntax, line: 1, message: "'True' is not a value; strings are quoted"),
        Refused(text: "b = yes", code: .syntax, line: 1, message: "'yes' is not a value"),
        Refused(text: "s = \"\\x41\"", code: .syntax, line: 1, message: "unknown escape '\\x'"),
        Refused(text: "s = \"\\u12\"", code: .syntax, line: 1, message: "take 4 hexadecimal digits"),
        Refused(text: "s = \"\\uD800\"", code: .syntax, line: 1, message: "not a Unicode scalar value"),
        Refused(text: "s = \"a\u{01}b\"", code: .syntax, line: 1, message: "control character U+0001"),
        Refused(text: "# bell \u{07}\n", code: .syntax, line: 1, message: "control character U+0007 in a comment"),
        Refused(text: "port = 1 2", code: .syntax, line: 1, message: "unexpected text after the value"),
        Refused(text: "port = 1\rui-port = 2", code: .syntax, line: 1, message: "carriage return"),
        Refused(
            text: "x = 1\n\nport = 1\nport = 2", code: .duplicateKey, line: 4,
            message: "key 'port' is already set on line 3"),
        Refused(text: "c = [[[[[\"a\"]]]]]", code: .syntax, line: 1, message: "nested too deep"),
    ]

    @Test("Refuses what is not the subset, naming the line", arguments: refused)
    func refusesWithLine(_ vector: Refused) {
        #expect {
            _ = try parse(vector.text)
        } throws: { error in
            guard let error = error as? ConfigurationError else { return false }
            return error.code == vector.code && error.source == .file(path: "sigil.toml", line: vector.line)
                && error.reason.contains(vector.message)
        }
    }

    @Test func refusesInvalidUTF8() {
        #expect(throws: ConfigurationError.self) {
            _ = try ConfigurationFileParser.parse([0x70, 0x3d, 0x22, 0xff, 0x22], path: "f")
        }
    }

    @Test func refusesAnOversizedFile() {
        let bytes = Array(repeating: UInt8(ascii: "#"), count: ConfigurationFileParser.maxBytes + 1)
        #expect {
            _ = try ConfigurationFileParser.parse(bytes, path: "f")
        } throws: { error in
            (error as? ConfigurationError)?.reason.contains("over 65536 bytes") == true
        }
    }

    @Test func neverTrapsOnMutationsOfAValidFile() {
        let seed = Array("c = [\n \"a\\u00e9\", 'b', # x\n]\nport = -1_000\r\ns = \"q\\\"\"\nb = true\n".utf8)
        #expect((try? ConfigurationFileParser.parse(seed, path: "f"))?.count == 4)
        let alphabet = Array("\"'[]#=,\\\n\r\t _-+0123456789abcdeuUxtrf.{}".utf8) + [0x00, 0x7f, 0xc3, 0xff]
        var state: UInt64 = 0x5EED
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
        for _ in 0..<5000 {
            var bytes = seed
            for _ in 0...next(4) {
                let at = next(bytes.count + 1)
                switch next(3) {
                case 0: bytes.insert(alphabet[next(alphabet.count)], at: at)
                case 1: if at < bytes.count { bytes.remove(at: at) }
                default: if at < bytes.count { bytes[at] = alphabet[next(alphabet.count)] }
                }
            }
            _ = try? ConfigurationFileParser.parse(bytes, path: "f")
        }
    }

    @Test func neverTrapsOnTruncationsOfAValidFile() {
        let text = Array("c = [\n \"a\\u00e9\", 'b', # x\n]\nport = -1_000\ns = \"q\\\"\"\nb = true\n".utf8)
        for end in 0...text.count {
            _ = try? ConfigurationFileParser.parse(Array(text[..<end]), path: "f")
        }
    }
}
