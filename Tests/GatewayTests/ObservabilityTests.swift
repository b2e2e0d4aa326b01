import Foundation
import Gateway
import GatewayHTTP
import Glibc
import Logging
import Synchronization
import Testing

/// Prometheus rendering and escaping, histogram bucket math, and the JSON log line format.
struct ObservabilityTests {
    @Test(arguments: [
        ("plain", "plain"), ("a\"b", "a\\\"b"), ("back\\slash", "back\\\\slash"), ("two\nlines", "two\\nlines"),
        ("\\\"\n", "\\\\\\\"\\n"), ("ünïcode ✓", "ünïcode ✓"),
    ])
    func labelValuesAreEscapedAsTheTextFormatRequires(value: String, escaped: String) {
        #expect(PrometheusText.escapeLabelValue(value) == escaped)
    }

    @Test func helpTextEscapesBackslashAndNewlineButNotQuotes() {
        #expect(PrometheusText.escapeHelp("a \"q\" \\ b\nc") == "a \"q\" \\\\ b\\nc")
    }

    @Test(arguments: [
        (0.0, "0"), (3.0, "3"), (-2.0, "-2"), (0.25, "0.25"), (Double.infinity, "+Inf"), (-Double.infinity, "-Inf"),
        (Double.nan, "NaN"), (1e20, "1e+20"), (1795318699.183, "1795318699.183"),
    ])
    func sampleValuesAreFormattedForTheParser(value: Double, text: String) {
        #expect(PrometheusText.format(value) == text)
    }

