import Gateway
import GatewayHTTP
import Primitives
import Testing

@Suite struct SecurityGatesTests {
    func request(host: String?, port: Int = 9715) -> HTTPRequest {
        var headers: HTTPHeaders = [:]
        if let host { headers.add("Host", host) }
        var r = HTTPRequest(method: .get, target: "/", headers: headers)
        r.localPort = port
        return r
    }

    @Test(arguments: [
        ("127.0.0.1:9715", true), ("localhost:9715", true), ("[::1]:9715", true), ("LOCALHOST:9715", true),
        ("127.0.0.1", false), ("127.0.0.1:9716", false), ("evil.example:9715", false), ("127.0.0.2:9715", false),
        ("[::1]", false), ("[::1:9715", false), ("127.0.0.1:x", false), ("", false), ("localhost.:9715", false),
        // Ports are the digits browsers write: no sign, no leading zero (both parsed as 9715 before).
        ("127.0.0.1:+9715", false), ("127.0.0.1:09715", false), ("localhost:-9715", false), ("[::1]:+9715", false),
        ("127.0.0.1: 9715", false), ("127.0.0.1:", false),
    ])
    func hostAllowList(host: String, allowed: Bool) {
        #expect(SecurityGates.hostAllowed(request(host: host), extra: []) == allowed)
    }

    /// RFC 9112 §3.2.2: with an absolute-form target the server uses the target's host, not `Host`.
    @Test(arguments: [
        ("http://evil.example:9715/v1/request", "127.0.0.1:9715", false),
        ("http://127.0.0.1:9715/v1/request", "evil.example:9715", true),
        ("http://127.0.0.1:9716/", "127.0.0.1:9715", false), ("HTTP://LOCALHOST:9715", "x", true),
        ("http://user@127.0.0.1:9715/", "127.0.0.1:9715", false), ("/v1/request", "127.0.0.1:9715", true),
    ])
    func anAbsoluteFormTargetsHostWinsOverTheHostHeader(target: String, host: String, allowed: Bool) {
        var r = HTTPRequest(
            method: .post, target: target,
            headers: [("Host", host)].reduce(into: HTTPHeaders()) {
                $0.add($1.0, $1.1)
            })
        r.localPort = 9715
        #expect(SecurityGates.hostAllowed(r, extra: []) == allowed)
    }

    @Test func aMissingOrDuplicatedHostIsRefusedAndExtraNamesCanBeAllowed() {
        #expect(!SecurityGates.hostAllowed(request(host: nil), extra: []))
        var twice = request(host: "127.0.0.1:9715")
        twice.headers.add("Host", "127.0.0.1:9715")
        #expect(!SecurityGates.hostAllowed(twice, extra: []))
        #expect(SecurityGates.hostAllowed(request(host: "sigil.internal:9715"), extra: ["sigil.internal"]))
        #expect(SecurityGates.hostAllowed(request(host: "sigil.internal", port: 80), extra: ["sigil.internal"]))
    }

    /// A `Host` without a port means the scheme's default port: 80 on a plain port, 443 on a TLS
    /// port (a reverse proxy or browser at `https://sigil.example/` sends `Host: sigil.example`).
    @Test(arguments: [
        ("sigil.internal", 443, 443, true), ("sigil.internal", 443, 80, false), ("sigil.internal", 80, 443, false),
        ("sigil.internal", 80, 80, true), ("sigil.internal:443", 443, 443, true),
        ("sigil.internal:80", 443, 443, false),
        ("localhost", 443, 443, true), ("evil.example", 443, 443, false),
    ])
    func aHostWithoutAPortMeansTheSchemesDefaultPort(host: String, localPort: Int, defaultPort: Int, allowed: Bool) {
        let result = SecurityGates.hostAllowed(
            request(host: host, port: localPort), extra: ["sigil.internal"], defaultPort: defaultPort)
        #expect(result == allowed)
    }

    @Test(arguments: [
        ("https://dapp.example", "https://dapp.example"), ("HTTPS://Dapp.Example", "https://dapp.example"),
        ("http://127.0.0.1:8080", "http://127.0.0.1:8080"), ("https://dapp.example:443", "https://dapp.example"),
        ("http://dapp.example:80", "http://dapp.example"), ("http://[::1]:3000", "http://[::1]:3000"),
    ])
    func originsAreNormalized(text: String, serialized: String) {
        #expect(SiteOrigin(text)?.description == serialized)
    }

    @Test(arguments: [
        "null", "", "file://", "chrome-extension://abc", "https://", "https://a.example/", "https://a.example/path",
        "https://user@a.example", "https://a.example:0", "https://a.example:65536", "https://a.example:x",
        "https://a example", "https://a.example?x", "ftp://a.example", "https://a.example#f", "https://[::1",
        "https://a.example:80:80", String(repeating: "a", count: 400),
        // A bracketed host must be an IPv6 literal; ports as browsers write them.
        "http://[good.example]", "http://[good.example]:80", "https://[]", "https://[::1]x", "https://a.example:+443",
        "https://a.example:0443", "http://[1.2.3.4]",
    ])
    func malformedOriginsAreRejected(text: String) {
        #expect(SiteOrigin(text) == nil)
    }

