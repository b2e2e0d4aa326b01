import Primitives
import Testing

@Suite struct JSONParserTests {
    @Test(arguments: [
        ("null", JSONValue.null),
        ("true", .bool(true)),
        (
            " [1, -0, 2.5e+3] ",
            .array([.number(JSONNumber(1)), .number(JSONNumber("-0")!), .number(JSONNumber("2.5e+3")!)])
        ),
        (#"{"a":{"b":[]},"c":"x"}"#, ["a": ["b": JSONValue.array([])], "c": "x"] as JSONValue),
        (#""\u00e9\ud83d\ude00\n\/""#, .string("é😀\n/")),
        (#""é""#, .string("é")),
    ])
    func parsesValid(text: String, expected: JSONValue) throws {
        #expect(try JSONValue.parse(text) == expected)
    }

    @Test func numbersKeepTheirExactText() throws {
        let value = try JSONValue.parse(#"{"tip": 9007199254740993, "big": 340282366920938463463374607431768211455}"#)
        #expect(value["tip"]?.numberValue?.text == "9007199254740993")
        #expect(value["tip"]?.integer(as: UInt64.self) == 9_007_199_254_740_993)
        #expect(value["big"]?.numberValue?.unsignedDigits == "340282366920938463463374607431768211455")
        #expect(value["big"]?.integer(as: UInt64.self) == nil)
        #expect(value.serialized() == #"{"tip":9007199254740993,"big":340282366920938463463374607431768211455}"#)
    }

    @Test(arguments: [
        ("", PrimitivesError.Code.jsonSyntax),
        ("[1,]", .jsonSyntax),
        ("{\"a\":1,}", .jsonSyntax),
        ("01", .jsonSyntax),
        ("1.", .jsonSyntax),
        ("-", .jsonSyntax),
        (".5", .jsonSyntax),
        ("1e", .jsonSyntax),
        ("NaN", .jsonSyntax),
        ("[1] x", .jsonSyntax),
        ("\u{FEFF}1", .jsonSyntax),
        ("\"a\u{01}\"", .jsonSyntax),
        ("\"\\x\"", .jsonSyntax),
        ("\"\\u12\"", .jsonSyntax),
        ("// c\n1", .jsonSyntax),
        ("{'a':1}", .jsonSyntax),
        ("tru", .jsonSyntax),
        (#"{"a":1,"a":2}"#, .jsonDuplicateKey),
        (#""\ud800""#, .jsonInvalidUTF8),
        (#""\udc00\ud800""#, .jsonInvalidUTF8),
        (#""\ud800\u0041""#, .jsonInvalidUTF8),
    ])
    func refusesInvalid(text: String, code: PrimitivesError.Code) {
        #expect(throws: PrimitivesError(code, "")) { try JSONValue.parse(text) }
    }

    @Test(arguments: [
        [0x22, 0xFF, 0x22], [0x22, 0xC3, 0x22], [0x22, 0xED, 0xA0, 0x80, 0x22], [0x22, 0xC0, 0xAF, 0x22],
    ])
    func refusesInvalidUTF8(bytes: [UInt8]) {
        #expect(throws: PrimitivesError(.jsonInvalidUTF8, "")) { try JSONValue.parse(bytes) }
    }

    /// A duplicate key is reported at the offset of its second occurrence, however many members
    /// come before it; keys keep their order.
    @Test(arguments: [
        (#"{"a":1,"a":2}"#, 7),
        (#"{"a":1,"b":{"c":1,"c":2},"a":3}"#, 18),
        (#"{"k0":0,"k1":1,"k2":2,"k3":3,"k4":4,"k5":5,"k6":6,"k7":7,"k8":8,"k9":9,"k3":0}"#, 71),
        (#"{"é":1, "é":2}"#, 9),
    ])
    func duplicateKeysAreReportedWhereTheyRepeat(text: String, offset: Int) {
        do {
            _ = try JSONValue.parse(text)
            Issue.record("parsed")
        } catch {
            #expect(error.code == .jsonDuplicateKey && error.offset == offset)
        }
    }

    @Test func manyKeysKeepTheirOrder() throws {
        let keys = (0..<40).map { "k\($0)é" }.shuffled()
        let text = "{" + keys.enumerated().map { "\"\($1)\":\($0)" }.joined(separator: ",") + "}"
        let value = try JSONValue.parse(text)
        #expect(value.objectValue?.keys == keys)
        #expect(value.serialized() == text)
    }

    /// ASCII strings, raw UTF-8 and escapes in any mix decode alike; invalid UTF-8 is refused on
    /// every path (no escape, after an escape).
    @Test(
        arguments: [
            ([0x22, 0x61, 0x62, 0x22], "ab" as String?),
            ([0x22, 0xC3, 0xA9, 0x61, 0x22], "éa"),
            ([0x22, 0x5C, 0x6E, 0xC3, 0xA9, 0x22], "\né"),
            ([0x22, 0x61, 0x5C, 0x22, 0x62, 0x22], "a\"b"),
            ([0x22, 0x5C, 0x6E, 0xFF, 0x22], nil),
            ([0x22, 0x61, 0xED, 0xA0, 0x80, 0x22], nil),
        ] as [([UInt8], String?)])
    func stringsDecodeOnEveryPath(bytes: [UInt8], expected: String?) {
        #expect((try? JSONValue.parse(bytes))?.stringValue == expected)
        if expected == nil {
            #expect(throws: PrimitivesError(.jsonInvalidUTF8, "")) { try JSONValue.parse(bytes) }
        }
    }

    @Test func depthIsBounded() throws {
        let ok = String(repeating: "[", count: 64) + String(repeating: "]", count: 64)
        _ = try JSONValue.parse(ok)
        let deep = String(repeating: "[", count: 65) + String(repeating: "]", count: 65)
        #expect(throws: PrimitivesError(.jsonTooDeep, "")) { try JSONValue.parse(deep) }
        #expect(throws: PrimitivesError(.jsonTooLarge, "")) {
            try JSONValue.parse(ok, limits: JSONLimits(maxDepth: 64, maxBytes: 10))
        }
    }

    /// The worst shapes at 1 MiB cost a bounded number of steps per byte (work counted, not timed):
    /// deep-then-wide nesting (the shape that took seconds with decode-by-trial), long escaped
    /// strings, many keys, many small numbers.
    @Test(arguments: ["nested", "escapes", "keys", "numbers", "unterminated"])
    func workIsLinear(shape: String) {
        let size = 1 << 20
        var text = ""
        switch shape {
        case "nested":
            let unit =
                String(repeating: "[", count: 62) + String(repeating: "[],", count: 1000) + "[]"
                + String(repeating: "]", count: 62)
            text = "[" + Array(repeating: unit, count: size / unit.utf8.count).joined(separator: ",") + "]"
        case "escapes":
            text = "\"" + String(repeating: "\\u00e9\\n", count: size / 8) + "\""
        case "keys":
            text = "{" + (0..<(size / 12)).map { "\"k\($0)\":0" }.joined(separator: ",") + "}"
        case "numbers":
            text = "[" + Array(repeating: "-1.5e-3", count: size / 8).joined(separator: ",") + "]"
        default:
            text = String(repeating: "[", count: 60) + "\"" + String(repeating: "a", count: size)
        }
        let bytes = Array(text.utf8)
        let (result, steps) = JSONValue.parseCountingSteps(bytes)
        if shape != "unterminated" { #expect(throws: Never.self) { try result.get() } }
        #expect(steps <= 4 * bytes.count + 16, "\(shape): \(steps) steps for \(bytes.count) bytes")
    }

    @Test func writerEscapesAndSorts() throws {
        let value: JSONValue = ["b": "\u{202E}x\u{7}\"", "a": [1, true, nil]]
        #expect(value.serialized([.sortedKeys]) == #"{"a":[1,true,null],"b":"\u202ex\u0007\""}"#)
        #expect(value.serialized() == #"{"b":"\u202ex\u0007\"","a":[1,true,null]}"#)
        #expect(try JSONValue.parse(value.encoded()) == value)
        #expect(JSONValue.array([]).serialized([.pretty]) == "[]")
        #expect((["a": [1]] as JSONValue).serialized([.pretty]) == "{\n  \"a\": [\n    1\n  ]\n}")
    }

    /// Plain ASCII is copied as it is; everything that needs an escape is escaped wherever it sits.
    @Test(arguments: [
        ("0x01ab", #""0x01ab""#),
        ("", #""""#),
        ("say \"hi\"", #""say \"hi\"""#),
        ("back\\slash", #""back\\slash""#),
        ("tab\tnl\n", #""tab\tnl\n""#),
        ("bell\u{7}", #""bell\u0007""#),
        ("del\u{7F}", #""del\u007f""#),
        ("c1\u{85}", #""c1\u0085""#),
        ("ls\u{2028}", #""ls\u2028""#),
        ("rlo\u{202E}x", #""rlo\u202ex""#),
        ("é and 🔑", "\"é and 🔑\""),
        ("~ ascii edge !", #""~ ascii edge !""#),
    ])
    func stringsAreWrittenEscapedWhereNeeded(text: String, json: String) throws {
        #expect(JSONValue.string(text).serialized() == json)
        #expect(try JSONValue.parse(json) == .string(text))
    }

    @Test func objectKeepsOrderAndEqualityIgnoresIt() throws {
        let a = try JSONValue.parse(#"{"z":1,"a":2}"#)
        let b = try JSONValue.parse(#"{"a":2,"z":1}"#)
        #expect(a == b)
        #expect(a.objectValue?.keys == ["z", "a"])
    }
}
