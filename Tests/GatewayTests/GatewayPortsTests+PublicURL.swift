import Gateway
import GatewayHTTP
import Testing

/// A published port that is not the container's own (`docker run -p 19715:9715`): browsers send
/// `Host: 127.0.0.1:19715` to a server listening on another port. Refused with a 403 that names
/// `--public-url` unless that URL is declared (issue 26).
extension GatewayPortsTests {
    @Test func aRemappedPortIsRefusedWithAnExplanationThatNamesTheOption() async throws {
        let h = try await Harness()
        let refused = try await RawHTTPClient.send(
            port: h.dappPort, method: "GET", path: "/bridge.js",
            headers: [("Origin", "https://dapp.example"), ("X-Sigil-Session", "session-<b>secret</b>")],
            host: "127.0.0.1:19715")
        #expect(refused.status == 403)
        #expect(refused.header("Content-Type") == "text/plain; charset=utf-8")
        let text = String(decoding: refused.body, as: UTF8.self)
        #expect(text.contains("--public-url http://127.0.0.1:19715"))
        #expect(text.contains("SIGIL_PUBLIC_URL"))
        // Nothing the client sent but the Host value comes back.
        #expect(!text.contains("dapp.example") && !text.contains("secret"))

        let ui = try await RawHTTPClient.send(port: h.uiPort, method: "GET", path: "/", host: "127.0.0.1:19716")
        #expect(ui.status == 403)
        #expect(String(decoding: ui.body, as: UTF8.self).contains("--public-ui-url http://127.0.0.1:19716"))
        #expect(ui.header("X-Frame-Options") != nil || ui.header("Content-Security-Policy") != nil)
        await h.stop()
    }

    @Test func aDeclaredPublicURLAdmitsItsHostOnEitherPort() async throws {
        let h = try await Harness(
            publicURLs: ["http://127.0.0.1:19715", "https://sigil.example"], publicUIURLs: ["http://127.0.0.1:19716"])
        for host in ["127.0.0.1:19715", "sigil.example", "sigil.example:443", "127.0.0.1:\(h.dappPort)"] {
            let response = try await RawHTTPClient.send(port: h.dappPort, method: "GET", path: "/bridge.js", host: host)
            #expect(response.status == 200, "\(host)")
        }
        for host in ["127.0.0.1:19716", "sigil.example:80", "127.0.0.2:19715", "localhost:19715"] {
            let response = try await RawHTTPClient.send(port: h.dappPort, method: "GET", path: "/bridge.js", host: host)
            #expect(response.status == 403, "\(host)")
        }
        // The approval port takes only its own public URL; its same-origin check follows the Host.
        #expect(
            try await RawHTTPClient.send(port: h.uiPort, method: "GET", path: "/", host: "127.0.0.1:19716").status
                == 200)
        #expect(
            try await RawHTTPClient.send(port: h.uiPort, method: "GET", path: "/", host: "127.0.0.1:19715").status
                == 403)
        await h.stop()
    }
}
