import Foundation

/// How many times more mutations to run than the default: `SIGIL_FUZZ_ROUNDS` (1…1000), set by
/// `scripts/test.d/35-fuzz-scale.sh` for a longer bounded run. Read by every mutation test
/// (ScaleCodecTests, PolkadotCodecTests, SignerCoreTests).
public let fuzzRounds: Int = {
    let text = ProcessInfo.processInfo.environment["SIGIL_FUZZ_ROUNDS"] ?? "1"
    return min(max(Int(text) ?? 1, 1), 1000)
}()