    @Test func aFamilyRendersHelpTypeAndSamplesWithEscapedLabels() {
        var out = PrometheusText()
        out.family("x_total", .counter, help: "Things.\nCounted.")
        out.sample("x_total", [("route", "/a\"b"), ("status", "200")], UInt64(7))
        out.sample("x_total", [], 1.5)
        #expect(
            out.text
                == "# HELP x_total Things.\\nCounted.\n# TYPE x_total counter\nx_total{route=\"/a\\\"b\",status=\"200\"} 7\nx_total 1.5\n"
        )
    }

    @Test func histogramBucketsAreInclusiveAndCumulative() {
        var h = Histogram(bounds: [0.1, 1, 10])
        for value in [0.05, 0.1, 0.5, 1, 5, 100, -1] { h.observe(value) }
        let buckets = h.cumulativeBuckets
        #expect(buckets.map(\.0) == [0.1, 1, 10, .infinity])
        // le=0.1: 0.05, 0.1, -1; le=1: + 0.5, 1; le=10: + 5; +Inf: + 100.
        #expect(buckets.map(\.1) == [3, 5, 6, 7])
        #expect(h.count == 7)
        #expect(abs(h.sum - 105.65) < 1e-9)
    }

    @Test func aNaNObservationCountsOnlyInTheInfiniteBucketAndNotInTheSum() {
        var h = Histogram(bounds: [1])
        h.observe(.nan)
        h.observe(0.5)
        #expect(h.cumulativeBuckets.map(\.1) == [1, 2])
        #expect(h.sum == 0.5 && h.count == 2)
    }

    @Test func histogramBoundsDropUnsortedAndInfiniteValues() {
        #expect(Histogram(bounds: [1, 0.5, 2, .infinity, .nan, 2, 3]).bounds == [1, 2, 3])
        var empty = Histogram(bounds: [])
        empty.observe(42)
        #expect(empty.cumulativeBuckets.map(\.1) == [1])
    }

    @Test func aRenderedHistogramHasBucketsSumAndCount() {
        var h = Histogram(bounds: [0.5])
        h.observe(0.25)
        h.observe(2)
        var out = PrometheusText()
        out.histogram("d_seconds", [("route", "/x")], h)
        #expect(
            out.text
                == "d_seconds_bucket{route=\"/x\",le=\"0.5\"} 1\nd_seconds_bucket{route=\"/x\",le=\"+Inf\"} 2\n"
                + "d_seconds_sum{route=\"/x\"} 2.25\nd_seconds_count{route=\"/x\"} 2\n")
    }

    @Test func metricsBoundTheirLabelsWhateverTheRequestsWere() {
        let metrics = GatewayMetrics(latencyBounds: [0.01])
        for method in ["GET", "PROPFIND", "X-EVIL"] {
            metrics.record(
                HTTPRequestObservation(
                    server: "dapp", port: 1, requestID: 1, method: HTTPMethod(method), route: nil, status: 404,
                    duration: .milliseconds(2), bodyBytes: 0))
        }
        metrics.record(
            HTTPRequestObservation(
                server: "dapp", port: 1, requestID: 0, method: nil, route: nil, status: 400, duration: .zero,
                bodyBytes: 0))
        metrics.recordSignature(scheme: "sr25519")
        metrics.recordSignature(scheme: "made-up")
        var out = PrometheusText()
        metrics.render(into: &out)
        #expect(
            out.text.contains(
                "sigil_http_requests_total{server=\"dapp\",route=\"unmatched\",method=\"GET\",status=\"404\"} 1"))
        #expect(
            out.text.contains(
                "sigil_http_requests_total{server=\"dapp\",route=\"unmatched\",method=\"other\",status=\"404\"} 2"))
        #expect(
            out.text.contains(
                "sigil_http_requests_total{server=\"dapp\",route=\"unmatched\",method=\"none\",status=\"400\"} 1"))
        #expect(
            out.text.contains(
                "sigil_http_request_duration_seconds_bucket{server=\"dapp\",route=\"unmatched\",le=\"0.01\"} 4"))
        #expect(out.text.contains("sigil_signatures_total{scheme=\"sr25519\"} 1"))
        #expect(out.text.contains("sigil_signatures_total{scheme=\"other\"} 1"))
        #expect(out.text.contains("sigil_signatures_total{scheme=\"ethereum\"} 0"))
        #expect(!out.text.contains("PROPFIND") && !out.text.contains("made-up"))
    }

    @Test func concurrentRecordingLosesNoCount() async {
        let metrics = GatewayMetrics()
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    for _ in 0..<500 { metrics.recordSignature(scheme: "ecdsa") }
                }
            }
        }
        #expect(metrics.signatures(scheme: "ecdsa") == 4000)
    }

    @Test func aJSONLogLineIsOneObjectWithFixedFieldsFirstAndMetadataAfter() throws {
        let line = JSONLogHandler.line(
            timestamp: "2026-11-22T03:28:50.123Z", level: .info, label: "sigil.http", message: "request",
            metadata: [
                "status": .stringConvertible(200), "route": "/v1/request", "stream": .stringConvertible(false),
                "duration_ms": .stringConvertible(0.5), "message": "collides",
                "list": .array(["a", .dictionary(["k": "v"])]),
            ])
        #expect(line.hasSuffix("}\n") && line.filter { $0 == "\n" }.count == 1)
        #expect(
            line.hasPrefix(
                "{\"timestamp\":\"2026-11-22T03:28:50.123Z\",\"level\":\"info\",\"label\":\"sigil.http\",\"message\":\"request\","
            ))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        #expect(object["message"] as? String == "request")
        #expect(object["meta.message"] as? String == "collides")
        #expect(object["status"] as? Int == 200)
        #expect(object["stream"] as? Bool == false)
        #expect(object["duration_ms"] as? Double == 0.5)
        #expect(object["route"] as? String == "/v1/request")
        #expect((object["list"] as? [Any])?.count == 2)
    }

    @Test(arguments: [
        "quote \" back \\ slash", "new\nline\r\ttab", "nul \u{0} bell \u{7} del \u{7F}", "sep \u{2028}\u{2029}",
        "emoji 🔑",
    ])
    func aJSONLogLineSurvivesAnyStringAndStaysOneLine(text: String) throws {
        let line = JSONLogHandler.line(
            timestamp: "t", level: .warning, label: "l", message: text, metadata: ["value": .string(text)])
        #expect(line.dropLast().allSatisfy { $0 != "\n" && $0 != "\r" })
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        #expect(object["message"] as? String == text && object["value"] as? String == text)
        #expect(object["level"] as? String == "warning")
    }

    @Test func theHandlerMergesHandlerAndCallMetadataAndTimestampsInUTC() throws {
        let lines = LockedLines()
        var logger = Logger(label: "t") { label in JSONLogHandler(label: label, sink: { lines.append($0) }) }
        logger[metadataKey: "component"] = "x"
        logger.debug("hidden")
        logger.info("shown", metadata: ["component": "call wins", "n": "1"])
        let all = lines.all
        #expect(all.count == 1)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(all[0].utf8)) as? [String: Any])
        #expect(object["component"] as? String == "call wins" && object["n"] as? String == "1")
        let stamp = try #require(object["timestamp"] as? String)
        #expect(stamp.count == 24 && stamp.hasSuffix("Z") && stamp.dropFirst(10).hasPrefix("T"))
    }
}

/// Collects log lines from any thread.
final class LockedLines: Sendable {
    private let lines = Mutex<[String]>([])
    func append(_ line: String) { lines.withLock { $0.append(line) } }
    var all: [String] { lines.withLock { $0 } }
}

