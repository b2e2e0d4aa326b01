import Primitives
import Testing

@testable import EthereumCodec

/// RLP (docs/reference/ethereum.md §8.1): canonical encodings and the rejects of ethereum.json.
@Suite struct RLPTests {
    static func item(_ v: JSONValue) throws -> RLPItem {
        if let list = v.arrayValue { return .list(try list.map(item)) }
        if let n = v.numberValue { return .uint(try #require(UInt256(decimal: n.text))) }
        let s = try #require(v.stringValue)
        if s.hasPrefix("0x") { return .bytes(try Hex.decode(s, prefix: .required)) }
        return .uint(try #require(UInt256(decimal: s)))
    }

    @Test func canonicalEncodings() throws {
        let v = try Vectors.vector("rlp-canonical-encodings")
        let encodings = try #require(v["encodings"]?.arrayValue)
        #expect(encodings.count >= 10)
        for e in encodings {
            let label = e["label"]?.stringValue ?? ""
            let expected = try Vectors.hex(e["rlp"])
            let item = try Self.item(try #require(e["value"]))
            #expect(RLP.encode(item) == expected, "\(label)")
            #expect(try RLP.decode(expected) == item, "\(label)")
        }
    }

    @Test func nonCanonicalIsRefused() throws {
        let v = try Vectors.vector("rlp-non-canonical-rejected")
        for e in try #require(v["decode_must_fail"]?.arrayValue) {
            let bytes = try Vectors.hex(e["rlp"])
            let label = e["label"]?.stringValue ?? ""
            // The last two are integer rules: they decode as bytes but not as an integer field.
            let failed: Bool
            do {
                let item = try RLP.decode(bytes)
                _ = try item.integer("x")
                failed = false
            } catch { failed = true }
            #expect(failed, "\(label)")
        }
    }

    static let refusals: [(String, EthereumCodecError.Code, Int)] = [
        ("8100", .nonCanonical, 0), ("b80161", .nonCanonical, 0), ("b9003861", .nonCanonical, 1),
        ("83646f", .truncated, 1), ("8080", .trailingBytes, 1), ("", .truncated, 0), ("c3", .truncated, 1),
        ("c28100", .nonCanonical, 1), ("c1c0c0", .trailingBytes, 2), ("bf0000000000000001", .tooLarge, 0),
        ("f800", .nonCanonical, 1), ("f8", .truncated, 1),
    ]

    @Test(arguments: RLPTests.refusals.indices)
    func refusalsCarryTheOffset(_ i: Int) throws {
        let (hex, code, position) = RLPTests.refusals[i]
        do {
            _ = try RLP.decode(try Hex.decode(hex, prefix: .forbidden))
            Issue.record("\(hex) decoded")
        } catch let error as EthereumCodecError {
            #expect(error.code == code, "\(hex)")
            #expect(error.offset == position, "\(hex)")
        }
    }

    @Test func depthIsBounded() throws {
        let deep = [UInt8](repeating: 0xc1, count: 40) + [0xc0]
        // c1 c1 … c0: each list announces one byte but holds more: refused as truncated or too deep.
        #expect(throws: (any Error).self) { try RLP.decode(deep) }
        var nested = RLPItem.list([])
        for _ in 0..<20 { nested = .list([nested]) }
        let encoded = RLP.encode(nested)
        #expect(throws: EthereumCodecError(.tooDeep, "")) { try RLP.decode(encoded) }
        #expect(try RLP.decode(encoded, maxDepth: 32) == nested)
    }

    @Test func longPayloadRoundTrips() throws {
        let big = RLPItem.list((0..<300).map { RLPItem.bytes([UInt8](repeating: UInt8($0 & 0x7f), count: $0 % 70)) })
        #expect(try RLP.decode(RLP.encode(big)) == big)
    }

    @Test func quantities() throws {
        let v = try Vectors.vector("json-rpc-quantity-encoding")
        for e in try #require(v["encodings"]?.arrayValue) {
            let text = try #require(e["value"]?.stringValue)
            let value = try #require(UInt256(decimal: text))
            let q = try #require(e["quantity"]?.stringValue)
            #expect(value.quantity == q)
            #expect(try EthereumQuantity.parse(q) == value)
            #expect(value.description == e["value"]?.stringValue)
        }
        for bad in ["0x", "0x00", "0x0400", "400", "0xg", "0X1", "0x1" + String(repeating: "0", count: 64)] {
            #expect(throws: EthereumCodecError.self) { try EthereumQuantity.parse(bad) }
        }
    }
}

/// The exact integer type: parsing, printing, arithmetic at the edges.
@Suite struct UInt256Tests {
    static let decimals = [
        "0", "1", "255", "256", "18446744073709551615", "18446744073709551616",
        "340282366920938463463374607431768211456",
        "115792089237316195423570985008687907853269984665640564039457584007913129639935",
    ]

    @Test(arguments: UInt256Tests.decimals)
    func decimalRoundTrip(_ text: String) throws {
        let v = try #require(UInt256(decimal: text))
        #expect(v.description == text)
        #expect(UInt256(hexDigits: String(v.quantity.dropFirst(2))) == v)
        #expect(UInt256(bigEndianBytes: v.word) == v)
        #expect(UInt256(bigEndianBytes: v.minimalBytes) == v)
        #expect(v.twosComplementNegated.twosComplementNegated == v)
        #expect(v.adding(v.twosComplementNegated) == (v.isZero ? .zero : nil))
    }

    @Test func overflowIsReportedNotTrapped() {
        #expect(
            UInt256(decimal: "115792089237316195423570985008687907853269984665640564039457584007913129639936") == nil)
        #expect(UInt256.max.addingReportingOverflow(1) == nil)
        #expect(UInt256.max.multipliedReportingOverflow(by: 2) == nil)
        #expect(UInt256.zero.subtracting(1) == nil)
        #expect(UInt256(hexDigits: String(repeating: "f", count: 65)) == nil)
        #expect(UInt256(hexDigits: "0" + String(repeating: "f", count: 64)) == .max)
        #expect(UInt256(decimal: "") == nil)
        #expect(UInt256(decimal: "-1") == nil)
        #expect(UInt256(bigEndianBytes: [UInt8](repeating: 0, count: 33)) == nil)
        #expect(UInt256(1).twosComplementNegated == .max)
        #expect(UInt256.max.bitLength == 256)
        #expect(UInt256(0x80).bitLength == 8)
    }

    /// A 1 MiB list of small strings decodes in one pass (a quadratic decoder would take minutes).
    @Test func largeInputsDecodeLinearly() throws {
        let items = [RLPItem](repeating: .bytes([0x81, 0x82]), count: 350_000)
        let encoded = RLP.encode(.list(items))
        #expect(encoded.count > 1_000_000)
        #expect(try RLP.decode(encoded) == .list(items))
    }
}
