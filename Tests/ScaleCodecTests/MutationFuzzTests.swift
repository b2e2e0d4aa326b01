import Foundation
import Primitives
import SigilTesting
import Testing

@testable import ScaleCodec

/// Truncated and corrupted metadata and calls: every input either decodes or throws a
/// ``ScaleError`` — no crash, no hang, no huge allocation. Deterministic seeds; bounded counts.
@Suite struct MutationFuzzTests {
    static func mutate(_ bytes: [UInt8], _ rng: inout SeededRandom) -> [UInt8] {
        var b = bytes
        guard !b.isEmpty else { return [UInt8(truncatingIfNeeded: rng.next())] }
        switch rng.next() % 6 {
        case 0: b.removeLast(Int(rng.next() % UInt64(b.count)))  // truncate
        case 1:  // flip a few bytes
            for _ in 0..<(1 + Int(rng.next() % 4)) {
                b[Int(rng.next() % UInt64(b.count))] ^= UInt8(truncatingIfNeeded: rng.next() | 1)
            }
        case 2:  // plant a 4 GB length prefix
            let at = Int(rng.next() % UInt64(b.count))
            b.replaceSubrange(at..<min(at + 5, b.count), with: [0x03, 0xFF, 0xFF, 0xFF, 0xFF])
        case 3: b.insert(UInt8(truncatingIfNeeded: rng.next()), at: Int(rng.next() % UInt64(b.count)))  // insert
        case 4: b.remove(at: Int(rng.next() % UInt64(b.count)))  // delete
        default: b += [UInt8(truncatingIfNeeded: rng.next())]  // trailing byte
        }
        return b
    }

    // A hang fails the test through the time limit (a guard, not a performance assertion).
    @Test(.timeLimit(.minutes(5))) func corruptedMetadataNeverCrashesOrHangs() throws {
        let original = try TestResources.data("polkadot-v15.scale")
        var rng = SeededRandom(seed: 42)
        var accepted = 0
        for _ in 0..<(40 * fuzzRounds) {
            let m = Self.mutate(original, &rng)
            do {
                let md = try RuntimeMetadata(bytes: m)
                // anything that decodes must re-encode to exactly the input
                #expect(md.encoded == m)
                accepted += 1
            } catch is ScaleError {}
        }
        #expect(accepted < 40)
    }

    @Test(arguments: [0, 1, 4, 5, 100, 1000, 100_000, 467_000])
    func truncatedMetadataIsRefused(length: Int) throws {
        let original = try TestResources.data("polkadot-v15.scale")
        #expect(throws: ScaleError.self) { try RuntimeMetadata(bytes: Array(original.prefix(length))) }
    }

    @Test func metadataWithAnUnsupportedVersionOrMagicIsRefused() throws {
        var b = try TestResources.data("polkadot-v15.scale")
        b[4] = 13
        #expect(throws: ScaleError(.unsupportedVersion, "")) { try RuntimeMetadata(bytes: b) }
        b[0] = 0
        #expect(throws: ScaleError(.invalidMagic, "")) { try RuntimeMetadata(bytes: b) }
    }

    @Test func aFourGigabyteTypeCountIsRefusedBeforeAllocating() throws {
        // `.lengthTooLarge` is thrown by the length check that runs before any allocation
        // (ScaleReader compares the prefix with the bytes left), so the refusal costs nothing.
        let b: [UInt8] = RuntimeMetadata.magic + [15, 0x03, 0xFF, 0xFF, 0xFF, 0xFF, 0, 0, 0]
        #expect(throws: ScaleError(.lengthTooLarge, "")) { try RuntimeMetadata(bytes: b) }
    }

    @Test(arguments: ["polkadot-v15.scale", "asset-hub-polkadot-v15.scale"])
    func corruptedCallsDecodeExactlyOrAreRefused(file: String) throws {
        let md = try CallVectorTests.metadataCache.get(file)
        let decoder = ValueDecoder(metadata: md)
        let encoder = ValueEncoder(metadata: md)
        let callType = try #require(md.runtimeCallType)
        var gen = ValueGenerator(registry: md.registry, callType: callType, seed: 7)
        var rng = SeededRandom(seed: 99)
        var decodedCount = 0
        for _ in 0..<(3000 * fuzzRounds) {
            guard let call = try? gen.bytes(for: callType) else { continue }
            let m = Self.mutate(call, &rng)
            do {
                let d = try decoder.decodeCall(m)
                // the decoder is exact: whatever it accepts re-encodes to the same bytes
                #expect(try encoder.encode(call: d) == m)
                decodedCount += 1
            } catch is ScaleError {}
        }
        #expect(decodedCount > 0)
    }

