/// What a server calls for each request. `Router` is one; the `Gateway` module can wrap one with its
/// security gates.
///
/// Threading: `handle` runs on the connection's event-loop queue (the serial Dispatch queue of the
/// `EventLoop` that owns the connection, shared by every connection of that loop) and must not block:
/// a blocked handler stalls all of that loop's connections. A handler that needs time (an approval a
/// person gives minutes later) keeps the responder and calls it later from any thread; the
/// connection holds no thread meanwhile.
package protocol HTTPHandler: Sendable {
    /// Answers `request` through `responder` exactly once: `send(_:)` or `startEventStream(_:)`,
    /// now or later, from any thread.
    func handle(_ request: HTTPRequest, responder: HTTPResponder)
}
