import Glibc
import Primitives
import Testing

@testable import GatewayHTTP

@Suite struct StaticFilesTests {
    static let script = Array(
        (String(repeating: "window.injectedWeb3 = window.injectedWeb3 || {};\n", count: 200)).utf8)
    static let files = StaticFiles(files: [
        "/bridge.js": script, "/tiny.txt": Array("hi".utf8), "/index.html": Array("<p>".utf8),
    ])

    static func get(_ path: String, _ headers: HTTPHeaders = [:]) -> HTTPResponse? {
        files.response(for: HTTPRequest(method: .get, target: path, headers: headers))
    }

    @Test func servesFromMemoryWithStrongETagAndNoSniff() throws {
        let response = try #require(Self.get("/bridge.js"))
        #expect(response.status == .ok)
        #expect(response.body == Self.script)
        #expect(response.headers["Content-Type"] == "text/javascript; charset=utf-8")
        #expect(response.headers["X-Content-Type-Options"] == "nosniff")
        #expect(response.headers["Cache-Control"] == "no-cache")
        #expect(response.headers["Vary"] == "Accept-Encoding")
        let etag = try #require(response.headers["ETag"])
        #expect(etag.hasPrefix("\"") && !etag.hasPrefix("W/"))
    }

    @Test func answers304WhenIfNoneMatchMatches() throws {
        let etag = try #require(Self.get("/bridge.js")?.headers["ETag"])
        for condition in [etag, "\"other\", \(etag)", "W/\(etag)", "*"] {
            let response = try #require(Self.get("/bridge.js", ["If-None-Match": condition]))
            #expect(response.status == .notModified, "\(condition)")
            #expect(response.body.isEmpty)
            #expect(response.headers["ETag"] == etag)
        }
        #expect(Self.get("/bridge.js", ["If-None-Match": "\"stale\""])?.status == .ok)
    }

    @Test func servesPrecompressedGzipWhenAccepted() throws {
        let response = try #require(Self.get("/bridge.js", ["Accept-Encoding": "br, gzip;q=0.8"]))
        #expect(response.headers["Content-Encoding"] == "gzip")
        #expect(response.body.count < Self.script.count / 4)
        #expect(Gzip.decompress(response.body) == Self.script)
        let plainTag = Self.get("/bridge.js")?.headers["ETag"]
        #expect(response.headers["ETag"] != plainTag)  // each representation has its own strong tag
    }

    @Test(arguments: [
        ("gzip", true), ("GZIP", true), ("deflate, gzip", true), ("*", true), ("gzip;q=0", false),
        ("gzip; q=0.000", false), ("*;q=0", false), ("br", false), ("", false), ("gzip;q=0, *", false),
    ])
    func negotiatesAcceptEncoding(_ value: String, _ expected: Bool) {
        #expect(StaticFiles.acceptsGzip(["Accept-Encoding": value]) == expected)
    }

    @Test func leavesSmallFilesUncompressed() throws {
        let response = try #require(Self.get("/tiny.txt", ["Accept-Encoding": "gzip"]))
        #expect(response.headers["Content-Encoding"] == nil)
        #expect(response.headers["Vary"] == nil)
        #expect(response.body == Array("hi".utf8))
    }

    @Test func mapsRootToIndexAndUnknownToNil() {
        #expect(Self.get("/")?.body == Array("<p>".utf8))
        #expect(Self.get("/missing.js") == nil)
        #expect(Self.get("/../bridge.js") == nil)
    }

    @Test func gzipRoundTripsArbitraryBytes() throws {
        let bytes: [UInt8] = (0..<100_000).map { UInt8(truncatingIfNeeded: $0 * 7 + $0 / 300) }
        let packed = try #require(Gzip.compress(bytes))
        #expect(Gzip.decompress(packed) == bytes)
        #expect(Gzip.decompress(Array(packed.dropLast(10))) == nil)
    }
}

/// Directory loading (descriptor-touching, so it runs inside the serialized server suite).
extension HTTPServerTests {
    @Test func loadsADirectoryAndServesItOverSockets() async throws {
        let directory = "/tmp/sigil-static-test-\(getpid())"
        mkdir(directory, 0o700)
        mkdir(directory + "/sub", 0o700)
        defer {
            unlink(directory + "/bridge.js")
            unlink(directory + "/sub/app.css")
            unlink(directory + "/.hidden")
            rmdir(directory + "/sub")
            rmdir(directory)
        }
        func write(_ path: String, _ text: String) {
            let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
            _ = Array(text.utf8).withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
            close(fd)
        }
        let script = String(repeating: "console.log('sigil');\n", count: 3000)
        write(directory + "/bridge.js", script)
        write(directory + "/sub/app.css", "body{}")
        write(directory + "/.hidden", "secret")
        let files = try StaticFiles(directory: directory)
        #expect(Set(files.resources.keys) == ["/bridge.js", "/sub/app.css"])
        #expect(throws: HTTPError(.fileLoadFailed, "")) { try StaticFiles(directory: directory, maxFileBytes: 100) }
        #expect(throws: HTTPError(.fileLoadFailed, "")) { try StaticFiles(directory: directory + "/nope") }

        var router = Router()
        router.get("/*") { request in files.response(for: request) ?? .status(.notFound) }
        try await withServer(handler: router) { server in
            let client = try TestClient(port: server.port)
            try client.send("GET /bridge.js HTTP/1.1\r\nHost: a\r\nAccept-Encoding: gzip\r\n\r\n")
            let zipped = try client.readResponse()
            #expect(zipped.headers["Content-Encoding"] == "gzip")
            #expect(Gzip.decompress(zipped.body) == Array(script.utf8))
            let etag = try #require(zipped.headers["ETag"])
            try client.send(
                "GET /bridge.js HTTP/1.1\r\nHost: a\r\nAccept-Encoding: gzip\r\nIf-None-Match: \(etag)\r\n\r\n")
            let notModified = try client.readResponse()
            #expect(notModified.status == 304 && notModified.body.isEmpty)
            try client.send("GET /sub/app.css HTTP/1.1\r\nHost: a\r\n\r\n")
            #expect(try client.readResponse().text == "body{}")
            try client.send("GET /.hidden HTTP/1.1\r\nHost: a\r\n\r\n")
            #expect(try client.readResponse().status == 404)
        }
    }
}
