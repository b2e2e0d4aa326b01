import Glibc
import Primitives
import SigilTesting
import Testing

@testable import GatewayHTTP

/// A seeded random mutator over the parser (docs/reference/http-server.md §4 "fuzzers"). Each input is checked for
/// properties that must hold for any bytes, not only for "no crash":
///  1. the outcome does not depend on how the bytes are split across `feed` calls;
///  2. every accepted message respects the limits and framing rules (one Host on 1.1, body length
///     equals Content-Length, never both Content-Length and Transfer-Encoding);
///  3. a canonical re-serialisation of each accepted message parses back to the same message.
///
/// `swift test` runs a short, fixed number of iterations. `scripts/test.d/30-http-parser-fuzz.sh`
/// runs it longer via `SIGIL_FUZZ_SECONDS`; `SIGIL_FUZZ_SEED` replays one run. A failing input is
/// printed as hex: add it to `HTTPRequestParserFuzzTests.regressions` so it stays covered.
@Suite struct HTTPRequestParserFuzzTests {
    /// Inputs that once broke a property (kept forever), plus hand-picked edge cases.
    static let regressions: [[UInt8]] = [
        Array("POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r".utf8),
        Array("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 1\r\n\r\n".utf8),
        Array("\r\n\r\n\r\n".utf8),
        Array("GET / HTTP/1.1\r\nHost: a\r\n\r\n\r".utf8),
        Array("POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n1\r\nx\r".utf8),
        Array("POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n1\r\nxx".utf8),
        [
            0x47, 0x45, 0x54, 0x20, 0x2F, 0x20, 0x48, 0x54, 0x54, 0x50, 0x2F, 0x31, 0x2E, 0x31, 0x0D, 0x0A, 0xFF, 0x3A,
            0x0D, 0x0A,
        ],
        Array("GET / HTTP/1.1\r\nHost: a\r\nX: \u{FF}\r\n\r\n".utf8),
    ]

    static let seeds: [String] = [
        "GET /bridge.js HTTP/1.1\r\nHost: 127.0.0.1:9715\r\nAccept-Encoding: gzip\r\nIf-None-Match: \"a\"\r\n\r\n",
        "POST /rpc HTTP/1.1\r\nHost: a\r\nContent-Type: application/json\r\nContent-Length: 13\r\n\r\n{\"id\":\"1\"}\r\n",
        "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n5;x=y\r\nhello\r\n0\r\nT: 1\r\n\r\n",
        "GET / HTTP/1.0\r\nConnection: keep-alive\r\n\r\nGET /2 HTTP/1.1\r\nHost: b\r\nConnection: close\r\n\r\n",
        "OPTIONS * HTTP/1.1\r\nHost: a\r\nOrigin: https://x\r\nAccess-Control-Request-Private-Network: true\r\n\r\n",
        "POST / HTTP/1.1\r\nHost: a\r\nExpect: 100-continue\r\nContent-Length: 2\r\n\r\nok",
        "GET http://a/x?y=1 HTTP/1.1\r\nHost: a\r\n\r\n",
    ]

    static let interesting: [UInt8] = [13, 10, 32, 9, 0, 58, 59, 44, 48, 49, 102, 70, 120, 43, 45, 0x7F, 0x80, 0xFF]
    static let tokens: [[UInt8]] = [
        "\r\n", "Content-Length: ", "Transfer-Encoding: chunked", "Host: a", "\r\n\r\n", "0\r\n\r\n", " HTTP/1.1",
        "Connection: close", "ffffffff", "Expect: 100-continue", ":", " ",
    ].map { Array($0.utf8) }

    /// SplitMix64: small, seeded, reproducible.
    typealias Random = SplitMix64

    static func mutate(_ input: [UInt8], _ random: inout Random, corpus: [[UInt8]]) -> [UInt8] {
        var bytes = input
        for _ in 0...random.below(4) {
            let at = random.below(bytes.count + 1)
            switch random.below(8) {
            case 0 where !bytes.isEmpty: bytes[min(at, bytes.count - 1)] ^= UInt8(1 << random.below(8))
            case 1: bytes.insert(interesting[random.below(interesting.count)], at: at)
            case 2 where !bytes.isEmpty: bytes.remove(at: min(at, bytes.count - 1))
            case 3: bytes.insert(contentsOf: tokens[random.below(tokens.count)], at: at)
            case 4 where at < bytes.count:
                let end = min(bytes.count, at + 1 + random.below(32))
                bytes.insert(contentsOf: bytes[at..<end], at: at)
            case 5: bytes = Array(bytes.prefix(at))
            case 6:
                let other = corpus[random.below(corpus.count)]
                bytes = Array(bytes.prefix(at)) + other.suffix(random.below(other.count + 1))
            default:
                if !bytes.isEmpty { bytes[min(at, bytes.count - 1)] = UInt8(truncatingIfNeeded: random.next()) }
            }
        }
        return Array(bytes.prefix(4096))
    }

    /// What the parser made of some bytes: messages, then either an error code or "needs more".
    struct Outcome: Equatable {
        var messages: [String] = []
        var error: String?
    }

    static let limits = HTTPLimits(maxRequestLineBytes: 256, maxHeaderBytes: 512, maxHeaderCount: 12, maxBodyBytes: 300)

    static func summary(_ message: HTTPRequestParser.Message) -> String {
        let r = message.request
        let fields = r.headers.fields.map { "\($0.name)=\($0.value)" }.joined(separator: "|")
        return "\(r.method) \(r.target) \(r.version) ka=\(message.keepAlive) [\(fields)] \(r.body)"
    }

