import Glibc
import Primitives
import Testing

@testable import GatewayHTTP

/// `HTTPProbe`, the blocking client behind `sigil health`: URL parsing, response parsing (negative
/// cases), and real exchanges over HTTP and HTTPS against our server.
extension HTTPServerTests {
    @Test(arguments: [
        ("http://127.0.0.1:9716/healthz", false, "127.0.0.1", 9716, "/healthz"),
        ("https://sigil.example/healthz?x=1", true, "sigil.example", 443, "/healthz?x=1"),
        ("http://[::1]:80", false, "::1", 80, "/"),
        ("HTTP://localhost", false, "localhost", 80, "/"),
    ])
    func aProbeURLIsSplitIntoSchemeHostPortAndPath(
        url: String, secure: Bool, host: String, port: Int, path: String
    ) throws {
        let target = try HTTPProbe.Target(url: url)
        #expect(target.secure == secure && target.host == host && target.port == port && target.path == path)
    }

    @Test(arguments: [
        "ftp://127.0.0.1/", "127.0.0.1:9716", "http://", "http://:80/", "http://[::1/", "http://[::1]x/",
        "http://host:0/", "http://host:65536/", "http://host:x/", "http://user@host/", "http://host/a b",
    ])
    func aProbeURLItCannotUseIsRefused(url: String) {
        #expect(throws: HTTPError.self) { try HTTPProbe.Target(url: url) }
    }

    @Test func aResponseIsParsedAndItsBodyCutAtContentLength() throws {
        let raw = Array("HTTP/1.1 200 OK\r\nContent-Length: 2\r\nX: y\r\n\r\nokEXTRA".utf8)
        let response = try HTTPProbe.parse(raw)
        #expect(response.status == 200 && response.body == Array("ok".utf8))
    }

    @Test(arguments: [
        "", "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n", "SSH-2.0-OpenSSH\r\n\r\n", "HTTP/1.1 2000 OK\r\n\r\n",
        "HTTP/2 200\r\n\r\n", "HTTP/1.1 abc OK\r\n\r\n",
    ])
    func aMalformedOrTruncatedResponseThrows(text: String) {
        #expect(throws: HTTPError.self) { try HTTPProbe.parse(Array(text.utf8)) }
    }

    @Test func probesAPlainServer() async throws {
        try await withServer(handler: Self.echoRouter()) { server in
            let response = try HTTPProbe(url: "http://127.0.0.1:\(server.port)/hello").get()
            #expect(response.status == 200 && response.body == Array("hello".utf8))
            let missing = try HTTPProbe(url: "http://127.0.0.1:\(server.port)/nope").get()
            #expect(missing.status == 404)
        }
    }

    @Test func aRefusedConnectionIsAReasonNotACrash() throws {
        // Bind a port, then close it: nothing listens there any more.
        let (fd, address) = try Socket.listen(host: "127.0.0.1", port: 0, backlog: 1)
        Glibc.close(fd)
        let error = #expect(throws: HTTPError.self) { try HTTPProbe(url: "http://127.0.0.1:\(address.port)/").get() }
        #expect(error?.code == .probeFailed && error?.reason.contains("refused") == true)
    }

    @Test func aServerThatNeverAnswersTimesOutWithinTheLimit() throws {
        // A listening socket nobody accepts from: connect succeeds (backlog), no answer ever comes.
        let (fd, address) = try Socket.listen(host: "127.0.0.1", port: 0, backlog: 4)
        defer { Glibc.close(fd) }
        var probe = try HTTPProbe(url: "http://127.0.0.1:\(address.port)/healthz")
        probe.timeout = .milliseconds(300)
        let start = ContinuousClock.now
        let error = #expect(throws: HTTPError.self) { try probe.get() }
        #expect(error?.reason.contains("timed out") == true)
        #expect(start.duration(to: .now) < .seconds(3))
    }

    @Test func probesATLSServerTrustingItsCertificateAndCheckingTheName() async throws {
        let fixture = try TLSFixture(host: "localhost")
        try await Self.tlsServer(fixture) { server in
            var probe = try HTTPProbe(url: "https://localhost:\(server.port)/hello")
            probe.caFile = fixture.certificatePath
            let response = try probe.get()
            #expect(response.status == 200 && response.body == Array("hello".utf8))

            // The certificate names localhost, not 127.0.0.1: verification fails on the name.
            var byAddress = try HTTPProbe(url: "https://127.0.0.1:\(server.port)/hello")
            byAddress.caFile = fixture.certificatePath
            let mismatch = #expect(throws: HTTPError.self) { try byAddress.get() }
            #expect(mismatch?.reason.contains("verification failed") == true)

            // Not trusted at all (system store only).
            let untrusted = #expect(throws: HTTPError.self) {
                try HTTPProbe(url: "https://localhost:\(server.port)/hello").get()
            }
            #expect(untrusted?.reason.contains("verification failed") == true)

            // Loopback peer: verification may be skipped on request.
            byAddress.caFile = nil
            byAddress.insecureLoopback = true
            #expect(try byAddress.get().status == 200)

            // Plain HTTP to the TLS port gets no answer it could take for health.
            #expect(throws: HTTPError.self) { try HTTPProbe(url: "http://127.0.0.1:\(server.port)/hello").get() }
        }
    }
}
