// metadata-hash-bench: timings for scripts/bench-metadata-hash, and a BLAKE3 filter for the
// interop step scripts/test.d/12-interop-blake3.sh. Synchronous, links only the modules it times.
//
//   MetadataHashBench time FILE [--repeat N]
//       FILE: runtime metadata v15 (.scale), hashed with its own System.Version and
//       System.SS58Prefix, 10 decimals, "DOT". Prints one line of milliseconds:
//       "decode <ms> convert <ms> tree <ms> digest <ms> cold <ms> warm <ms> cached <µs> leaves <n>
//        spec <name> <version> prefix <n> hash <hex>"
//       cold = decode + convert + tree + digest, the first time in this process (no warm-up);
//       warm = the same again in the same process (best of 5; what an uncached second call costs);
//       cached = mean of N calls of MetadataHashCache.metadataHash on the same key (a hit).
//   MetadataHashBench blake3 [--length L]
//       Reads lines of hex (empty line = empty input) on stdin, prints BLAKE3 of each as hex
//       (L output bytes, default 32).
import Foundation
import MetadataHash
import Primitives
import ScaleCodec
import SigningKeys

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data(("MetadataHashBench: " + message + "\n").utf8))
    exit(2)
}

func milliseconds(_ d: Duration) -> Double {
    let (s, atto) = d.components
    return Double(s) * 1000 + Double(atto) / 1e15
}

let arguments = Array(CommandLine.arguments.dropFirst())
switch arguments.first {
case "time":
    guard arguments.count >= 2 else { fail("usage: MetadataHashBench time FILE [--repeat N]") }
    var repeatCount = 1000
    if arguments.count == 4, arguments[2] == "--repeat", let n = Int(arguments[3]), n > 0 { repeatCount = n }
    guard let data = FileManager.default.contents(atPath: arguments[1]) else { fail("cannot read \(arguments[1])") }
    let clock = ContinuousClock()
    do {
        let t0 = clock.now
        let metadata = try RuntimeMetadata(bytes: [UInt8](data))
        let t1 = clock.now
        let info = try TypeInformation(metadata: metadata)
        let t2 = clock.now
        let roots = MetadataRoots(info)
        let t3 = clock.now
        let extra = try ExtraInfo(metadata: metadata, decimals: 10, tokenSymbol: "DOT")
        let digest = MetadataDigest(roots: roots, extra: extra).hash
        let t4 = clock.now
        var warm = Duration.seconds(3600)
        for _ in 0..<5 {
            let w0 = clock.now
            let again = try MetadataDigest(metadata: try RuntimeMetadata(bytes: [UInt8](data)), extra: extra).hash
            let elapsed = clock.now - w0
            guard again == digest else { fail("a second computation differs") }
            warm = min(warm, elapsed)
        }
        let cache = MetadataHashCache()
        let genesis = [UInt8](repeating: 0x91, count: 32)
        let first = try cache.metadataHash(genesisHash: genesis, extra: extra) { metadata }
        guard first == digest else { fail("the cache's hash differs from the direct one") }
        let t5 = clock.now
        for _ in 0..<repeatCount {
            guard try cache.metadataHash(genesisHash: genesis, extra: extra, metadata: { metadata }) == digest else {
                fail("a cached hash differs")
            }
        }
        let t6 = clock.now
        let cachedMicros = milliseconds(t6 - t5) * 1000 / Double(repeatCount)
        print(
            String(
                format:
                    "decode %.2f convert %.2f tree %.2f digest %.3f cold %.2f warm %.2f cached %.2f leaves %d spec %@ %u prefix %u hash %@",
                milliseconds(t1 - t0), milliseconds(t2 - t1), milliseconds(t3 - t2), milliseconds(t4 - t3),
                milliseconds(t4 - t0), milliseconds(warm), cachedMicros, info.leaves.count, extra.specName,
                extra.specVersion, UInt32(extra.base58Prefix),
                Hex.encode(digest)))
    } catch {
        fail("\(error)")
    }
case "blake3":
    var length = 32
    if arguments.count == 3, arguments[1] == "--length", let n = Int(arguments[2]), (1...4096).contains(n) {
        length = n
    } else if arguments.count != 1 {
        fail("usage: MetadataHashBench blake3 [--length L]")
    }
    var out = ""
    while let line = readLine(strippingNewline: true) {
        let input: [UInt8]
        do { input = line.isEmpty ? [] : try Hex.decode(line, prefix: .optional) } catch {
            fail("not hex: \(line.prefix(20))")
        }
        var state = Blake3()
        state.update(input)
        out += Hex.encode(state.finalize(outputLength: length), prefix: false) + "\n"
    }
    FileHandle.standardOutput.write(Data(out.utf8))
default:
    fail("usage: MetadataHashBench time FILE [--repeat N] | blake3 [--length L]")
}