    static func run(_ bytes: [UInt8], splits: [Int]) -> (Outcome, [HTTPRequestParser.Message]) {
        var parser = HTTPRequestParser(limits: limits)
        var outcome = Outcome()
        var messages: [HTTPRequestParser.Message] = []
        var start = 0
        for end in splits + [bytes.count] where end >= start {
            parser.feed(bytes[start..<end])
            start = end
            do {
                while let message = try parser.nextMessage() {
                    messages.append(message)
                    outcome.messages.append(summary(message))
                }
            } catch {
                outcome.error = "\(error.code)"
                return (outcome, messages)
            }
        }
        return (outcome, messages)
    }

    /// Checks every property; returns a failure description or nil.
    static func check(_ bytes: [UInt8], _ random: inout Random) -> String? {
        let (whole, messages) = run(bytes, splits: [])
        var splits: [Int] = []
        if !bytes.isEmpty {
            for _ in 0..<random.below(6) { splits.append(random.below(bytes.count)) }
        }
        let (pieces, _) = run(bytes, splits: splits.sorted())
        if pieces != whole { return "split-dependence at \(splits.sorted()): \(whole) vs \(pieces)" }
        let (bytewise, _) = run(bytes, splits: Array(0..<bytes.count))
        if bytewise != whole { return "byte-at-a-time differs: \(whole) vs \(bytewise)" }
        for message in messages {
            let request = message.request
            let headers = request.headers
            if request.body.count > limits.maxBodyBytes { return "body over limit" }
            if headers.count > limits.maxHeaderCount { return "too many headers" }
            if request.version == .http11 && headers.values("Host").count != 1 {
                return "1.1 without exactly one Host"
            }
            if headers.contains("Content-Length") && headers.contains("Transfer-Encoding") {
                return "CL and TE accepted"
            }
            if headers.values("Content-Length").count > 1 { return "several Content-Length accepted" }
            if headers.values("Host").count > 1 { return "several Host accepted" }
            if request.version == .http10 && headers.contains("Transfer-Encoding") { return "TE on HTTP/1.0 accepted" }
            let codings = headers.values("Transfer-Encoding").flatMap { $0.split(separator: ",") }
                .map { $0.trimmingOWS() }.filter { !$0.isEmpty }
            if !codings.isEmpty && (codings.count != 1 || !codings[0].asciiCaseInsensitiveEquals("chunked")) {
                return "transfer codings other than a single chunked accepted"
            }
            if let length = headers["Content-Length"], Int(length) != request.body.count { return "body length != CL" }
            for field in headers.fields {
                if !field.name.utf8.allSatisfy(ByteClass.isToken) { return "non-token name accepted" }
                if field.value.utf8.contains(where: { $0 == 13 || $0 == 10 || $0 == 0 }) { return "CR/LF/NUL in value" }
            }
            // Canonical re-serialisation parses back to the same message.
            var canonical = "\(request.method) \(request.target) \(request.version)\r\n"
            for field in headers.fields
            where !field.name.asciiCaseInsensitiveEquals("Transfer-Encoding")
                && !field.name.asciiCaseInsensitiveEquals("Content-Length")
            {
                canonical += "\(field.name): \(field.value)\r\n"
            }
            if !request.body.isEmpty || headers.contains("Content-Length") {
                canonical += "Content-Length: \(request.body.count)\r\n"
            }
            canonical += "\r\n"
            var reparsed = HTTPRequestParser(limits: HTTPLimits(maxBodyBytes: limits.maxBodyBytes))
            reparsed.feed(Array(canonical.utf8) + request.body)
            guard let again = try? reparsed.nextMessage() else {
                return "canonical form rejected: \(canonical.debugDescription)"
            }
            if again.request.body != request.body || again.request.target != request.target
                || again.request.method != request.method || again.keepAlive != message.keepAlive
            {
                return "canonical form differs"
            }
        }
        return nil
    }

    static func hex(_ bytes: [UInt8]) -> String {
        bytes.map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined()
    }

    @Test func regressionInputsKeepEveryProperty() {
        var random = Random(state: 1)
        for (index, input) in Self.regressions.enumerated() {
            #expect(Self.check(input, &random) == nil, "regression \(index)")
        }
        for (index, seed) in Self.seeds.enumerated() {
            #expect(Self.check(Array(seed.utf8), &random) == nil, "seed \(index)")
        }
    }

    @Test func mutatedInputsKeepEveryProperty() {
        let environment = { (name: String) in getenv(name).flatMap { Int(String(cString: $0)) } }
        let seconds = environment("SIGIL_FUZZ_SECONDS")
        let seed = UInt64(environment("SIGIL_FUZZ_SEED") ?? 0x5157_11)
        let iterations = seconds == nil ? 1500 : Int.max
        let deadline = ContinuousClock.now + .seconds(seconds ?? 0)
        var random = Random(state: seed)
        let corpus = Self.seeds.map { Array($0.utf8) } + Self.regressions
        var failures = 0
        var count = 0
        var accepted = 0
        while count < iterations {
            if seconds != nil && count % 64 == 0 && ContinuousClock.now > deadline { break }
            count += 1
            let base = corpus[random.below(corpus.count)]
            let input = Self.mutate(base, &random, corpus: corpus)
            if Self.run(input, splits: []).0.messages.count > 0 { accepted += 1 }
            if let failure = Self.check(input, &random) {
                failures += 1
                Issue.record("fuzz input \(Self.hex(input)) (seed \(seed), iteration \(count)): \(failure)")
                if failures >= 5 { break }
            }
        }
        if seconds != nil {
            print("parser fuzz: \(count) inputs (\(accepted) yielding requests), seed \(seed), \(failures) failures")
        }
    }
}
