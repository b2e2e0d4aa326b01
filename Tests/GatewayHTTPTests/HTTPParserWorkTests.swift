import Testing

@testable import GatewayHTTP

/// The worst shapes at the limits cost a bounded number of steps per byte (bytes examined or
/// copied, counted by the parser; not timed), whether the bytes arrive at once or one at a time.
@Suite struct HTTPParserWorkTests {
    static let limits = HTTPLimits()

    static func shape(_ name: String) -> [UInt8] {
        switch name {
        case "long request line":
            return Array(
                ("GET /" + String(repeating: "a", count: limits.maxRequestLineBytes - 20) + " HTTP/1.1\r\n").utf8)
                + Array("Host: a\r\n\r\n".utf8)
        case "headers at the limit":
            let line = "X-A: " + String(repeating: "b", count: 240) + "\r\n"
            return Array(("POST / HTTP/1.1\r\nHost: a\r\n" + String(repeating: line, count: 60) + "\r\n").utf8)
        case "one-byte chunks":
            let chunks = String(repeating: "1\r\na\r\n", count: limits.maxBodyBytes - 1)
            return Array(
                ("POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n" + chunks + "0\r\n\r\n").utf8)
        case "pipelined requests":
            return Array(String(repeating: "GET / HTTP/1.1\r\nHost: a\r\n\r\n", count: 20_000).utf8)
        default:  // an unterminated line of junk up to the limit
            return Array(String(repeating: "x", count: limits.maxRequestLineBytes + 100).utf8)
        }
    }

    @Test(arguments: ["long request line", "headers at the limit", "one-byte chunks", "pipelined requests", "junk"])
    func workIsLinearInTheBytes(shape: String) {
        let bytes = Self.shape(shape)
        for byteAtATime in [false, true] {
            var parser = HTTPRequestParser(limits: Self.limits)
            var messages = 0
            var failed = false
            func drain() {
                do {
                    while try parser.nextMessage() != nil { messages += 1 }
                } catch {
                    failed = true
                }
            }
            if byteAtATime {
                for byte in bytes where !failed {
                    parser.feed(CollectionOfOne(byte))
                    drain()
                }
            } else {
                parser.feed(bytes)
                drain()
            }
            #expect(shape == "junk" ? failed : messages > 0, "\(shape)")
            #expect(
                parser.steps <= 2 * bytes.count + 16,
                "\(shape), byte at a time: \(byteAtATime): \(parser.steps) steps for \(bytes.count) bytes")
        }
    }
}
