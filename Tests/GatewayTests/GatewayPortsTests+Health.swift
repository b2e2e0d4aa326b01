import Gateway
import GatewayHTTP
import SignerCore
import Synchronization
import Testing

extension GatewayPortsTests {
    @Test func healthzAnswersWithoutATokenAndWithAnyHostButRevealsNoSecret() async throws {
        let h = try await Harness()
        for host in ["127.0.0.1:\(h.uiPort)", "10.0.0.7:9716", "sigil.internal"] {
            let r = try await RawHTTPClient.send(port: h.uiPort, method: "GET", path: "/healthz", host: host)
            #expect(r.status == 200, "\(host)")
            #expect(r.header("Content-Type")?.hasPrefix("application/json") == true)
            #expect(r.text.contains("\"status\":\"ok\"") && r.text.contains("\"uptimeSeconds\":"))
            #expect(!r.text.contains(h.configuration.approvalToken) && !r.text.contains(h.configuration.relayToken))
        }
        let post = try await RawHTTPClient.send(port: h.uiPort, method: "POST", path: "/healthz")
        #expect(post.status == 405 && post.header("Allow") == "GET, HEAD")
        // Only on the approval port.
        #expect(try await RawHTTPClient.send(port: h.dappPort, method: "GET", path: "/healthz").status == 404)
        await h.stop()
    }

