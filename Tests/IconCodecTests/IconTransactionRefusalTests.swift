import Primitives
import Testing

@testable import IconCodec

/// Every refusal of docs/reference/icon.md §3.3–§3.5, each with its named error, starting from the
/// valid V-ICON-7 A/B transactions and changing one thing.
@Suite struct IconTransactionRefusalTests {
    static let transfer: JSONValue = [
        "version": "0x3", "from": "hx902ecb51c109183ace539f247b4ea1347fbf23b5",
        "to": "hx87a90bfe8ed49e1a25184ce77fa0d9c4b0484d6a", "value": "0xde0b6b3a7640000", "stepLimit": "0x186a0",
        "timestamp": "0x5d56f3231f818", "nid": "0x1", "nonce": "0x1",
    ]
    static let call: JSONValue = transfer.adding("to", "cxb0776ee37f5b45bfaea8cff1d8232fbb6122ec32")
        .adding("dataType", "call")
        .adding(
            "data",
            ["method": "transfer", "params": ["_to": "hxab2d8215eab14bc6bdd8bfb2c8151257032ecd8b", "_value": "0x1"]])

    struct Case: Sendable, CustomTestStringConvertible {
        let name: String
        let json: JSONValue
        let code: IconCodecError.Code
        var testDescription: String { name }
    }

    static func params(_ p: JSONValue) -> JSONValue {
        call.adding("data", ["method": "transfer", "params": p])
    }

    static let cases: [Case] = [
        Case(name: "array", json: ["0x3"], code: .notAnObject),
        Case(name: "unknown top-level key", json: transfer.adding("memo", "hi"), code: .unknownField),
        Case(name: "unknown key id", json: transfer.adding("id", "1"), code: .unknownField),
        Case(name: "signature present", json: transfer.adding("signature", "x"), code: .signaturePresent),
        Case(
            name: "missing nid",
            json: .object(
                transfer.objectValue.map { o in
                    var o = o; o["nid"] = nil; return o
                } ?? [:]), code: .missingField),
        Case(
            name: "missing from",
            json: .object(
                transfer.objectValue.map { o in
                    var o = o; o["from"] = nil; return o
                } ?? [:]), code: .missingField),
        Case(
            name: "missing stepLimit",
            json: .object(
                transfer.objectValue.map { o in
                    var o = o; o["stepLimit"] = nil; return o
                } ?? [:]), code: .missingField),
        Case(
            name: "missing timestamp",
            json: .object(
                transfer.objectValue.map { o in
                    var o = o; o["timestamp"] = nil; return o
                } ?? [:]), code: .missingField),
        Case(
            name: "missing version",
            json: .object(
                transfer.objectValue.map { o in
                    var o = o; o["version"] = nil; return o
                } ?? [:]), code: .missingField),
        Case(name: "version 0x2", json: transfer.adding("version", "0x2"), code: .unsupportedVersion),
        Case(name: "version 0x03", json: transfer.adding("version", "0x03"), code: .nonCanonicalInteger),
        Case(name: "leading zero 0x01", json: transfer.adding("nonce", "0x01"), code: .nonCanonicalInteger),
        Case(name: "upper-case X 0XA", json: transfer.adding("value", "0XA"), code: .nonCanonicalInteger),
        Case(name: "upper-case digit 0xA", json: transfer.adding("stepLimit", "0xA"), code: .nonCanonicalInteger),
        Case(name: "no digits 0x", json: transfer.adding("nid", "0x"), code: .nonCanonicalInteger),
        Case(name: "decimal string", json: transfer.adding("timestamp", "1000"), code: .nonCanonicalInteger),
        Case(name: "negative", json: transfer.adding("value", "-0x1"), code: .nonCanonicalInteger),
        Case(
            name: "65 digits", json: transfer.adding("value", .string("0x1" + String(repeating: "0", count: 64))),
            code: .integerTooLarge),
        Case(name: "JSON number for nid", json: transfer.adding("nid", 1), code: .numberNotHexString),
        Case(
            name: "JSON number for value",
            json: transfer.adding("value", .number(JSONNumber("1000000000000000000000") ?? 0)),
            code: .numberNotHexString),
        Case(name: "boolean for value", json: transfer.adding("value", true), code: .wrongType),
        Case(name: "null for nonce", json: transfer.adding("nonce", nil), code: .wrongType),
        Case(
            name: "upper-case address", json: transfer.adding("to", "hx87A90bfe8ed49e1a25184ce77fa0d9c4b0484d6a"),
            code: .invalidAddress),
        Case(
            name: "upper-case prefix", json: transfer.adding("to", "HX87a90bfe8ed49e1a25184ce77fa0d9c4b0484d6a"),
            code: .invalidAddress),
        Case(
            name: "short address", json: transfer.adding("from", "hx902ecb51c109183ace539f247b4ea1347fbf23b"),
            code: .invalidAddress),
        Case(
            name: "0x address", json: transfer.adding("to", "0x87a90bfe8ed49e1a25184ce77fa0d9c4b0484d6a"),
            code: .invalidAddress),
        Case(
            name: "contract as sender", json: transfer.adding("from", "cxb0776ee37f5b45bfaea8cff1d8232fbb6122ec32"),
            code: .contractAsSender),
        Case(
            name: "deploy",
            json: call.adding("dataType", "deploy").adding(
                "data", ["contentType": "application/java", "content": "0x00"]), code: .unsupportedDataType),
        Case(name: "unknown dataType", json: call.adding("dataType", "Call"), code: .unsupportedDataType),
        Case(name: "data without dataType", json: transfer.adding("data", ["method": "x"]), code: .dataWithoutDataType),
        Case(name: "dataType without data", json: transfer.adding("dataType", "call"), code: .missingData),
        Case(name: "number in data.params", json: params(["_value": 1]), code: .numberInData),
        Case(name: "boolean in data.params", json: params(["flag": true]), code: .booleanInData),
        Case(name: "number deep in an array", json: params(["list": ["a", ["b", 2]]]), code: .numberInData),
        Case(name: "non-ASCII key", json: params(["caf\u{e9}": "x"]), code: .nonASCIIKey),
        Case(name: "decomposed non-ASCII key", json: params(["cafe\u{301}": "x"]), code: .nonASCIIKey),
        Case(name: "non-ASCII top-level key", json: transfer.adding("n\u{ed}d", "0x1"), code: .nonASCIIKey),
        Case(name: "dot in key", json: params(["a.b": "x"]), code: .specialCharacterInKey),
        Case(name: "brace in key", json: params(["{": "x"]), code: .specialCharacterInKey),
        Case(name: "control character in key", json: params(["a\u{1}": "x"]), code: .specialCharacterInKey),
        Case(name: "NUL in a string", json: params(["_to": "a\u{0}b"]), code: .nulCharacter),
        Case(name: "call data not an object", json: call.adding("data", "transfer"), code: .invalidData),
        Case(name: "call without method", json: call.adding("data", ["params": [:]]), code: .invalidData),
        Case(
            name: "call with extra key", json: call.adding("data", ["method": "m", "other": "x"]), code: .invalidData),
        Case(
            name: "call params an array", json: call.adding("data", ["method": "m", "params": ["x"]]),
            code: .invalidData),
        Case(
            name: "message data an object", json: call.adding("dataType", "message").adding("data", ["a": "b"]),
            code: .invalidData),
        Case(
            name: "deposit with bad action",
            json: call.adding("dataType", "deposit").adding("data", ["action": "steal"]), code: .invalidData),
    ]

