import Foundation
import Primitives
import SigilTesting
import Testing

@testable import ICPCodec

/// The bounded Candid decoder and the known-method renderer (docs/reference/icp.md §5–§6).
@Suite struct CandidTests {
    static let file: JSONValue = {
        guard let url = Bundle.module.url(forResource: "Resources/candid-calls", withExtension: "json"),
            let data = try? Data(contentsOf: url), let value = try? JSONValue.parse(Array(data))
        else { return .null }
        return value
    }()
    static let calls = file["calls"]?.arrayValue ?? []
    static let ids = calls.compactMap { $0["id"]?.stringValue }

    static func bytes(_ call: JSONValue) throws -> [UInt8] {
        if let b64 = call["base64"]?.stringValue { return Array(try #require(Data(base64Encoded: b64))) }
        return try Vectors.hex(call["hex"])
    }

    @Test func loaded() { #expect(CandidTests.ids.count == 11) }

    @Test(arguments: CandidTests.ids)
    func rendering(_ id: String) throws {
        let call = try #require(CandidTests.calls.first { $0["id"]?.stringValue == id })
        let rendered = RenderedCall.render(
            canister: try Principal(text: try #require(call["canister"]?.stringValue)),
            method: try #require(call["method"]?.stringValue), arg: try CandidTests.bytes(call))
        #expect(rendered.recognised == call["recognised"]?.boolValue)
        #expect(rendered.recognised == (rendered.warning == nil))
        if let summary = call["summary"]?.stringValue { #expect(rendered.summary == summary) }
        for (label, value) in try #require(call["lines"]?.objectValue) {
            #expect(rendered.lines.first { $0.label == label }?.value == value.stringValue, "\(label)")
        }
        #expect(rendered.argumentSize == (try CandidTests.bytes(call)).count)
    }

    @Test func fieldIds() {
        #expect(candidFieldId("to") == 25979)
        #expect(candidFieldId("fee") == 5_094_982)
        #expect(candidFieldId("amount") == 3_573_748_184)
        #expect(candidFieldId("owner") == 947_296_307)
    }

    @Test(arguments: [
        ("0", 0, "0"), ("100000000", 8, "1"), ("123456789", 8, "1.23456789"), ("5", 8, "0.00000005"),
        ("1000000000000000000000", 18, "1000"), ("18446744073709551616", 0, "18446744073709551616"),
    ])
    func natFormatting(decimal: String, decimals: Int, expected: String) throws {
        // Build the nat from LEB128 groups of the decimal value through the decoder.
        let message = try CandidDecoder.decode(Array("DIDL".utf8) + [0, 1, 0x7d] + CandidTests.leb(decimal))
        guard case .nat(let n) = message.values.first else {
            Issue.record("not a nat")
            return
        }
        #expect(n.description == decimal)
        #expect(n.formatted(decimals: decimals) == expected)
    }

    /// LEB128 of a decimal string (test helper; schoolbook division by 128).
    static func leb(_ decimal: String) -> [UInt8] {
        var digits = decimal.utf8.map { Int($0) - 48 }
        var out: [UInt8] = []
        repeat {
            var remainder = 0
            var next: [Int] = []
            for d in digits {
                let cur = remainder * 10 + d
                if !next.isEmpty || cur / 128 > 0 { next.append(cur / 128) }
                remainder = cur % 128
            }
            digits = next
            out.append(UInt8(remainder) | (digits.isEmpty ? 0 : 0x80))
        } while !digits.isEmpty
        return out
    }

    @Test func primitivesAndInts() throws {
        // (int -1, int 64, int8 -2, text "é", bool true, principal 04, opt null, reserved)
        let bytes: [UInt8] =
            Array("DIDL".utf8) + [0x01, 0x6e, 0x7f] + [0x08, 0x7c, 0x7c, 0x77, 0x71, 0x7e, 0x68, 0x00, 0x70]
            + [0x7f, 0xc0, 0x00, 0xfe, 0x02, 0xc3, 0xa9, 0x01, 0x01, 0x01, 0x04, 0x00]
        let m = try CandidDecoder.decode(bytes)
        #expect(
            m.values == [
                .int(negative: true, CandidNat(1)), .int(negative: false, CandidNat(64)), .int8(-2), .text("é"),
                .bool(true), .principal(.anonymous), .opt(nil), .reserved,
            ])
    }

    @Test(arguments: [
        "", "4449444d", "4449444c", "4449444c00", "4449444c0001", "4449444c00017e02", "4449444c0001710261",
        "4449444c000171028080", "4449444c00016f",
        "4449444c01 6c02 0171 0071 010000"
            .replacingOccurrences(of: " ", with: ""),
        "4449444c01 6d 05 0100 00".replacingOccurrences(of: " ", with: ""),
        "4449444c0001 6e".replacingOccurrences(of: " ", with: ""), "4449444c00017dff", "4449444c000168000104",
        "4449444c000171 00 00".replacingOccurrences(of: " ", with: ""),
    ])
    func malformedIsRefused(_ hex: String) throws {
        #expect(throws: ICPCodecError.self) { try CandidDecoder.decode(try Hex.decode(hex, prefix: .forbidden)) }
    }

    /// Worst cases for work: zero-sized elements with huge counts, nested vectors of them, and
    /// recursive types without bytes. Each is refused within the work bound (values counted).
    @Test(arguments: [
        // vec null, 2^32 − 1 elements (5 bytes of count, no element bytes)
        "4449444c016d7f0100ffffffff0f",
        // vec record {} with 2^35 elements
        "4449444c026d016c00010080808080800100".replacingOccurrences(of: "0100", with: "0100", options: .anchored),
        // vec vec reserved: 10^6 outer, each inner 10^6
        "4449444c026d016d7001" + "00" + "c0843d" + String(repeating: "c0843d", count: 64),
        // vec vec null: outer with a huge count, every inner vector 127 nulls (one byte each)
        "4449444c026d016d7f0100ffffffff0f" + String(repeating: "7f", count: 4096),
    ])
    func workBound(_ hex: String) throws {
        let bytes = try Hex.decode(hex, prefix: .forbidden)
        var decoder = CandidDecoder(bytes)
        #expect(throws: ICPCodecError.self) { try decoder.decodeMessage() }
        let limits = CandidDecoder.Limits.default
        #expect(decoder.work <= limits.workPerByte * bytes.count + limits.baseWork)
    }

    @Test func recursiveTypesStopAtDepth() throws {
        // type 0 = record { 0: type 0 }: no finite value; must stop, not recurse forever.
        let selfRecord = try Hex.decode(
            "4449444c016c01000001 00".replacingOccurrences(of: " ", with: ""), prefix: .forbidden)
        #expect(throws: ICPCodecError(.limitExceeded, "")) { try CandidDecoder.decode(selfRecord) }
        // type 0 = opt type 0, nested 100 deep.
        let deepOpt =
            try Hex.decode("4449444c016e00010" + "0", prefix: .forbidden) + [UInt8](repeating: 1, count: 100) + [0]
        #expect(throws: ICPCodecError(.limitExceeded, "")) { try CandidDecoder.decode(deepOpt) }
        // 40 deep is fine.
        let okOpt = try Hex.decode("4449444c016e000100", prefix: .forbidden) + [UInt8](repeating: 1, count: 40) + [0]
        #expect(throws: Never.self) { try CandidDecoder.decode(okOpt) }
    }

    /// A legitimate large message decodes and its work stays proportional to its size.
    @Test func workOnLargeValidInput() throws {
        // vec nat64 with 10 000 elements.
        let count = 10_000
        let bytes =
            Array("DIDL".utf8) + [0x01, 0x6d, 0x78, 0x01, 0x00] + CandidTests.leb(String(count))
            + [UInt8](repeating: 7, count: 8 * count)
        var decoder = CandidDecoder(bytes)
        let m = try decoder.decodeMessage()
        guard case .vec(let items) = m.values.first else {
            Issue.record("not a vec")
            return
        }
        #expect(items.count == count)
        #expect(decoder.work == count + 2)
    }
}

/// Seeded mutation fuzzing of the Candid and CBOR decoders: byte flips, insertions, deletions and
/// truncations of real messages never trap, and every refusal is an `ICPCodecError` within the work
/// bound.
@Suite struct DecoderFuzzTests {
    /// A small deterministic generator (reproducible failures).
    typealias SplitMix64 = SigilTesting.SplitMix64

    static func mutate(_ input: [UInt8], _ rng: inout SplitMix64) -> [UInt8] {
        var bytes = input
        for _ in 0...rng.below(4) {
            switch rng.below(5) {
            case 0 where !bytes.isEmpty: bytes[rng.below(bytes.count)] ^= UInt8(1 << rng.below(8))
            case 1 where !bytes.isEmpty: bytes[rng.below(bytes.count)] = UInt8(truncatingIfNeeded: rng.next())
            case 2: bytes.insert(UInt8(truncatingIfNeeded: rng.next()), at: rng.below(bytes.count + 1))
            case 3 where !bytes.isEmpty: bytes.remove(at: rng.below(bytes.count))
            default: bytes = Array(bytes.prefix(rng.below(bytes.count + 1)))
            }
        }
        return bytes
    }

    @Test func candidMutations() throws {
        var rng = SplitMix64(state: 20_261_125)
        let seeds = try CandidTests.calls.map(CandidTests.bytes)
        #expect(seeds.count == 11)
        var decoded = 0
        for i in 0..<20_000 {
            let input = Self.mutate(seeds[i % seeds.count], &rng)
            var decoder = CandidDecoder(input)
            do {
                _ = try decoder.decodeMessage()
                decoded += 1
            } catch {
                #expect(ICPCodecError.Code.allCases.contains(error.code))
            }
            #expect(decoder.work <= 16 * input.count + 1024)
            _ = RenderedCall.render(canister: .anonymous, method: "icrc1_transfer", arg: input)
        }
        #expect(decoded > 0)  // some mutations (e.g. of values only) still decode
    }

    @Test func cborMutations() throws {
        var rng = SplitMix64(state: 7)
        let seeds = [
            try Vectors.hex(Vectors.file["signedEnvelope"]?["envelope"]),
            try Vectors.base64(Vectors.file["icrc49Example"]?["contentMap"]),
            try Vectors.base64(Vectors.file["icrc49Example"]?["certificate"]),
        ]
        for i in 0..<20_000 {
            let input = Self.mutate(seeds[i % seeds.count], &rng)
            var decoder = CBORDecoder(input)
            if let value = try? decoder.decodeAll() {
                _ = try? ICPRequestContent(cbor: value)
                _ = try? ICPEnvelope(cborBytes: input)
            }
            #expect(decoder.work <= input.count)
        }
    }
}
