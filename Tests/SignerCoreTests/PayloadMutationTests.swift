import Foundation
import ScaleCodec
import SigilTesting
import Testing

@testable import SignerCore

/// Truncated and corrupted `SignerPayloadJSON`: refused with a ``SignerError`` or accepted and
/// built — never a crash or a hang. Deterministic seeds.
@Suite struct PayloadMutationTests {
    typealias Rng = SplitMix64

    static let alphabet = Array("0123456789abcdefx\"{}[],:-. nulltrue".utf8)

    @Test func corruptedPayloadJSONIsRefusedOrBuiltNeverCrashes() throws {
        let md = try PayloadResources.metadata("asset-hub-polkadot-v15.scale")
        let seeds = SigningPayloadVectorTests.valid.map(\.json) + SigningPayloadVectorTests.invalid.map(\.json)
        var rng = Rng(seed: 2024)
        var refused = 0
        var built = 0
        for i in 0..<(4000 * fuzzRounds) {
            var b = seeds[i % seeds.count]
            switch rng.next() % 4 {
            case 0: b.removeLast(Int(rng.next() % UInt64(b.count)))
            case 1:
                for _ in 0..<(1 + Int(rng.next() % 3)) {
                    b[Int(rng.next() % UInt64(b.count))] = Self.alphabet[Int(rng.next() % UInt64(Self.alphabet.count))]
                }
            case 2:
                b.insert(
                    Self.alphabet[Int(rng.next() % UInt64(Self.alphabet.count))], at: Int(rng.next() % UInt64(b.count)))
            default: b.remove(at: Int(rng.next() % UInt64(b.count)))
            }
            do {
                let p = try SignerPayload(json: b)
                let s = try SigningPayload(payload: p, metadata: i % 2 == 0 ? md : nil)
                _ = PayloadSummary(payload: p, signing: s, metadata: i % 2 == 0 ? md : nil).text
                built += 1
            } catch is SignerError {
                refused += 1
            }
        }
        #expect(refused > 0 && built > 0)
    }

    @Test func randomAssetIdsAreRefusedOrResolvedExactly() throws {
        let md = try PayloadResources.metadata("asset-hub-polkadot-v15.scale")
        var rng = Rng(seed: 7)
        for resolver in [AssetIdResolver(metadata: md), AssetIdResolver(metadata: nil)] {
            for _ in 0..<(3000 * fuzzRounds) {
                let n = Int(rng.next() % 12)
                let bytes = (0..<n).map { _ in UInt8(truncatingIfNeeded: rng.next() % 6) }
                if let r = try? resolver.resolve(bytes) {
                    #expect(r.optionBytes.first == 0 || r.optionBytes.first == 1)
                }
            }
        }
    }
}

/// How many times more mutations to run than the default: `SIGIL_FUZZ_ROUNDS` (1…1000), set by
/// `scripts/test.d/35-fuzz-scale.sh` for a longer bounded run.
let fuzzRounds: Int = {
    let text = ProcessInfo.processInfo.environment["SIGIL_FUZZ_ROUNDS"] ?? "1"
    return min(max(Int(text) ?? 1, 1), 1000)
}()
