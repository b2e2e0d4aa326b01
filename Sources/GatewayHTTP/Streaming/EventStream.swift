import Synchronization

/// A Server-Sent Events stream to one client. Send from any thread; sends after termination are
/// ignored. The stream ends when the client disconnects, when `close()` is called, when the server
/// shuts down, when it reaches `HTTPServerConfiguration.eventStreamMaxAge`, or when the client reads
/// too slowly (pending output over `eventStreamMaxPendingBytes`). `onTermination` is told once.
///
/// The server sends a `:` heartbeat comment after `eventStreamHeartbeat` without output.
package final class EventStream: Sendable {
    private struct State {
        var terminated = false
        var onTermination: (@Sendable () -> Void)?
    }

    /// The id the client last saw: the `Last-Event-ID` header, else the `lastEventID` query
    /// parameter (for clients that cannot set headers). Untrusted input, at most 1 KiB.
    package let lastEventID: String?
    private let connection: any ResponseSink
    private let state = Mutex(State())

    init(sink connection: any ResponseSink, lastEventID: String?) {
        self.connection = connection
        self.lastEventID = lastEventID
    }

    /// Whether the stream has ended.
    package var isTerminated: Bool { state.withLock { $0.terminated } }

    /// Sends one event.
    package func send(_ event: ServerSentEvent) {
        guard !isTerminated else { return }
        connection.streamWrite(event.serialized)
    }

    /// Sends a comment line (ignored by `EventSource`).
    package func sendComment(_ text: String) {
        guard !isTerminated else { return }
        connection.streamWrite(ServerSentEvent.comment(text))
    }

    /// Ends the stream after the events already sent are written.
    package func close() {
        guard !isTerminated else { return }
        connection.streamClose()
    }

    /// Registers the handler run once when the stream ends; runs at once if it already has.
    package func onTermination(_ handler: @escaping @Sendable () -> Void) {
        let runNow = state.withLock { s -> Bool in
            if s.terminated { return true }
            s.onTermination = handler
            return false
        }
        if runNow { handler() }
    }

    /// Called by the connection when the stream ended for any reason.
    func terminate() {
        let handler = state.withLock { s -> (@Sendable () -> Void)? in
            if s.terminated { return nil }
            s.terminated = true
            defer { s.onTermination = nil }
            return s.onTermination
        }
        handler?()
    }
}
