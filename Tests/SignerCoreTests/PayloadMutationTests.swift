import Foundation
import ScaleCodec
import SigilTesting
import Testing

@testable import SignerCore

/// Truncated and corrupted `SignerPayloadJSON` through SignerCore's entry point (parse, rebuild,
/// summary): refused with a ``SignerError`` or accepted and summarised — never a crash or a hang.
/// Deterministic seeds. (The codec's own mutation tests are in PolkadotCodecTests.)
@Suite struct PayloadMutationTests {
    typealias Rng = SplitMix64

    static let alphabet = Array("0123456789abcdefx\"{}[],:-. nulltrue".utf8)

    /// Every payload of `payloads.json`, valid and invalid, as JSON bytes.
    static func seeds() throws -> [[UInt8]] {
        let file = try PayloadResources.json("payloads.json")
        return try ["vectors", "invalid"].flatMap { key in
            try (file[key] as? [[String: Any]] ?? []).compactMap { $0["payload"] }.map(PayloadResources.payloadJSON)
        }
    }

    @Test func corruptedPayloadJSONIsRefusedOrBuiltNeverCrashes() throws {
        let md = try PayloadResources.metadata("asset-hub-polkadot-v15.scale")
        let seeds = try Self.seeds()
        #expect(seeds.count == 38)
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
                _ = try PreparedPayload(json: b, metadata: i % 2 == 0 ? md : nil).summary.text
                built += 1
            } catch is SignerError {
                refused += 1
            }
        }
        #expect(refused > 0 && built > 0)
    }
}
