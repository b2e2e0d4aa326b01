import Primitives
import Testing

@testable import ICPCodec

/// Issue 24 item 9: a 3 MB argument of `vec null` used to become 48 M stored values (~480 MB, ~3 s).
/// The decoder's own accounting (`materialisedValues`, `materialisedBytes`) must stay small for
/// vectors of zero-sized elements, and every other expansion is capped.
@Suite struct CandidMemoryTests {
    static let megabytes3 = 3 << 20

    /// `(vec T, blob)`: the vector of `count` zero-sized elements, padded with a blob to `total` bytes.
    static func zeroSizedVector(_ table: [UInt8], typeCount: UInt8, count: Int, total: Int) -> [UInt8] {
        // Table: the given entries, then `vec nat8` (blob) as the last entry.
        var head = Array("DIDL".utf8) + [typeCount + 1] + table + [0x6d, 0x7b]
        head += [0x02, 0x00, typeCount]
        head += CandidTests.leb(String(count))
        let blobHeaderGuess = 4
        let blobLength = max(0, total - head.count - blobHeaderGuess)
        let blobHeader = CandidTests.leb(String(blobLength))
        return head + blobHeader + [UInt8](repeating: 0xAB, count: blobLength)
    }

    struct Case: Sendable, CustomTestStringConvertible {
        let name: String
        let table: [UInt8]
        let typeCount: UInt8
        var testDescription: String { name }
    }

    @Test(arguments: [
        Case(name: "vec null", table: [0x6d, 0x7f], typeCount: 1),
        Case(name: "vec reserved", table: [0x6d, 0x70], typeCount: 1),
        // 0 = vec 1; 1 = record { 0 : null; 1 : reserved }
        Case(
            name: "vec record {null; reserved}", table: [0x6d, 0x01, 0x6c, 0x02, 0x00, 0x7f, 0x01, 0x70], typeCount: 2),
        // 0 = vec 1; 1 = record { 0 : 2 }; 2 = record {}
        Case(name: "vec record {record {}}", table: [0x6d, 0x01, 0x6c, 0x01, 0x00, 0x02, 0x6c, 0x00], typeCount: 3),
    ])
    func threeMegabytesOfZeroSizedElements(_ c: Case) throws {
        let count = 47_000_000
        let bytes = Self.zeroSizedVector(c.table, typeCount: c.typeCount, count: count, total: Self.megabytes3)
        var decoder = CandidDecoder(bytes)
        let message = try decoder.decodeMessage()
        guard case .repeated(let n, _)? = message.values.first else {
            Issue.record("not stored as a repeated vector: \(String(describing: message.values.first).prefix(80))")
            return
        }
        #expect(n == UInt64(count))
        // The vector, its one element (and a record's fields), the blob: a handful of values.
        #expect(decoder.materialisedValues <= 8)
        // The blob's own bytes plus a few boxes: nowhere near 48 M × a box.
        #expect(decoder.materialisedBytes <= bytes.count + 8 * CandidDecoder.valueCost)
    }

    /// Elements of one byte each (`vec opt null`, `vec bool`) are capped by `maxValues`.
    @Test(arguments: [[UInt8]([0x6d, 0x01, 0x6e, 0x7f]), [0x6d, 0x7e]])
    func oneByteElementsAreCapped(_ table: [UInt8]) throws {
        let count = 1_000_000
        let typeCount: UInt8 = table.count == 4 ? 2 : 1
        let bytes =
            Array("DIDL".utf8) + [typeCount] + table + [0x01, 0x00] + CandidTests.leb(String(count))
            + [UInt8](repeating: 0, count: count)
        var decoder = CandidDecoder(bytes)
        #expect(throws: ICPCodecError(.limitExceeded, "")) { try decoder.decodeMessage() }
        let limits = CandidDecoder.Limits.default
        #expect(decoder.materialisedValues <= limits.maxValues + 1)
        #expect(decoder.materialisedBytes <= limits.maxMaterialisedBytes + CandidDecoder.valueCost)
    }

    /// A repeated vector still renders (bounded) and a recursive record is not zero-sized.
    @Test func repeatedRendersAndRecursiveRecordStops() throws {
        let bytes = Array("DIDL".utf8) + [0x01, 0x6d, 0x7f, 0x01, 0x00] + CandidTests.leb("1000")
        let message = try CandidDecoder.decode(bytes)
        #expect(RenderedCall.genericText(message) == "(vec {1000 × null})")
        // 0 = vec 1; 1 = record { 0 : 1 } (no finite value, so not zero-sized): an argument of
        // type 1 is refused at the depth bound.
        let recursive = Array("DIDL".utf8) + [0x02, 0x6d, 0x01, 0x6c, 0x01, 0x00, 0x01, 0x01, 0x01]
        #expect(throws: ICPCodecError(.limitExceeded, "")) { try CandidDecoder.decode(recursive) }
    }
}
