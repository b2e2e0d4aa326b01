import COpenSSL
import Glibc
import Primitives
import Testing

@testable import GatewayHTTP

/// HTTPS through `HTTPServerConfiguration.tls`, with an OpenSSL client built in the test
/// (`TestClient+TLS.swift`) that trusts only the fixture's self-signed certificate. Part of the
/// serialized `HTTPServerTests` suite so that descriptor counts are not disturbed by other servers.
extension HTTPServerTests {
    static func tlsServer(
        _ fixture: TLSFixture, _ configure: @escaping (inout HTTPServerConfiguration) -> Void = { _ in },
        _ body: (HTTPServer) async throws -> Void
    ) async throws {
        try await withServer(
            {
                $0.tls = fixture.context
                configure(&$0)
            }, handler: HTTPServerTests.echoRouter(), body)
    }

    @Test func answersARequestOverTLS13WithTheSelfSignedCertificateVerified() async throws {
        let fixture = try TLSFixture()
        try await Self.tlsServer(fixture) { server in
            let client = try TestClient(port: server.port)
            try client.startTLS(trusting: fixture.certificatePath, host: "localhost")
            #expect(client.tlsVersion == TLS1_3_VERSION)
            try client.send("GET /hello HTTP/1.1\r\nHost: localhost\r\n\r\n")
            let response = try client.readResponse()
            #expect(response.status == 200 && response.text == "hello")
        }
    }

    @Test func negotiatesTLS12OnlyWithAnECDHEAEADCipher() async throws {
        let fixture = try TLSFixture()
        try await Self.tlsServer(fixture) { server in
            let client = try TestClient(port: server.port)
            try client.startTLS(trusting: fixture.certificatePath, maxVersion: TLS1_2_VERSION)
            #expect(client.tlsVersion == TLS1_2_VERSION)
            let cipher = client.tlsCipher
            #expect(cipher.hasPrefix("ECDHE-ECDSA-"))
            #expect(cipher.contains("GCM") || cipher.contains("CHACHA20-POLY1305"))
            try client.send("GET /path/twelve HTTP/1.1\r\nHost: localhost\r\n\r\n")
            #expect(try client.readResponse().text == "twelve")
        }
    }

