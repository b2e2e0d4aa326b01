import SigilTesting
import Testing

@testable import GatewayHTTP

/// `TLSSession` alone, on untrusted bytes: never traps, never yields plaintext before a handshake,
/// and stays failed once failed.
struct TLSSessionTests {
    /// A SplitMix64 stream: deterministic "random" input.
    typealias SplitMix = SplitMix64

    @Test(
        arguments: [
            Array("GET / HTTP/1.1\r\nHost: a\r\n\r\n".utf8),
            [0x16, 0x03, 0x01, 0xFF, 0xFF] + [UInt8](repeating: 0, count: 64),
            [0x17, 0x03, 0x03, 0x00, 0x10] + [UInt8](repeating: 0xAA, count: 16),
            [0x16, 0x03, 0x01, 0x00, 0x04, 0x01, 0x00, 0x00, 0x00],
        ] as [[UInt8]])
    func refusesInputThatIsNotAClientHello(input: [UInt8]) throws {
        let fixture = try TLSFixture()
        let session = try #require(TLSSession(context: fixture.context))
        var plaintext = 0
        let outcome = input.withUnsafeBytes { session.receive($0) { plaintext += $0.count } }
        guard case .failed = outcome else {
            Issue.record("expected a failure, got \(outcome)")
            return
        }
        #expect(plaintext == 0)
        #expect(session.failed)
        #expect(!session.seal(Array("late".utf8)))
        #expect(session.closeNotify().isEmpty)
        #expect(input.withUnsafeBytes { session.receive($0) { _ in } } != .open)
    }

    @Test func survivesRandomBytesInRandomChunks() throws {
        let fixture = try TLSFixture()
        var random = SplitMix(state: 7)
        for round in 0..<200 {
            let session = try #require(TLSSession(context: fixture.context))
            var plaintext = 0
            for _ in 0..<4 {
                var chunk = (0..<Int(random.next() % 700)).map { _ in UInt8(truncatingIfNeeded: random.next()) }
                // Half the rounds start like a TLS handshake record, to get past the first check.
                if round % 2 == 0 && !chunk.isEmpty { chunk[0] = 0x16 }
                _ = chunk.withUnsafeBytes { session.receive($0) { plaintext += $0.count } }
                _ = session.takeOutput()
            }
            #expect(plaintext == 0)
            #expect(!session.handshakeDone)
        }
    }
}
