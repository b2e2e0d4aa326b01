import Gateway
import GatewayHTTP
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
}