/// `TextLogHandler` writes exactly swift-log's `StreamLogHandler` line (it replaces it in
/// `sigil serve` for speed): the same events through both give the same text after the timestamp,
/// and the timestamp is what `strftime("%Y-%m-%dT%H:%M:%S%z")` makes of local time.
struct TextLogHandlerTests {
    struct LogCase: Sendable, CustomTestStringConvertible {
        let name: String
        let handlerMetadata: Logger.Metadata
        let level: Logger.Level
        let message: String
        let metadata: Logger.Metadata?
        let error: (any Error & Sendable)?
        var testDescription: String { name }
    }

    struct Failure: Error, CustomStringConvertible { var description: String { "store refused" } }

    static let cases: [LogCase] = [
        LogCase(
            name: "no metadata", handlerMetadata: [:], level: .info, message: "starting", metadata: nil, error: nil),
        LogCase(
            name: "access log", handlerMetadata: [:], level: .info, message: "request",
            metadata: [
                "request_id": "dapp-7", "server": "dapp", "port": .stringConvertible(9715), "method": "POST",
                "route": "/v1/request", "status": .stringConvertible(200), "duration_ms": .stringConvertible(0.25),
                "bytes": .stringConvertible(151), "stream": .stringConvertible(false),
            ], error: nil),
        LogCase(
            name: "handler and call metadata, call wins", handlerMetadata: ["component": "x", "kept": "h"],
            level: .warning, message: "two words", metadata: ["component": "call"], error: nil),
        LogCase(
            name: "nested values", handlerMetadata: [:], level: .error, message: "m",
            metadata: ["list": .array(["a", "b c"]), "map": .dictionary(["k": "v"])], error: nil),
        LogCase(
            name: "with an error", handlerMetadata: [:], level: .error, message: "authorization not saved",
            metadata: ["origin": "https://dapp.example"], error: Failure()),
        LogCase(
            name: "empty message", handlerMetadata: ["a": "1"], level: .critical, message: "", metadata: [:], error: nil
        ),
    ]

    final class Capture: TextOutputStream, Sendable {
        private let text = Mutex<[String]>([])
        func write(_ string: String) { text.withLock { $0.append(string) } }
        func append(_ line: String) { write(line) }
        var all: [String] { text.withLock { $0 } }
    }

    /// The line without its first field (the time).
    static func afterTimestamp(_ line: String) -> Substring {
        line.firstIndex(of: " ").map { line[line.index(after: $0)...] } ?? line[...]
    }

    @Test(arguments: cases)
    func writesTheLineStreamLogHandlerWrites(_ c: LogCase) throws {
        let ours = Capture()
        let theirs = Capture()
        var fast = Logger(label: "sigil.serve") { TextLogHandler(label: $0, metadataProvider: nil, sink: ours.append) }
        var reference = Logger(label: "sigil.serve") {
            StreamLogHandler(label: $0, stream: theirs, metadataProvider: nil)
        }
        for (key, value) in c.handlerMetadata {
            fast[metadataKey: key] = value
            reference[metadataKey: key] = value
        }
        for logger in [fast, reference] {
            if let error = c.error {
                logger.log(level: c.level, "\(c.message)", error: error, metadata: c.metadata)
            } else {
                logger.log(level: c.level, "\(c.message)", metadata: c.metadata)
            }
        }
        let line = try #require(ours.all.first)
        let expected = try #require(theirs.all.first)
        #expect(ours.all.count == 1 && theirs.all.count == 1)
        #expect(Self.afterTimestamp(line) == Self.afterTimestamp(expected))
        #expect(line.hasSuffix("\n") && line.dropLast().allSatisfy { $0 != "\n" })
    }

    @Test func levelsBelowTheThresholdAreNotWritten() {
        let lines = Capture()
        var handler = TextLogHandler(label: "l", metadataProvider: nil, sink: lines.append)
        handler.logLevel = .notice
        let logger = Logger(label: "l") { _ in handler }
        logger.info("hidden")
        logger.notice("shown")
        #expect(lines.all.count == 1 && lines.all[0].hasSuffix(" shown\n"))
    }

    @Test(arguments: [0, 951_782_400, 1_700_000_000, 1_719_792_000, 1_735_689_599, 4_102_444_800])
    func theTimestampIsStrftimeOfLocalTime(seconds: Int) {
        var time = time_t(seconds)
        var parts = tm()
        _ = localtime_r(&time, &parts)
        var buffer = [CChar](repeating: 0, count: 64)
        let count = strftime(&buffer, buffer.count, "%Y-%m-%dT%H:%M:%S%z", &parts)
        let expected = String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        #expect(TextLogHandler.timestamp(seconds: seconds) == expected)
    }
}