    @Test func deeplyNestedCallsHitTheRecursionLimitInsteadOfTheStack() throws {
        let md = try CallVectorTests.metadataCache.get("polkadot-v15.scale")
        // Utility.as_derivative(index: u16, call: Box<RuntimeCall>) = 0x1a 0x01, nested 500 times
        var bytes: [UInt8] = []
        for _ in 0..<500 { bytes += [0x1a, 0x01, 0x00, 0x00] }
        bytes += [0x00, 0x00, 0x00]  // System.remark(b"")
        #expect(throws: ScaleError(.recursionLimit, "")) { try ValueDecoder(metadata: md).decodeCall(bytes) }
    }

    @Test func registryIdsOutOfRangeAreRefused() {
        let reg = PortableRegistry(types: [PortableType(id: 0, type: TypeInfo(def: .sequence(99)))])
        #expect(throws: ScaleError(.unknownType, "")) { try ValueDecoder(registry: reg).decode([1, 0], as: 0) }
        #expect(throws: ScaleError(.unknownType, "")) { try ValueDecoder(registry: reg).decode([0], as: 5) }
    }

    @Test func aHugeArrayOfZeroSizedElementsIsRefusedWithoutLooping() throws {
        let reg = PortableRegistry(types: [
            PortableType(id: 0, type: TypeInfo(def: .tuple([]))),
            PortableType(id: 1, type: TypeInfo(def: .array(length: UInt32.max, element: 0))),
            PortableType(id: 2, type: TypeInfo(def: .sequence(0))),
        ])
        #expect(throws: ScaleError.self) { try ValueDecoder(registry: reg).decode([], as: 1) }
        #expect(throws: ScaleError(.lengthTooLarge, "")) {
            try ValueDecoder(registry: reg).decode([0x03, 0xFF, 0xFF, 0xFF, 0xFF], as: 2)
        }
    }

    // `.tooManyValues` shows the visit budget (2^20 values) stopped the walk; the time limit only
    // guards against a hang.
    @Test(.timeLimit(.minutes(5)))
    func aRegistryFanningOutOverZeroSizedTypesIsRefusedInsteadOfTakingExponentialTime() throws {
        // Type i is a struct of two fields of type i + 1; type 60 is `()`. Decoding type 0 from no
        // bytes would visit 2^61 values.
        var types: [PortableType] = []
        for i in UInt32(0)..<60 {
            let fields = [
                TypeField(name: "a", type: i + 1, typeName: nil), TypeField(name: "b", type: i + 1, typeName: nil),
            ]
            types.append(PortableType(id: i, type: TypeInfo(def: .composite(fields))))
        }
        types.append(PortableType(id: 60, type: TypeInfo(def: .tuple([]))))
        // Nested arrays of `()`: 65536 × 65536 elements, each level under the zero-sized-array cap.
        types.append(PortableType(id: 61, type: TypeInfo(def: .array(length: 1 << 16, element: 60))))
        types.append(PortableType(id: 62, type: TypeInfo(def: .array(length: 1 << 16, element: 61))))
        // An array of the fan-out type: `TypeSizer` must answer without walking all 2^61 paths.
        types.append(PortableType(id: 63, type: TypeInfo(def: .array(length: 2, element: 0))))
        let decoder = ValueDecoder(registry: PortableRegistry(types: types))
        #expect(throws: ScaleError(.tooManyValues, "")) { try decoder.decode([], as: 0) }
        #expect(throws: ScaleError(.tooManyValues, "")) { try decoder.decode([], as: 62) }
        #expect(throws: ScaleError(.tooManyValues, "")) { try decoder.decode([], as: 63) }
        #expect((try? TypeSizer(registry: decoder.registry).isZeroSized(0)) == true)
        // Within the budget, the same types still decode.
        #expect(try decoder.decode([], as: 50) != decoder.decode([], as: 60))
        let unit = ScaleValue.sequence([])
        #expect(try decoder.decode([], as: 61) == ScaleValue.sequence(Array(repeating: unit, count: 1 << 16)))
    }

    @Test func aSelfReferentialZeroSizedTypeHitsTheRecursionLimit() throws {
        let reg = PortableRegistry(types: [
            PortableType(id: 0, type: TypeInfo(def: .composite([TypeField(name: "x", type: 0, typeName: nil)])))
        ])
        #expect(throws: ScaleError(.recursionLimit, "")) { try ValueDecoder(registry: reg).decode([], as: 0) }
        #expect(try TypeSizer(registry: reg).isZeroSized(0) == false)
    }
}
