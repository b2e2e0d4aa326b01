import Gateway
import GatewayHTTP
import Logging
import Primitives
import SignerCore
import Testing

/// The HTTP face of the gateway on real loopback sockets (port 0): every security gate, the wire
/// endpoints and the approval port.
@Suite(.serialized) struct GatewayPortsTests {
    static let session = "test-session-0001"
    static let json = ("Content-Type", "application/json")

    final class Harness: Sendable {
        let service: GatewayService
        let dapp: HTTPServer
        let ui: HTTPServer
        let configuration: GatewayConfiguration
        let endpoints = GatewayEndpoints()
        let telemetry: GatewayTelemetry
        var dappPort: Int { dapp.port }
        var uiPort: Int { ui.port }

        /// - Parameters:
        ///   - logSink: receives every log line (JSON, trace level) of the service and the access log.
        ///   - metricsToken: the telemetry's extra `/metrics` token.
        init(
            sites: [AuthorizedSite] = [], maxBody: Int = 4 << 20, mode: GatewayOptions.ApprovalMode = .person,
            logSink: JSONLogHandler.Sink? = nil, metricsToken: String? = nil, publicURLs: [String] = [],
            publicUIURLs: [String] = []
        ) async throws {
            let logger =
                if let logSink {
                    Logger(label: "test") { label in
                        var handler = JSONLogHandler(label: label, sink: logSink)
                        handler.logLevel = .trace
                        return handler
                    }
                } else {
                    Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })
                }
            let metrics = GatewayMetrics()
            telemetry = GatewayTelemetry(version: "test", metricsToken: metricsToken, metrics: metrics, logger: logger)
            service = try await Fixture.service(mode: mode, sites: sites, logger: logger, metrics: metrics)
            var configuration = GatewayConfiguration(
                approvalToken: String(repeating: "a", count: 64), relayToken: String(repeating: "r", count: 64),
                clientTokens: [String(repeating: "c", count: 64): "backend"], maxRequestBodyBytes: maxBody,
                pollHold: .milliseconds(200))
            configuration.publicURLs = publicURLs.compactMap(SiteOrigin.init)
            configuration.publicUIURLs = publicUIURLs.compactMap(SiteOrigin.init)
            self.configuration = configuration
            let files = StaticFiles(files: [
                "/bridge.js": Array("/* bridge */".utf8),
                "/sigil.user.js": Array(
                    "const G = '__SIGIL_GATEWAY__'; const T = '__SIGIL_RELAY_TOKEN__'; const B = '__SIGIL_BRIDGE_SOURCE__';"
                        .utf8),
                "/bookmarklet.js": Array("javascript:load('__SIGIL_GATEWAY__/bridge.js')".utf8),
                "/ui/index.html": Array("<!doctype html><title>Sigil</title>".utf8),
                "/ui/app.js": Array("// app".utf8),
            ])
            let telemetry = telemetry
            var dappConfiguration = HTTPServerConfiguration()
            dappConfiguration.name = "dapp"
            dappConfiguration.observer = { telemetry.observe($0) }
            dappConfiguration.limits.maxBodyBytes = 8 << 20
            var uiConfiguration = HTTPServerConfiguration()
            uiConfiguration.name = "ui"
            uiConfiguration.observer = { telemetry.observe($0) }
            dapp = HTTPServer(
                configuration: dappConfiguration,
                handler: DappHandler(service: service, configuration: configuration, files: files, logger: logger),
                logger: logger)
            ui = HTTPServer(
                configuration: uiConfiguration,
                handler: ApprovalPortal(
                    service: service, directory: RecordingSigner(), configuration: configuration, endpoints: endpoints,
                    files: files, logger: logger, telemetry: telemetry),
                logger: logger)
            metrics.track(dapp)
            metrics.track(ui)
            _ = try dapp.start()
            _ = try ui.start()
            endpoints.set(dapp: "http://127.0.0.1:\(dapp.port)", ui: "http://127.0.0.1:\(ui.port)")
        }

        func stop() async {
            await dapp.shutdown()
            await ui.shutdown()
        }

        func post(
            _ message: String, _ request: String = "null", id: String = "r1", origin: String? = Fixture.site,
            headers: [(String, String)] = [GatewayPortsTests.json, ("X-Sigil-Session", GatewayPortsTests.session)]
        ) async throws -> RawHTTPClient.Response {
            var all = headers
            if let origin { all.append(("Origin", origin)) }
            return try await RawHTTPClient.send(
                port: dappPort, method: "POST", path: "/v1/request", headers: all,
                body: Array("{\"id\":\"\(id)\",\"message\":\"\(message)\",\"request\":\(request)}".utf8))
        }

        func uiPost(
            _ path: String, _ body: String, origin: String? = nil, token: String? = nil, site: String? = "same-origin"
        )
            async throws -> RawHTTPClient.Response
        {
            var headers = [GatewayPortsTests.json, ("X-Sigil-Token", token ?? configuration.approvalToken)]
            headers.append(("Origin", origin ?? "http://127.0.0.1:\(uiPort)"))
            if let site { headers.append(("Sec-Fetch-Site", site)) }
            return try await RawHTTPClient.send(
                port: uiPort, method: "POST", path: path, headers: headers, body: Array(body.utf8))
        }
    }

    @Test func aForgedHostIsRefusedOnBothPorts() async throws {
        let h = try await Harness()
        for host in [
            "evil.example", "evil.example:\(h.dappPort)", "127.0.0.1:1", "127.0.0.1.evil.example:\(h.dappPort)",
        ] {
            #expect(
                try await RawHTTPClient.send(port: h.dappPort, method: "GET", path: "/bridge.js", host: host).status
                    == 403)
        }
        #expect(
            try await RawHTTPClient.send(port: h.uiPort, method: "GET", path: "/", host: "rebind.example").status == 403
        )
        for host in ["127.0.0.1:\(h.dappPort)", "localhost:\(h.dappPort)", "[::1]:\(h.dappPort)"] {
            #expect(
                try await RawHTTPClient.send(port: h.dappPort, method: "GET", path: "/bridge.js", host: host).status
                    == 200)
        }
        await h.stop()
    }

    @Test func theBridgeIsServedCrossOriginButApprovalAssetsAreNot() async throws {
        let h = try await Harness()
        let bridge = try await RawHTTPClient.send(port: h.dappPort, method: "GET", path: "/bridge.js")
        #expect(bridge.status == 200 && bridge.header("Cross-Origin-Resource-Policy") == "cross-origin")
        for path in ["/ui/app.js", "/sigil.user.js", "/bookmarklet.js", "/"] {
            #expect(try await RawHTTPClient.send(port: h.dappPort, method: "GET", path: path).status == 404, "\(path)")
        }
        await h.stop()
    }

    @Test func preflightEchoesTheExactOriginAndAnswersPrivateNetworkAccess() async throws {
        let h = try await Harness()
        let r = try await RawHTTPClient.send(
            port: h.dappPort, method: "OPTIONS", path: "/v1/request",
            headers: [
                ("Origin", "https://dapp.example"), ("Access-Control-Request-Method", "POST"),
                ("Access-Control-Request-Private-Network", "true"),
            ])
        #expect(r.status == 204)
        #expect(r.header("Access-Control-Allow-Origin") == "https://dapp.example")
        #expect(r.header("Vary") == "Origin")
        #expect(r.header("Access-Control-Allow-Private-Network") == "true")
        #expect(r.header("Access-Control-Allow-Headers")?.contains("Authorization") == false)
        let bad = try await RawHTTPClient.send(
            port: h.dappPort, method: "OPTIONS", path: "/v1/request", headers: [("Origin", "null")])
        #expect(bad.status == 403 && bad.header("Access-Control-Allow-Origin") == nil)
        await h.stop()
    }

    @Test func requestGatesRefuseWhatIsNotAJSONRequestFromAnIdentifiedClient() async throws {
        let h = try await Harness()
        #expect(
            try await h.post("pub(ping)", headers: [("Content-Type", "text/plain"), ("X-Sigil-Session", Self.session)])
                .status == 415)
        #expect(try await h.post("pub(ping)", origin: nil).status == 403)
        #expect(try await h.post("pub(ping)", origin: "null").status == 403)
        #expect(try await h.post("pub(ping)", origin: "chrome-extension://abc").status == 403)
        #expect(try await h.post("pub(ping)", headers: [Self.json]).status == 400)
        #expect(try await h.post("pub(ping)", headers: [Self.json, ("X-Sigil-Session", "bad session!")]).status == 400)
        #expect(
            try await h.post(
                "pub(ping)", origin: nil,
                headers: [Self.json, ("X-Sigil-Session", Self.session), ("Authorization", "Bearer nope")]
            )
            .status == 401)
        let malformed = try await RawHTTPClient.send(
            port: h.dappPort, method: "POST", path: "/v1/request",
            headers: [Self.json, ("X-Sigil-Session", Self.session), ("Origin", Fixture.site)],
            body: Array("{\"id\":".utf8))
        #expect(malformed.status == 400 && malformed.text == "{\"error\":\"Bad request\"}")
        await h.stop()
    }

    @Test func anUnauthorizedOriginGetsPolkadotJsErrorsWithCORSHeaders() async throws {
        let h = try await Harness()
        let r = try await h.post("pub(accounts.list)", "{}", origin: "https://evil.example")
        #expect(r.status == 200)
        #expect(r.text == "{\"id\":\"r1\",\"error\":\"The source https://evil.example has not been enabled yet\"}")
        #expect(r.header("Access-Control-Allow-Origin") == "https://evil.example" && r.header("Vary") == "Origin")
        await h.stop()
    }

    @Test func aRequestWaitingForAPersonIsAnsweredOnTheEventLogAndByLongPoll() async throws {
        let h = try await Harness()
        let first = try await h.post("pub(authorize.tab)", "{\"origin\":\"Dapp\"}")
        #expect(first.status == 202 && first.text == "{\"id\":\"r1\",\"pending\":true,\"server\":\"srv1\"}")
        let idle = try await RawHTTPClient.send(
            port: h.dappPort, method: "GET", path: "/v1/poll?session=\(Self.session)",
            headers: [("Origin", Fixture.site)])
        #expect(idle.status == 200 && idle.text == "{\"server\":\"srv1\",\"events\":[]}")
        let approval = try #require(await h.service.pendingApprovals.first)
        try await h.service.approve(approval.id, accounts: [TestAccounts.alice.key])
        let poll = try await RawHTTPClient.send(
            port: h.dappPort, method: "GET", path: "/v1/poll?session=\(Self.session)",
            headers: [("Origin", Fixture.site)])
        #expect(poll.text.contains("\"eventId\":\"srv1.1\""))
        #expect(poll.text.contains("\"authorizedAccounts\":[\"\(TestAccounts.alice.address)\"]"))
        let after = try await RawHTTPClient.send(
            port: h.dappPort, method: "GET", path: "/v1/poll?session=\(Self.session)&after=srv1.1",
            headers: [("Origin", Fixture.site)])
        #expect(after.text == "{\"server\":\"srv1\",\"events\":[]}")
        // The event stream replays it too, after the hello event.
        let stream = try await RawHTTPClient.send(
            port: h.dappPort, method: "GET", path: "/v1/events?session=\(Self.session)",
            headers: [("Origin", Fixture.site)], until: "srv1.1\ndata:")
        #expect(stream.status == 200 && stream.header("Content-Type")?.hasPrefix("text/event-stream") == true)
        #expect(stream.text.contains("event: hello") && stream.text.contains("id: srv1.1"))
        #expect(stream.header("Access-Control-Allow-Origin") == Fixture.site)
        // Another site cannot read this session.
        let stolen = try await RawHTTPClient.send(
            port: h.dappPort, method: "GET", path: "/v1/poll?session=\(Self.session)",
            headers: [("Origin", Fixture.other)])
        #expect(stolen.status == 403)
        await h.stop()
    }

    @Test func bodySizeIsBoundedButALargeMetadataProvideGoesThrough() async throws {
        let h = try await Harness(sites: Fixture.connected())
        // About 1.2 MB of hex, as Polkadot Asset Hub's rawMetadata.
        let raw = "0x" + String(repeating: "6d", count: 600_000)
        let def =
            "{\"chain\":\"Polkadot Asset Hub\",\"genesisHash\":\"0x68d56f15f85d3136970ec16946040bc1752654e906147f7e43e9d539d7c3de2f\",\"specVersion\":2000000,\"tokenSymbol\":\"DOT\",\"tokenDecimals\":10,\"ss58Format\":0,\"types\":{},\"rawMetadata\":\"\(raw)\"}"
        #expect(try await h.post("pub(metadata.provide)", def).status == 202)
        await h.stop()
        let small = try await Harness(sites: Fixture.connected(), maxBody: 1000)
        #expect(try await small.post("pub(metadata.provide)", def).status == 413)
        await small.stop()
    }

    @Test func tokenClientsAndTheRelayAreIdentifiedByTheirBearerToken() async throws {
        let h = try await Harness()
        let client = try await h.post(
            "pub(accounts.list)", "{}", origin: nil,
            headers: [
                Self.json, ("X-Sigil-Session", Self.session),
                ("Authorization", "Bearer " + String(repeating: "c", count: 64)),
            ])
        #expect(client.text.contains("The source client:backend has not been enabled yet"))
        let relay = try await h.post(
            "pub(accounts.list)", "{}", origin: nil,
            headers: [
                Self.json, ("X-Sigil-Session", "relay-session-1"),
                ("Authorization", "Bearer " + String(repeating: "r", count: 64)),
                ("X-Sigil-Relay-Origin", "https://csp.example"),
            ])
        #expect(relay.text.contains("The source https://csp.example has not been enabled yet"))
        let noOrigin = try await h.post(
            "pub(ping)", origin: nil,
            headers: [
                Self.json, ("X-Sigil-Session", "relay-session-2"),
                ("Authorization", "Bearer " + String(repeating: "r", count: 64)),
            ])
        #expect(noOrigin.status == 400)
        await h.stop()
    }

    @Test func theApprovalPortCannotBeFramedAndNeedsItsToken() async throws {
        let h = try await Harness()
        let page = try await RawHTTPClient.send(port: h.uiPort, method: "GET", path: "/")
        #expect(page.status == 200 && page.text.contains("<title>Sigil</title>"))
        #expect(page.header("X-Frame-Options") == "DENY")
        #expect(page.header("Content-Security-Policy")?.contains("frame-ancestors 'none'") == true)
        #expect(page.header("Content-Security-Policy")?.contains("script-src 'self'") == true)
        #expect(page.header("Cross-Origin-Opener-Policy") == "same-origin")
        #expect(try await RawHTTPClient.send(port: h.uiPort, method: "GET", path: "/api/state").status == 403)
        let state = try await RawHTTPClient.send(
            port: h.uiPort, method: "GET", path: "/api/state",
            headers: [("X-Sigil-Token", h.configuration.approvalToken)])
        #expect(
            state.status == 200 && state.text.contains("\"bridgeURL\":\"http://127.0.0.1:\(h.dappPort)/bridge.js\""))
        #expect(state.text.contains("javascript:load('http://127.0.0.1:\(h.dappPort)/bridge.js')"))
        let script = try await RawHTTPClient.send(
            port: h.uiPort, method: "GET", path: "/sigil.user.js?token=\(h.configuration.approvalToken)")
        #expect(script.text.contains("const G = \"http://127.0.0.1:\(h.dappPort)\""))
        #expect(script.text.contains("const T = \"\(String(repeating: "r", count: 64))\""))
        #expect(script.text.contains("const B = \"/* bridge */\""))
        #expect(try await RawHTTPClient.send(port: h.uiPort, method: "GET", path: "/sigil.user.js").status == 403)
        await h.stop()
    }

    /// `/api/state` leads each request with its sentence (SignerCore `ApprovalHeadline`), the
    /// addresses it names and its warnings; every Substrate account carries its identicon colours.
    @Test func theStateCarriesHeadlinesMentionsAndIdenticons() async throws {
        let h = try await Harness()
        _ = try await h.post("pub(authorize.tab)", "{\"origin\":\"<b>Dapp</b>\"}")
        let read = {
            try await RawHTTPClient.send(
                port: h.uiPort, method: "GET", path: "/api/state",
                headers: [("X-Sigil-Token", h.configuration.approvalToken)])
        }
        var state = try JSONValue.parse(Array(try await read().text.utf8))
        let connect = try #require(state["pending"]?.arrayValue?.first)
        #expect(connect["headline"] == .string("Connect \(Fixture.site) (Dapp)"))
        #expect(
            connect["warnings"]?.arrayValue?.first?.stringValue?.hasPrefix(
                "The name this site gives itself looks suspicious") == true)
        let alice = try #require(state["accounts"]?.arrayValue?.first { $0["key"] == .string(TestAccounts.alice.key) })
        #expect(alice["identicon"]?.arrayValue?.count == 19)
        #expect(alice["short"] == .string(AddressText.short(TestAccounts.alice.address)))
        try await h.service.approve(
            try #require(await h.service.pendingApprovals.first).id, accounts: [TestAccounts.alice.key])
        _ = try await h.post(
            "pub(bytes.sign)", "{\"address\":\"\(TestAccounts.alice.address)\",\"data\":\"hello\",\"type\":\"bytes\"}",
            id: "r2")
        state = try JSONValue.parse(Array(try await read().text.utf8))
        let message = try #require(state["pending"]?.arrayValue?.first)
        #expect(message["headline"] == .string("Sign the message \"hello\""))
        let mention = try #require(message["mentions"]?.arrayValue?.first)
        #expect(mention["name"] == .string("Alice"))
        #expect(mention["identicon"]?.arrayValue?.count == 19)
        #expect(message["warnings"] == .array([]))
        await h.stop()
    }

    /// `?token=` opens only what a browser cannot send a header to: the event stream (EventSource)
    /// and the userscript link. Everything else wants `X-Sigil-Token`, so the token stays out of
    /// request lines that access logs record.
    @Test func theQueryTokenOpensOnlyTheEventStreamAndTheUserscript() async throws {
        let h = try await Harness()
        let token = h.configuration.approvalToken
        #expect(
            try await RawHTTPClient.send(port: h.uiPort, method: "GET", path: "/api/state?token=\(token)").status == 403
        )
        #expect(
            try await RawHTTPClient.send(port: h.uiPort, method: "GET", path: "/sigil.user.js?token=\(token)").status
                == 200)
        let events = try await RawHTTPClient.send(
            port: h.uiPort, method: "HEAD", path: "/api/events?token=\(token)")
        #expect(events.status == 200)
        let refused = try await RawHTTPClient.send(
            port: h.uiPort, method: "HEAD", path: "/api/events?token=\(String(repeating: "b", count: 64))")
        #expect(refused.status == 403)
        await h.stop()
    }

    @Test func approvalEndpointsRefuseCrossSiteRequests() async throws {
        let h = try await Harness()
        _ = try await h.post("pub(authorize.tab)", "{\"origin\":\"Dapp\"}")
        let id = try #require(await h.service.pendingApprovals.first).id
        let body = "{\"id\":\(id),\"accounts\":[]}"
        #expect(try await h.uiPost("/api/approve", body, origin: Fixture.site).status == 403)
        #expect(try await h.uiPost("/api/approve", body, site: "cross-site").status == 403)
        #expect(try await h.uiPost("/api/approve", body, token: String(repeating: "b", count: 64)).status == 403)
        let form = try await RawHTTPClient.send(
            port: h.uiPort, method: "POST", path: "/api/approve",
            headers: [
                ("Content-Type", "text/plain"), ("Origin", "http://127.0.0.1:\(h.uiPort)"),
                ("X-Sigil-Token", h.configuration.approvalToken),
            ],
            body: Array(body.utf8))
        #expect(form.status == 415)
        // The token in the query string (what a form or an access log carries) opens no POST.
        let queryToken = try await RawHTTPClient.send(
            port: h.uiPort, method: "POST", path: "/api/approve?token=\(h.configuration.approvalToken)",
            headers: [("Content-Type", "application/json"), ("Origin", "http://127.0.0.1:\(h.uiPort)")],
            body: Array(body.utf8))
        #expect(queryToken.status == 403)
        #expect(await h.service.pendingApprovals.count == 1)
        #expect(try await h.uiPost("/api/reject", body).status == 200)
        #expect(await h.service.pendingApprovals.isEmpty)
        #expect(try await h.uiPost("/api/reject", body).status == 404)
        await h.stop()
    }

    /// Under --tls-cert the page's own origin is https://HOST: its POSTs are accepted, and the http
    /// origin of the same host and port (another origin) is refused. `sigil serve` records the scheme
    /// in the endpoints; the browser test over real TLS is scripts/test.d/72-e2e-browser-tls.sh.
    @Test func approvalPostsAreSameOriginOverHTTPSWhenThePortServesTLS() async throws {
        let h = try await Harness()
        h.endpoints.set(dapp: "https://127.0.0.1:\(h.dappPort)", ui: "https://127.0.0.1:\(h.uiPort)")
        _ = try await h.post("pub(authorize.tab)", "{\"origin\":\"Dapp\"}")
        let id = try #require(await h.service.pendingApprovals.first).id
        let body = "{\"id\":\(id)}"
        #expect(try await h.uiPost("/api/reject", body, origin: "http://127.0.0.1:\(h.uiPort)").status == 403)
        #expect(try await h.uiPost("/api/reject", body, origin: "https://127.0.0.1:\(h.uiPort + 1)").status == 403)
        #expect(await h.service.pendingApprovals.count == 1)
        #expect(try await h.uiPost("/api/reject", body, origin: "https://127.0.0.1:\(h.uiPort)").status == 200)
        #expect(await h.service.pendingApprovals.isEmpty)
        await h.stop()
    }
}