    @Test(arguments: [TLS1_VERSION, TLS1_1_VERSION])
    func refusesProtocolsOlderThanTLS12(version: Int32) async throws {
        let fixture = try TLSFixture()
        try await Self.tlsServer(fixture) { server in
            let client = try TestClient(port: server.port)
            #expect(throws: TestClient.Failure.self) {
                try client.startTLS(trusting: fixture.certificatePath, minVersion: version, maxVersion: version)
            }
            #expect(await waitUntil { server.connectionCount == 0 })
        }
    }

    @Test func verifiesACertificateMadeForAnIPAddress() async throws {
        let fixture = try TLSFixture(host: "127.0.0.1")
        try await Self.tlsServer(fixture) { server in
            let client = try TestClient(port: server.port)
            try client.startTLS(trusting: fixture.certificatePath, host: nil, ip: "127.0.0.1")
            try client.send("GET /hello HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            #expect(try client.readResponse().text == "hello")
            let wrongName = try TestClient(port: server.port)
            #expect(throws: TestClient.Failure.self) {
                try wrongName.startTLS(trusting: fixture.certificatePath, host: "localhost")
            }
        }
    }

    @Test(arguments: [
        (["h2", "http/1.1"], "http/1.1"), (["http/1.1"], "http/1.1"), ([], ""), (["spdy/3", "x"], ""),
    ])
    func selectsHTTP11ByALPNOnlyWhenOffered(offered: [String], selected: String) async throws {
        let fixture = try TLSFixture()
        try await Self.tlsServer(fixture) { server in
            let client = try TestClient(port: server.port)
            try client.startTLS(trusting: fixture.certificatePath, alpn: offered)
            #expect(client.tlsALPN == selected)
            try client.send("GET /hello HTTP/1.1\r\nHost: localhost\r\n\r\n")
            #expect(try client.readResponse().text == "hello")
        }
    }

    @Test(
        arguments: [
            [], [0], [9, 0x68], [8, 0x68, 0x74, 0x74, 0x70, 0x2F, 0x31, 0x2E], [2, 0x68, 0x32, 0, 8],
            [2, 0x68, 0x32, 8, 0x68, 0x74, 0x74, 0x70, 0x2F, 0x31, 0x2E, 0x31],
        ] as [[UInt8]])
    func alpnParsingStaysInsideTheClientsList(list: [UInt8]) {
        var out: UnsafePointer<UInt8>?
        var length: UInt8 = 0
        let valid = list == [2, 0x68, 0x32, 8] + Array("http/1.1".utf8)
        // A sentinel byte after the list: the parser must not read it (count excludes it).
        let padded = list + [8]
        let result = padded.withUnsafeBufferPointer { buffer -> Int32 in
            guard let base = buffer.baseAddress else { return -1 }
            return TLSContext.selectHTTP11(base, list.count, &out, &length)
        }
        #expect(result == (valid ? SSL_TLSEXT_ERR_OK : SSL_TLSEXT_ERR_NOACK))
        #expect(length == (valid ? 8 : 0))
    }

    @Test func keepsAConnectionAliveAcrossRequestsAndPipelines() async throws {
        let fixture = try TLSFixture()
        try await Self.tlsServer(fixture) { server in
            let client = try TestClient(port: server.port)
            try client.startTLS(trusting: fixture.certificatePath)
            for i in 0..<3 {
                try client.send("GET /path/\(i) HTTP/1.1\r\nHost: localhost\r\n\r\n")
                #expect(try client.readResponse().text == "\(i)")
            }
            var batch = ""
            for i in 0..<10 { batch += "GET /path/p\(i) HTTP/1.1\r\nHost: a\r\n\r\n" }
            try client.send(batch)
            for i in 0..<10 { #expect(try client.readResponse().text == "p\(i)") }
            #expect(server.connectionCount == 1)
        }
    }

    /// 1 MiB through a 4 KiB receive window: the server's sends hit EAGAIN many times, so output
    /// goes through writability arming (EAGAIN) and back-pressure, on ciphertext.
    @Test func sendsAOneMebibyteResponseToASlowReader() async throws {
        let fixture = try TLSFixture()
        try await Self.tlsServer(fixture) { server in
            let client = try TestClient(port: server.port, receiveBuffer: 4096)
            try client.startTLS(trusting: fixture.certificatePath)
            try client.send("GET /big HTTP/1.1\r\nHost: localhost\r\n\r\n")
            let response = try client.readResponse(readChunk: 1000)
            #expect(response.status == 200)
            #expect(response.body == HTTPServerTests.bigBody)
            // And the connection is still usable afterwards.
            try client.send("POST /echo HTTP/1.1\r\nHost: a\r\nContent-Length: 100000\r\n\r\n")
            let body = [UInt8](repeating: 0x5A, count: 100_000)
            try client.send(body)
            #expect(try client.readResponse().body == body)
        }
    }

    /// Server-Sent Events over TLS: the first event, a heartbeat, an event from another thread, then
    /// the server ends the stream with close_notify (a clean end of a close-delimited body).
    @Test func streamsEventsOverTLSAndEndsThemWithCloseNotify() async throws {
        let fixture = try TLSFixture()
        let terminated = Shared(0)
        let streams = Shared<[EventStream]>([])
        try await withServer(
            {
                $0.tls = fixture.context
                $0.eventStreamHeartbeat = .milliseconds(50)
            }, handler: Self.streamRouter(terminated: terminated, streams: streams)
        ) { server in
            let client = try TestClient(port: server.port)
            try client.startTLS(trusting: fixture.certificatePath)
            try client.send("GET /events HTTP/1.1\r\nHost: a\r\n\r\n")
            let start = try client.readUntil("line two\n\n")
            #expect(start.hasPrefix("HTTP/1.1 200 OK\r\n"))
            #expect(try client.readUntil(":\n\n") == ":\n\n")
            let stream = try #require(streams.current.first)
            stream.send(ServerSentEvent(id: "7", data: "later"))
            #expect(try client.readUntil("data: later\n\n").contains("id: 7\n"))
            stream.close()
            _ = try client.readUntilClosed()
            #expect(client.receivedCloseNotify)
            #expect(await waitUntil { server.connectionCount == 0 && terminated.current == 1 })
        }
    }

    @Test func closesWithCloseNotifyAfterConnectionClose() async throws {
        let fixture = try TLSFixture()
        try await Self.tlsServer(fixture) { server in
            let client = try TestClient(port: server.port)
            try client.startTLS(trusting: fixture.certificatePath)
            try client.send("GET /hello HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
            #expect(try client.readResponse().text == "hello")
            #expect(try client.readUntilClosed().isEmpty)
            #expect(client.receivedCloseNotify)
            #expect(await waitUntil { server.connectionCount == 0 })
        }
    }

    /// Plain HTTP on the TLS port: OpenSSL recognises an HTTP request line (or fails on bytes that are
    /// not a TLS record) and the server closes with an orderly FIN and not one byte back — no
    /// plaintext error page a client could mistake for an answer, no reset. curl reports "Empty reply
    /// from server" (exit 52; scripts/test.d/45-tls.sh).
    @Test(arguments: [
        "GET /hello HTTP/1.1\r\nHost: localhost\r\n\r\n",
        "POST /echo HTTP/1.1\r\nHost: localhost\r\nContent-Length: 5\r\n\r\nhello",
        "HEAD / HTTP/1.0\r\n\r\n", "PUT /x HTTP/1.1\r\nHost: a\r\nContent-Length: 0\r\n\r\n",
        "DELETE /x HTTP/1.1\r\nHost: a\r\n\r\n", "OPTIONS * HTTP/1.1\r\nHost: a\r\n\r\n",
        "CONNECT localhost:443 HTTP/1.1\r\nHost: localhost:443\r\n\r\n",
    ])
    func refusesPlainHTTPOnTheTLSPortWithAnEmptyOrderlyClose(request: String) async throws {
        let fixture = try TLSFixture()
        try await Self.tlsServer(fixture) { server in
            let plain = try TestClient(port: server.port)
            try plain.send(request)
            let (reply, reset) = try plain.readRawUntilClosed()
            #expect(reply.isEmpty)
            #expect(!reset)
            #expect(await waitUntil { server.connectionCount == 0 })
            // The server is unharmed.
            let client = try TestClient(port: server.port)
            try client.startTLS(trusting: fixture.certificatePath)
            try client.send("GET /hello HTTP/1.1\r\nHost: localhost\r\n\r\n")
            #expect(try client.readResponse().text == "hello")
        }
    }

    /// A TLS record the handshake cannot accept is answered with exactly one fatal alert record
    /// (RFC 8446 §6.2: content type 21, TLS 1.2 record version, level fatal) and an orderly close.
    @Test(
        arguments: [
            // A handshake record carrying a HelloRequest (type 0) from a client: unexpected_message (10).
            ([0x16, 0x03, 0x01, 0x00, 0x05, 0x00, 0x00, 0x00, 0x00, 0x00], 10),
            // A ClientHello whose body is one byte of a declared 0x0001FF: decode_error (50).
            ([0x16, 0x03, 0x01, 0x00, 0x05, 0x01, 0x00, 0x00, 0x01, 0xFF], 50),
        ] as [([UInt8], UInt8)])
    func answersABadHandshakeRecordWithOneFatalAlert(record: [UInt8], alert: UInt8) async throws {
        let fixture = try TLSFixture()
        try await Self.tlsServer(fixture) { server in
            let client = try TestClient(port: server.port)
            try client.send(record)
            let (reply, reset) = try client.readRawUntilClosed()
            #expect(reply == [0x15, 0x03, 0x03, 0x00, 0x02, 0x02, alert])
            #expect(!reset)
            #expect(await waitUntil { server.connectionCount == 0 })
        }
    }

    /// Deadlines for the stall tests: the header deadline is short and every other one is far longer
    /// than the client's 10 s socket timeout, so a close in time can only come from the header
    /// deadline (which starts at accept and covers the handshake).
    static func handshakeDeadlines(_ configuration: inout HTTPServerConfiguration) {
        configuration.headerTimeout = .milliseconds(200)
        configuration.bodyTimeout = .seconds(60)
        configuration.idleTimeout = .seconds(60)
        configuration.writeStallTimeout = .seconds(60)
    }

    /// Nothing, a TLS record header and part of a ClientHello, or a whole ClientHello, then nothing:
    /// the header deadline closes the connection (no alert, no plaintext), well before any client
    /// timeout.
    @Test(arguments: [0, 9, -1])
    func reapsAClientThatStallsBeforeTheServerFlightByTheHeaderDeadline(sentBytes: Int) async throws {
        let fixture = try TLSFixture()
        let hello = try TestClient.clientHello()
        #expect(hello.count > 100 && hello.starts(with: [0x16, 0x03]))
        try await Self.tlsServer(fixture, Self.handshakeDeadlines) { server in
            let before = ContinuousClock.now
            let client = try TestClient(port: server.port)
            let partialHello: [UInt8] = [0x16, 0x03, 0x01, 0x02, 0x00, 0x01, 0x00, 0x01, 0xFC]
            let sent = sentBytes < 0 ? Array(hello.dropLast()) : Array(partialHello.prefix(sentBytes))
            if !sent.isEmpty { try client.send(sent) }
            #expect(await waitUntil { server.connectionCount == 1 })
            try await Self.expectSilentCloseAtTheHandshakeDeadline(client, server: server, since: before)
        }
    }

    /// The server closed `client` by its 200 ms header deadline (not the client's timeout, not
    /// immediately): no bytes sent back, an orderly close (FIN, not a reset), the connection gone.
    static func expectSilentCloseAtTheHandshakeDeadline(
        _ client: TestClient, server: HTTPServer, since start: ContinuousClock.Instant
    ) async throws {
        let (reply, reset) = try client.readRawUntilClosed()
        let elapsed = ContinuousClock.now - start
        #expect(reply.isEmpty)
        #expect(!reset)
        #expect(elapsed >= .milliseconds(200) && elapsed < .seconds(5))
        #expect(await waitUntil { server.connectionCount == 0 })
    }

    /// A real client that gets the server's whole flight (ServerHello … Finished) and never sends
    /// its own Finished: stalled mid-handshake, reaped by the header deadline with nothing more sent.
    @Test func reapsAClientThatWithholdsItsFinishedByTheHeaderDeadline() async throws {
        let fixture = try TLSFixture()
        try await Self.tlsServer(fixture, Self.handshakeDeadlines) { server in
            let before = ContinuousClock.now
            let client = try TestClient(port: server.port)
            let flight = try client.handshakeWithholdingClientFinished()
            #expect(flight > 300)  // certificate, CertificateVerify, Finished
            try await Self.expectSilentCloseAtTheHandshakeDeadline(client, server: server, since: before)
        }
    }

    /// Handshake bytes do not extend the deadline: a client that keeps trickling its ClientHello one
    /// byte at a time (a slowloris on the handshake) is closed by the header deadline from accept.
    @Test func reapsAClientThatTricklesItsClientHelloDespiteItsActivity() async throws {
        let fixture = try TLSFixture()
        let hello = try TestClient.clientHello()
        try await Self.tlsServer(fixture, Self.handshakeDeadlines) { server in
            let before = ContinuousClock.now
            let client = try TestClient(port: server.port)
            var closedByServer = false
            for byte in hello.dropLast() {
                guard (try? client.send([byte])) != nil else {
                    closedByServer = true
                    break
                }
                // One byte every 20 ms unless the server has closed meanwhile.
                if client.becomesReadable(withinMilliseconds: 20) {
                    closedByServer = true
                    break
                }
            }
            let elapsed = ContinuousClock.now - before
            #expect(closedByServer)
            #expect(elapsed >= .milliseconds(200) && elapsed < .seconds(5))
            #expect(await waitUntil { server.connectionCount == 0 })
        }
    }

    /// A handshake that completes and then no request: the same header deadline, then an orderly
    /// TLS close (close_notify), since the handshake finished.
    @Test func reapsAClientThatSendsNoRequestAfterTheHandshakeWithCloseNotify() async throws {
        let fixture = try TLSFixture()
        try await Self.tlsServer(fixture, Self.handshakeDeadlines) { server in
            let before = ContinuousClock.now
            let client = try TestClient(port: server.port)
            try client.startTLS(trusting: fixture.certificatePath)
            #expect(try client.readUntilClosed().isEmpty)
            let elapsed = ContinuousClock.now - before
            #expect(client.receivedCloseNotify)
            #expect(elapsed >= .milliseconds(200) && elapsed < .seconds(5))
            #expect(await waitUntil { server.connectionCount == 0 })
        }
    }

    /// Over the connection cap a plain server answers 503 in plaintext; a TLS client would read that
    /// as a bad record, so the TLS server just closes.
    @Test func closesWithoutPlaintextAboveTheConnectionCap() async throws {
        let fixture = try TLSFixture()
        try await Self.tlsServer(fixture, { $0.maxConnections = 1 }) { server in
            let first = try TestClient(port: server.port)
            try first.startTLS(trusting: fixture.certificatePath)
            try first.send("GET /hello HTTP/1.1\r\nHost: a\r\n\r\n")
            #expect(try first.readResponse().text == "hello")
            let second = try TestClient(port: server.port)
            #expect(try second.readUntilClosed().isEmpty)
            // The first connection is unaffected.
            try first.send("GET /path/again HTTP/1.1\r\nHost: a\r\n\r\n")
            #expect(try first.readResponse().text == "again")
        }
    }

    @Test func keepsTheDescriptorCountStableOverManyTLSConnections() async throws {
        let fixture = try TLSFixture()
        try await Self.tlsServer(fixture) { server in
            let warmUp = try TestClient(port: server.port)
            try warmUp.startTLS(trusting: fixture.certificatePath)
            try warmUp.send("GET /hello HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n")
            _ = try warmUp.readResponse()
            #expect(await waitUntil { server.connectionCount == 0 })
            let before = openSocketCount(localPort: server.port)
            #expect(before >= 1)  // the listening socket(s)
            for i in 0..<60 {
                let client = try TestClient(port: server.port)
                if i % 3 == 2 {
                    // Every third one leaves mid-handshake.
                    try client.send([0x16, 0x03, 0x01])
                    continue
                }
                try client.startTLS(trusting: fixture.certificatePath)
                try client.send("GET /hello HTTP/1.1\r\nHost: a\r\n\r\n")
                #expect(try client.readResponse().text == "hello")
            }
            #expect(await waitUntil { server.connectionCount == 0 })
            #expect(await waitUntil { openSocketCount(localPort: server.port) == before })
        }
    }

    // MARK: Loading certificates and keys

    enum BadFile: String, CaseIterable {
        case missingCertificate, garbageCertificate, keyAsCertificate, missingKey, garbageKey, certificateAsKey,
            mismatchedKey, encryptedKey
    }

    @Test(arguments: BadFile.allCases)
    func badCertificateOrKeyFilesThrowTypedErrorsNamingTheFile(_ bad: BadFile) throws {
        let fixture = try TLSFixture()
        let garbage = fixture.directory + "/garbage.pem"
        try TLSFixture.write(
            Array("-----BEGIN CERTIFICATE-----\nnot base64!\n-----END CERTIFICATE-----\n".utf8), to: garbage)
        let other = fixture.directory + "/other.pem"
        try TLSFixture.write(try SelfSignedCertificate.generate(host: "localhost").privateKeyPEM, to: other)
        let encrypted = fixture.directory + "/encrypted.pem"
        try fixture.writeEncryptedKey(to: encrypted)
        let missing = fixture.directory + "/missing.pem"
        let (certificate, key, code, named): (String, String, HTTPError.Code, String) =
            switch bad {
            case .missingCertificate: (missing, fixture.keyPath, .tlsCertificateLoadFailed, missing)
            case .garbageCertificate: (garbage, fixture.keyPath, .tlsCertificateLoadFailed, garbage)
            case .keyAsCertificate: (fixture.keyPath, fixture.keyPath, .tlsCertificateLoadFailed, fixture.keyPath)
            case .missingKey: (fixture.certificatePath, missing, .tlsKeyLoadFailed, missing)
            case .garbageKey: (fixture.certificatePath, garbage, .tlsKeyLoadFailed, garbage)
            case .certificateAsKey:
                (fixture.certificatePath, fixture.certificatePath, .tlsKeyLoadFailed, fixture.certificatePath)
            case .mismatchedKey: (fixture.certificatePath, other, .tlsKeyMismatch, other)
            // Refused without a passphrase prompt.
            case .encryptedKey: (fixture.certificatePath, encrypted, .tlsKeyLoadFailed, encrypted)
            }
        let error = #expect(throws: HTTPError.self) {
            try TLSContext(certificateFile: certificate, keyFile: key)
        }
        #expect(error?.code == code)
        #expect(error?.reason.contains(named) == true)
    }

    @Test(arguments: ["", "a/b", "-leading", "trailing-", "a..b", "a_b", "ex ample", String(repeating: "a", count: 64)])
    func selfSignedRejectsHostsThatAreNotNamesOrAddresses(_ host: String) {
        #expect(throws: HTTPError(.invalidInput, "")) { try SelfSignedCertificate.generate(host: host) }
    }

    @Test func selfSignedRejectsAValidityOutsideOneTo825Days() {
        #expect(throws: HTTPError(.invalidInput, "")) { try SelfSignedCertificate.generate(host: "a", days: 0) }
        #expect(throws: HTTPError(.invalidInput, "")) { try SelfSignedCertificate.generate(host: "a", days: 826) }
    }

    @Test func selfSignedMakesAFreshKeyEveryTime() throws {
        let first = try SelfSignedCertificate.generate(host: "sigil.lan")
        let second = try SelfSignedCertificate.generate(host: "sigil.lan")
        #expect(first.privateKeyPEM != second.privateKeyPEM)
        #expect(first.certificatePEM.starts(with: Array("-----BEGIN CERTIFICATE-----".utf8)))
        #expect(first.privateKeyPEM.starts(with: Array("-----BEGIN PRIVATE KEY-----".utf8)))
    }
}
