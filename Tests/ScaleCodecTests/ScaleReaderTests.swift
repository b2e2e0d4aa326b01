import Primitives
import Testing

@testable import ScaleCodec

@Suite struct ScaleReaderTests {
    @Test func fixedWidthIntegersRoundTripLittleEndian() throws {
        var w = ScaleWriter()
        w.writeU8(0xAB)
        w.writeU16(0x1234)
        w.writeU32(0xDEAD_BEEF)
        w.writeU64(0x0102_0304_0506_0708)
        w.writeU128(UInt128.max - 5)
        w.writeU256(UInt256(high: 7, low: 9))
        w.writeI8(-2)
        w.writeI16(-300)
        w.writeI32(-70000)
        w.writeI64(Int64.min)
        w.writeI128(Int128.min + 1)
        w.writeBool(true)
        #expect(Array(w.bytes[1..<3]) == [0x34, 0x12])
        var r = ScaleReader(w.bytes)
        #expect(try r.readU8() == 0xAB)
        #expect(try r.readU16() == 0x1234)
        #expect(try r.readU32() == 0xDEAD_BEEF)
        #expect(try r.readU64() == 0x0102_0304_0506_0708)
        #expect(try r.readU128() == UInt128.max - 5)
        #expect(try r.readU256() == UInt256(high: 7, low: 9))
        #expect(try r.readI8() == -2)
        #expect(try r.readI16() == -300)
        #expect(try r.readI32() == -70000)
        #expect(try r.readI64() == Int64.min)
        #expect(try r.readI128() == Int128.min + 1)
        #expect(try r.readBool())
        try r.expectEnd()
    }

    @Test func aFailedReadDoesNotMoveTheCursorAndReportsTheOffset() throws {
        var r = ScaleReader([1, 2, 3])
        _ = try r.readU8()
        do {
            _ = try r.readU32()
            Issue.record("expected truncated")
        } catch let e as ScaleError {
            #expect(e.code == .truncated)
            #expect(e.reason.contains("offset 1"))
        }
        #expect(r.offset == 1)
        #expect(try r.readU16() == 0x0302)
    }

    @Test func boolOtherThanZeroOrOneIsRefused() {
        var r = ScaleReader([2])
        #expect(throws: ScaleError(.invalidBool, "")) { try r.readBool() }
        #expect(r.offset == 0)
    }

    @Test func aLengthPrefixClaimingFourGigabytesIsRefusedBeforeAllocating() throws {
        // compact 2^32 - 1 in big-integer mode, then 10 bytes
        let bytes: [UInt8] = [0x03, 0xFF, 0xFF, 0xFF, 0xFF] + Array(repeating: 0, count: 10)
        var r = ScaleReader(bytes)
        // `.lengthTooLarge` comes from the check against the bytes left, made before allocating.
        #expect(throws: ScaleError(.lengthTooLarge, "")) { try r.readByteVector() }
        #expect(throws: ScaleError(.lengthTooLarge, "")) { try r.readVector { try $0.readU8() } }
        #expect(throws: ScaleError(.lengthTooLarge, "")) { try r.readString() }
        #expect(r.offset == 0)
    }

    @Test func optionResultVectorStringAndTuplesDecode() throws {
        var w = ScaleWriter()
        w.writeOption(UInt32(5)) { $0.writeU32($1) }
        w.writeOption(UInt32?.none) { $0.writeU32($1) }
        w.writeVector([1, 2, 3] as [UInt16]) { $0.writeU16($1) }
        w.writeString("héllo")
        w.writeByte(1)  // Result::Err
        w.writeU8(9)
        w.writeU8(4)  // tuple (u8, u16)
        w.writeU16(500)
        var r = ScaleReader(w.bytes)
        #expect(try r.readOption { try $0.readU32() } == 5)
        #expect(try r.readOption { try $0.readU32() } == nil)
        #expect(try r.readVector { try $0.readU16() } == [1, 2, 3])
        #expect(try r.readString() == "héllo")
        let res = try r.readResult(ok: { try $0.readU32() }, err: { try $0.readU8() })
        #expect(res == .failure(ScaleResultError(value: 9)))
        let tuple = try r.atomically { r in (try r.readU8(), try r.readU16()) }
        #expect(tuple.0 == 4 && tuple.1 == 500)
        try r.expectEnd()
    }

    @Test(arguments: [[UInt8]([2]), [0x04, 0xFF, 0xFE], [0x08, 0x00]])
    func wrongVariantsBadUTF8AndTruncationAreRefused(bytes: [UInt8]) {
        var r = ScaleReader(bytes)
        #expect(throws: ScaleError.self) {
            if bytes.count == 1 { _ = try r.readOption { try $0.readU8() } } else { _ = try r.readString() }
        }
        #expect(r.offset == 0)
    }

    @Test func decodeRefusesTrailingBytes() {
        #expect(throws: ScaleError(.trailingBytes, "")) { try ScaleReader.decode([1, 0, 9]) { try $0.readU16() } }
    }

    @Test func fixedArraysReadExactlyTheirLength() throws {
        var r = ScaleReader([1, 2, 3, 4])
        #expect(try r.readArray(count: 3) { try $0.readU8() } == [1, 2, 3])
        #expect(throws: ScaleError.self) { try r.readArray(count: 2) { try $0.readU8() } }
        #expect(r.offset == 3)
    }

    @Test func uint256PrintsDecimal() {
        #expect(UInt256(high: 1, low: 0).description == "340282366920938463463374607431768211456")
        #expect(UInt256(high: UInt128.max, low: UInt128.max).description.count == 78)
    }

    @Test func multiSignatureChecksItsLength() throws {
        #expect(throws: ScaleError(.invalidLength, "")) { try MultiSignature(scheme: .sr25519, signature: [0]) }
        let s = try MultiSignature(scheme: .ecdsa, signature: Array(repeating: 7, count: 65))
        #expect(s.encoded.count == 66 && s.encoded[0] == 2)
        var r = ScaleReader(s.encoded)
        #expect(try MultiSignature(from: &r) == s)
        let k = try MultiSigner(scheme: .ed25519, publicKey: Array(repeating: 1, count: 32))
        #expect(ScaleWriter.encode { k.encode(to: &$0) }.count == 33)
    }
}