    @Test func jsonContentTypeAndBearerTokensAreParsedStrictly() {
        func with(_ name: String, _ value: String) -> HTTPRequest {
            HTTPRequest(
                method: .post, target: "/", headers: [(name, value)].reduce(into: HTTPHeaders()) { $0.add($1.0, $1.1) })
        }
        #expect(SecurityGates.isJSON(with("Content-Type", "application/json")))
        #expect(SecurityGates.isJSON(with("Content-Type", "Application/JSON; charset=utf-8")))
        #expect(!SecurityGates.isJSON(with("Content-Type", "text/plain")))
        #expect(!SecurityGates.isJSON(with("Content-Type", "application/json-patch+json")))
        #expect(SecurityGates.bearerToken(with("Authorization", "Bearer abc")) == "abc")
        #expect(SecurityGates.bearerToken(with("Authorization", "Basic abc")) == nil)
        #expect(SecurityGates.bearerToken(with("Authorization", "Bearer ")) == nil)
        #expect(SecurityGates.constantTimeEqual("abc", "abc"))
        #expect(!SecurityGates.constantTimeEqual("abc", "abd"))
        #expect(!SecurityGates.constantTimeEqual("abc", "abcd"))
    }

    @Test func wireEnvelopesAreValidated() throws {
        for bad in [
            "[]", "{}", "{\"id\":\"\",\"message\":\"pub(ping)\"}", "{\"id\":5,\"message\":\"pub(ping)\"}",
            "{\"id\":\"1\"}", "{\"id\":\"1\",\"message\":\"\"}", "{\"id\":\"1\",\"message\":\"has space\"}",
            "{\"id\":\"\(String(repeating: "x", count: 129))\",\"message\":\"pub(ping)\"}",
            "{\"id\":\"a\\nb\",\"message\":\"x\"}",
        ] {
            #expect(throws: GatewayError.self, "\(bad)") { try WireRequest(json: try JSONValue.parse(Array(bad.utf8))) }
        }
        #expect(throws: PrimitivesError(.jsonSyntax, "")) { try JSONValue.parse(Array("{\"id\":".utf8)) }
        #expect(throws: PrimitivesError(.jsonTooDeep, "")) {
            try JSONValue.parse(Array(String(repeating: "[", count: 100_000).utf8))
        }
        let ok = try WireRequest(json: try JSONValue.parse(Array("{\"id\":\"1\",\"message\":\"pub(ping)\"}".utf8)))
        #expect(ok.request == .null)
    }
}

/// `--public-url`: how browsers reach the gateway when it is not loopback on the listening port.
@Suite struct PublicURLHostTests {
    func request(host: String?, port: Int = 9715, target: String = "/") -> HTTPRequest {
        var headers: HTTPHeaders = [:]
        if let host { headers.add("Host", host) }
        var r = HTTPRequest(method: .get, target: target, headers: headers)
        r.localPort = port
        return r
    }

    static let urls = ["http://127.0.0.1:19715", "https://sigil.example", "http://[::1]:8080"].compactMap(
        SiteOrigin.init)

    @Test(arguments: [
        ("127.0.0.1:19715", true), ("127.0.0.1:9715", true), ("sigil.example", true), ("SIGIL.example:443", true),
        ("[::1]:8080", true), ("127.0.0.1:19716", false), ("sigil.example:80", false), ("sigil.example:9715", false),
        ("evil.example:19715", false), ("127.0.0.1:019715", false), ("sigil.example.evil:443", false),
    ])
    func aDeclaredPublicURLsAuthorityPassesWhateverTheLocalPort(host: String, allowed: Bool) {
        #expect(SecurityGates.hostAllowed(request(host: host), extra: [], publicURLs: Self.urls) == allowed)
    }

    @Test func anAbsoluteFormTargetIsMatchedAgainstThePublicURLs() {
        let r = request(host: "evil.example", target: "http://127.0.0.1:19715/bridge.js")
        #expect(SecurityGates.hostAllowed(r, extra: [], publicURLs: Self.urls))
        #expect(!SecurityGates.hostAllowed(r, extra: []))
    }

    @Test func theRefusalNamesTheOptionAndEscapesTheHost() {
        let plain = SecurityGates.hostRefusal(request(host: "127.0.0.1:19715"), option: "public-url")
        #expect(plain.status == .forbidden)
        #expect(plain.headers["Content-Type"] == "text/plain; charset=utf-8")
        #expect(plain.headers["X-Content-Type-Options"] == "nosniff")
        let text = String(decoding: plain.body, as: UTF8.self)
        #expect(text.contains("--public-url http://127.0.0.1:19715"))
        #expect(text.contains("SIGIL_PUBLIC_URL") && text.contains("config file key public-url"))

        let tls = SecurityGates.hostRefusal(request(host: "sigil.example"), option: "public-ui-url", tls: true)
        #expect(String(decoding: tls.body, as: UTF8.self).contains("--public-ui-url https://sigil.example"))

        let hostile = SecurityGates.hostRefusal(request(host: "<script>\"x\"\u{7f}"), option: "public-url")
        let shown = String(decoding: hostile.body, as: UTF8.self)
        #expect(!shown.contains("<") && !shown.contains(">") && !shown.contains("\u{7f}"))
        #expect(shown.contains("\\x3cscript\\x3e\\x22x\\x22\\x7f"))
        #expect(shown.contains("--public-url http://HOST:PORT"))

        var twice = request(host: "a")
        twice.headers.add("Host", "b")
        #expect(
            String(decoding: SecurityGates.hostRefusal(twice, option: "public-url").body, as: UTF8.self)
                .contains("exactly one Host header"))
        #expect(SecurityGates.escapedHost(String(repeating: "a", count: 400)).count == 255)
    }
}
