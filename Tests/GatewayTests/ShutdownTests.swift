import Testing

@testable import Gateway

/// `sigil serve` on SIGTERM ends the dapp side's waits before its servers' grace period
/// (`GatewayService.endEventStreams`, called by ServeCommand before the servers shut down).
@Suite struct ShutdownTests {
    /// A long-poll held for its full hold answers at once, with no events, and so does every later
    /// one (the time limit only guards against a hang).
    @Test(.timeLimit(.minutes(5))) func aHeldLongPollAnswersAtShutdown() async throws {
        let g = try await ProtocolSeamTests.gateway()
        let tab = ClientIdentity(source: Fixture.site, session: "poll-tab-0001")
        #expect(try await g.service.keptEvents(for: tab, after: nil).isEmpty)
        let stream = try await g.service.events(for: tab, after: nil)
        let held = Task { await DappHandler.first(of: stream, within: .seconds(3600)) }
        await g.service.endEventStreams()
        #expect(await held.value.isEmpty)
        let later = try await g.service.events(for: tab, after: nil)
        #expect(await DappHandler.first(of: later, within: .seconds(3600)).isEmpty)
    }

    /// An event stream (the SSE twin) ends too: its iterator finishes instead of waiting.
    @Test(.timeLimit(.minutes(5))) func anOpenEventStreamEndsAtShutdown() async throws {
        let g = try await ProtocolSeamTests.gateway()
        let tab = ClientIdentity(source: Fixture.site, session: "sse-tab-0001")
        let stream = try await g.service.events(for: tab, after: nil)
        await g.service.endEventStreams()
        var iterator = stream.makeAsyncIterator()
        #expect(await iterator.next() == nil)
    }
}