    @Test func metricsRefuseAnUnauthenticatedScraperWith401() async throws {
        let scraperToken = "scraper-token-0123456789"
        let h = try await Harness(metricsToken: scraperToken)
        let approval = h.configuration.approvalToken
        let refused: [[(String, String)]] = [
            [], [("Authorization", "Bearer wrong-token-0123456789")], [("Authorization", "Basic \(scraperToken)")],
            [("X-Sigil-Token", scraperToken)],  // the metrics token is a bearer token only
            [("X-Sigil-Token", "")],
        ]
        for headers in refused {
            let r = try await RawHTTPClient.send(port: h.uiPort, method: "GET", path: "/metrics", headers: headers)
            #expect(r.status == 401, "\(headers.map(\.0))")
            #expect(r.header("WWW-Authenticate") == "Bearer realm=\"sigil-metrics\"")
            #expect(!r.text.contains("sigil_"))
        }
        // A token in the query string is not accepted for metrics (URLs end up in logs).
        #expect(
            try await RawHTTPClient.send(port: h.uiPort, method: "GET", path: "/metrics?token=\(approval)").status
                == 401)
        for headers in [
            [("Authorization", "Bearer \(scraperToken)")], [("Authorization", "Bearer \(approval)")],
            [("X-Sigil-Token", approval)],
        ] {
            let r = try await RawHTTPClient.send(port: h.uiPort, method: "GET", path: "/metrics", headers: headers)
            #expect(r.status == 200)
            #expect(r.header("Content-Type") == "text/plain; version=0.0.4; charset=utf-8")
            #expect(r.text.contains("# TYPE sigil_http_requests_total counter"))
        }
        // Without a configured metrics token, only the approval token opens it.
        let plain = try await Harness()
        #expect(
            try await RawHTTPClient.send(
                port: plain.uiPort, method: "GET", path: "/metrics",
                headers: [("Authorization", "Bearer \(scraperToken)")]
            ).status == 401)
        await plain.stop()
        await h.stop()
    }

    @Test func metricsCountRequestsByRouteAndStatusAndSignaturesByScheme() async throws {
        let h = try await Harness(
            sites: Fixture.connected([TestAccounts.alice.key, TestAccounts.bob.key]), mode: .automatic)
        #expect(try await h.post("pub(ping)").status == 200)
        #expect(try await h.post("pub(ping)", id: "r2").status == 200)
        #expect(try await RawHTTPClient.send(port: h.dappPort, method: "GET", path: "/nope.js").status == 404)
        #expect(try await RawHTTPClient.send(port: h.uiPort, method: "GET", path: "/nope/x").status == 404)
        #expect(try await RawHTTPClient.send(port: h.dappPort, method: "BREW", path: "/").status == 501)
        let signed = try await h.post(
            "pub(bytes.sign)", "{\"address\":\"\(TestAccounts.bob.address)\",\"data\":\"0x01\",\"type\":\"bytes\"}",
            id: "r3")
        #expect(signed.status == 200 && signed.text.contains("signature"))
        let r = try await RawHTTPClient.send(
            port: h.uiPort, method: "GET", path: "/metrics", headers: [("X-Sigil-Token", h.configuration.approvalToken)]
        )
        let text = r.text
        #expect(
            text.contains(
                "sigil_http_requests_total{server=\"dapp\",route=\"/v1/request\",method=\"POST\",status=\"200\"} 3"))
        // The route is the pattern that answered (the dapp port's static files), never the path.
        #expect(
            text.contains("sigil_http_requests_total{server=\"dapp\",route=\"/*\",method=\"GET\",status=\"404\"} 1"))
        #expect(
            text.contains(
                "sigil_http_requests_total{server=\"ui\",route=\"unmatched\",method=\"GET\",status=\"404\"} 1"))
        // An unknown method is one label value, whatever the client sent.
        #expect(
            text.contains(
                "sigil_http_requests_total{server=\"dapp\",route=\"unmatched\",method=\"other\",status=\"501\"} 1"))
        #expect(!text.contains("BREW") && !text.contains("nope"))
        #expect(text.contains("sigil_http_request_duration_seconds_count{server=\"dapp\",route=\"/v1/request\"} 3"))
        #expect(
            text.contains(
                "sigil_http_request_duration_seconds_bucket{server=\"dapp\",route=\"/v1/request\",le=\"+Inf\"} 3"))
        #expect(text.contains("sigil_signatures_total{scheme=\"ed25519\"} 0"))
        #expect(text.contains("sigil_signatures_total{scheme=\"sr25519\"} 1"))
        #expect(text.contains("sigil_approvals_total{kind=\"bytes\",decision=\"approved\"} 1"))
        #expect(text.contains("sigil_pending_approvals 0"))
        #expect(text.contains("sigil_http_open_connections{server=\"ui\",port=\"\(h.uiPort)\"} 1"))
        #expect(text.contains("sigil_http_open_event_streams{server=\"dapp\",port=\"\(h.dappPort)\"} 0"))
        await h.stop()
    }

    @Test func noLogLineOfAFullApprovalAndSigningFlowHoldsAToken() async throws {
        let lines = Mutex<[String]>([])
        let h = try await Harness(logSink: { line in lines.withLock { $0.append(line) } })
        let client = String(repeating: "c", count: 64)
        let bearer = [Self.json, ("X-Sigil-Session", Self.session), ("Authorization", "Bearer \(client)")]
        // A client connects (approved by a person through the API, token in a header) and signs.
        #expect(
            try await h.post("pub(authorize.tab)", "{\"origin\":\"Backend\"}", origin: nil, headers: bearer).status
                == 202)
        let authorize = try #require(await h.service.pendingApprovals.first).id
        #expect(
            try await h.uiPost("/api/approve", "{\"id\":\(authorize),\"accounts\":[\"\(TestAccounts.alice.key)\"]}")
                .status == 200)
        #expect(
            try await h.post(
                "pub(bytes.sign)",
                "{\"address\":\"\(TestAccounts.alice.address)\",\"data\":\"0x02\",\"type\":\"bytes\"}",
                id: "r2", origin: nil, headers: bearer
            ).status == 202)
        let sign = try #require(await h.service.pendingApprovals.first).id
        #expect(try await h.uiPost("/api/approve", "{\"id\":\(sign)}").status == 200)
        // The token in a query string (userscript download, event stream) and in a refused call.
        _ = try await RawHTTPClient.send(
            port: h.uiPort, method: "GET", path: "/sigil.user.js?token=\(h.configuration.approvalToken)")
        _ = try await RawHTTPClient.send(
            port: h.uiPort, method: "GET", path: "/metrics", headers: [("Authorization", "Bearer \(client)")])
        await h.stop()

        let logged = lines.withLock { $0 }
        // The flow was logged (so this test can fail): access lines, the decision with its signature's scheme.
        #expect(logged.contains { $0.contains("\"message\":\"request\"") && $0.contains("\"route\":\"/v1/request\"") })
        // One line per decision, with the scheme of the signature it made.
        #expect(
            logged.contains { $0.contains("\"message\":\"approval decided\"") && $0.contains("\"scheme\":\"sr25519\"") })
        #expect(!logged.contains { $0.contains("\"message\":\"signed\"") })
        for secret in [h.configuration.approvalToken, h.configuration.relayToken, client] {
            #expect(!logged.contains { $0.contains(secret) }, "a log line holds a token")
        }
        #expect(!logged.contains { $0.contains("?token=") || $0.lowercased().contains("authorization") })
    }
}
