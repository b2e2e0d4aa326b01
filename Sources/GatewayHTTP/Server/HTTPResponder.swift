import Synchronization

/// The one-shot reply channel of a request. Call exactly one of `send(_:)` or
/// `startEventStream(headers:)`, now or later, from any thread; later calls are ignored.
///
/// If the client goes away (or the server shuts down) before the reply, the `onCancel` handler runs
/// once, so a pending approval can be withdrawn. If the responder is released without a reply, the
/// request is answered 500 so the connection never hangs.
package final class HTTPResponder: Sendable {
    private struct State {
        var answered = false
        var cancelled = false
        var onCancel: (@Sendable () -> Void)?
    }

    private let connection: any ResponseSink
    private let sequence: UInt64
    private let lastEventID: String?
    private let state = Mutex(State())

    init(sink connection: any ResponseSink, sequence: UInt64, lastEventID: String?) {
        self.connection = connection
        self.sequence = sequence
        self.lastEventID = lastEventID
    }

    deinit {
        let unanswered = state.withLock { !$0.answered && !$0.cancelled }
        if unanswered { connection.deliver(HTTPResponse(status: .internalServerError), sequence: sequence) }
    }

    /// Whether the client went away or the server is shutting down before a reply was sent.
    package var isCancelled: Bool { state.withLock { $0.cancelled } }

    /// Sends the response. Ignored after the first reply or after cancellation.
    package func send(_ response: HTTPResponse) {
        guard claim() else { return }
        connection.deliver(response, sequence: sequence)
    }

    /// Answers with `200 text/event-stream` and returns the stream to send events on
    /// (WHATWG HTML "Server-sent events"). `headers` are added to the response (CORS, …);
    /// `Content-Type`, `Cache-Control` and `X-Accel-Buffering` are set by the server.
    /// Returns `nil` when the request was already answered or cancelled.
    package func startEventStream(headers: HTTPHeaders = [:]) -> EventStream? {
        guard claim() else { return nil }
        let stream = EventStream(sink: connection, lastEventID: lastEventID)
        connection.beginStream(stream, headers: headers, sequence: sequence)
        return stream
    }

    /// Names the route that is answering (a `Router` pattern such as `/ui/:file`, never the raw
    /// path), for `HTTPServerConfiguration.observer`. The `Router` calls it; a handler that answers
    /// outside a router may too. The last call before the reply wins. Keep the set of names small
    /// (metrics use it as a label).
    package func noteRoute(_ pattern: String) {
        connection.noteRoute(pattern, sequence: sequence)
    }

    /// Registers the handler run once when the request is cancelled before it was answered.
    /// Runs immediately (on the calling thread) when that already happened.
    package func onCancel(_ handler: @escaping @Sendable () -> Void) {
        let runNow = state.withLock { s -> Bool in
            if s.cancelled { return true }
            if !s.answered { s.onCancel = handler }
            return false
        }
        if runNow { handler() }
    }

    /// Called by the connection when the client went away before the reply.
    func cancel() {
        let handler = state.withLock { s -> (@Sendable () -> Void)? in
            if s.answered || s.cancelled { return nil }
            s.cancelled = true
            defer { s.onCancel = nil }
            return s.onCancel
        }
        handler?()
    }

    private func claim() -> Bool {
        state.withLock { s in
            if s.answered || s.cancelled { return false }
            s.answered = true
            s.onCancel = nil
            return true
        }
    }
}