    @Test(arguments: IconTransactionRefusalTests.cases)
    func refused(_ c: Case) {
        #expect {
            _ = try IconTransaction(json: c.json)
        } throws: { error in
            (error as? IconCodecError)?.code == c.code
        }
    }

    /// The bases are valid: every refusal above is caused by its one change.
    @Test func basesAreAccepted() throws {
        _ = try IconTransaction(json: IconTransactionRefusalTests.transfer)
        _ = try IconTransaction(json: IconTransactionRefusalTests.call)
        _ = try IconTransaction(
            json: IconTransactionRefusalTests.call.adding("dataType", "message").adding("data", "0x6869"))
        _ = try IconTransaction(
            json: IconTransactionRefusalTests.call.adding("dataType", "deposit").adding("data", ["action": "add"]))
        _ = try IconTransaction(
            json: IconTransactionRefusalTests.params(["s": "caf\u{e9} \u{1F600}", "n": nil, "e": [], "o": [:]]))
        _ = try IconTransaction(json: IconTransactionRefusalTests.transfer.adding("value", "0x0"))
    }

    @Test func textLevelRefusals() {
        let dup = #"{"version":"0x3","version":"0x3"}"#
        #expect(throws: IconCodecError(.duplicateKey, "")) { try IconTransaction(jsonText: Array(dup.utf8)) }
        // Keys equal under Unicode canonical equivalence but different in bytes.
        let equivalent = #"{"data":{"method":"m","params":{"\u00e9":"1","e\u0301":"2"}}}"#
        #expect {
            _ = try IconTransaction(jsonText: Array(equivalent.utf8))
        } throws: { error in
            [.duplicateKey, .nonASCIIKey].contains((error as? IconCodecError)?.code)
        }
        #expect(throws: IconCodecError(.invalidJSON, "")) { try IconTransaction(jsonText: Array("{".utf8)) }
        #expect(throws: IconCodecError(.invalidJSON, "")) { try IconTransaction(jsonText: [0xff]) }
    }

    /// A refusal of the JSON parser keeps the byte offset it found the problem at.
    @Test func textLevelRefusalsCarryTheOffset() {
        #expect {
            _ = try IconTransaction(jsonText: Array(#"{"version":"0x3","version":"0x3"}"#.utf8))
        } throws: { error in
            (error as? IconCodecError)?.offset == 17
        }
        #expect {
            _ = try IconTransaction(jsonText: Array(#"{"version":}"#.utf8))
        } throws: { error in
            (error as? IconCodecError).map { $0.code == .invalidJSON && $0.offset == 11 } ?? false
        }
    }

    @Test func depthIsBounded() throws {
        var deep: JSONValue = "x"
        for _ in 0..<(IconTransaction.maxDataDepth - 2) { deep = ["k": deep] }
        _ = try IconTransaction(json: IconTransactionRefusalTests.params(["k": deep]))
        #expect(throws: IconCodecError(.tooDeep, "")) {
            try IconTransaction(json: IconTransactionRefusalTests.params(["k": ["k": deep]]))
        }
    }

    /// Errors name the rule and the field, never the value.
    @Test func errorsDoNotEchoValues() {
        let secretish = "hx87A90bfe8ed49e1a25184ce77fa0d9c4b0484d6a"
        do {
            _ = try IconTransaction(json: IconTransactionRefusalTests.transfer.adding("to", .string(secretish)))
            Issue.record("accepted")
        } catch {
            #expect(error.field == "to")
            #expect(!error.description.contains(secretish))
        }
    }

    /// Linear: a wide data object of many keys validates and serializes in bounded time per byte.
    @Test func wideDataIsLinear() throws {
        var params = JSONObject()
        for i in 0..<20_000 { params["k\(i)"] = .string("v.\(i)") }
        let tx = try IconTransaction(json: IconTransactionRefusalTests.params(.object(params)))
        #expect(tx.serialized.count > 20_000 * 6)
    }
}
