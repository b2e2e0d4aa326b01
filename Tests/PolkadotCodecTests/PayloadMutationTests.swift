import SigilTesting
import Testing

@testable import PolkadotCodec

/// Random `assetId` bytes: refused with a ``PolkadotCodecError`` or resolved exactly — never a
/// crash or a hang. Deterministic seeds. (Corrupted whole payloads, through SignerCore's summary
/// as well, are SignerCoreTests' `PayloadMutationTests`.)
@Suite struct PayloadMutationTests {
    typealias Rng = SplitMix64

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
