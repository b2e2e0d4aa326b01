import Primitives
import Testing

@testable import ICPCodec

/// The CBOR subset, its refusals and the decoder's linear work bound.
@Suite struct CBORTests {
    @Test func roundTrip() throws {
        let value = CBORValue.tag(
            55799,
            .map([
                ("a", .unsigned(0)), ("b", .unsigned(23)), ("c", .unsigned(24)), ("d", .unsigned(UInt64.max)),
                ("e", .negative(0)), ("f", .bytes([])), ("g", .text("é")), ("h", .array([.null, .bool(true)])),
            ]))
        let bytes = value.encoded()
        #expect(Array(bytes.prefix(3)) == [0xd9, 0xd9, 0xf7])
        #expect(try CBORDecoder.decode(bytes) == value)
        #expect(
            CBORValue.unsigned(1_685_570_400_000_000_000).encoded() == [
                0x1b, 0x17, 0x64, 0x59, 0x59, 0x27, 0xe9, 0xc0, 0x00,
            ])
    }

    @Test(arguments: [
        "", "18", "5f", "9f", "bf", "f97e00", "fa00000000", "f7", "a10101", "a2616101616101", "6180",
        "8301", "0000", "ff", "1c", "4201",
    ])
    func refused(_ hex: String) throws {
        #expect(throws: ICPCodecError.self) { try CBORDecoder.decode(try Hex.decode(hex, prefix: .forbidden)) }
    }

    @Test func depthBound() throws {
        let deep = [UInt8](repeating: 0x81, count: CBORDecoder.maxDepth + 1) + [0x00]
        #expect(throws: ICPCodecError(.limitExceeded, "")) { try CBORDecoder.decode(deep) }
        let ok = [UInt8](repeating: 0x81, count: CBORDecoder.maxDepth) + [0x00]
        #expect(throws: Never.self) { try CBORDecoder.decode(ok) }
    }

    /// A declared length far beyond the input is refused before allocation; the work is at most one
    /// item per input byte on the worst inputs (many tiny items, maximal declared counts).
    @Test func workIsLinear() throws {
        let huge: [UInt8] = [0x9b, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x00]
        #expect(throws: ICPCodecError(.invalidCBOR, "")) { try CBORDecoder.decode(huge) }
        for n in [1_000, 100_000] {
            // An array of n nulls inside nested arrays: every item is one byte.
            var bytes: [UInt8] = [0x9a] + CBORValue.bigEndian(UInt64(n), 4)
            bytes += [UInt8](repeating: 0xf6, count: n)
            var decoder = CBORDecoder(bytes)
            _ = try decoder.decodeAll()
            #expect(decoder.work == n + 1)
            #expect(decoder.work <= bytes.count)
        }
    }
}
