import Synchronization

extension HTTPHandler {
    /// Runs the handler on `request` without any socket and returns its reply, so routes can be tested
    /// as "request value in, response value out". An event-stream reply returns its `200` head with
    /// the events sent synchronously by the handler as the body, and the stream is then ended.
    package func response(for request: HTTPRequest) async -> HTTPResponse {
        await withCheckedContinuation { (continuation: CheckedContinuation<HTTPResponse, Never>) in
            let sink = CapturingSink(continuation)
            let lastEventID = request.headers["Last-Event-ID"] ?? request.queryParameter("lastEventID")
            handle(request, responder: HTTPResponder(sink: sink, sequence: 1, lastEventID: lastEventID))
            sink.finishStreamIfOpen()
        }
    }
}

/// A sink that records the first reply and resumes a continuation with it.
final class CapturingSink: ResponseSink {
    private struct State {
        var continuation: CheckedContinuation<HTTPResponse, Never>?
        var stream: (EventStream, HTTPResponse)?
    }

    private let state: Mutex<State>

    init(_ continuation: CheckedContinuation<HTTPResponse, Never>) {
        state = Mutex(State(continuation: continuation))
    }

    func deliver(_ response: HTTPResponse, sequence: UInt64) {
        let continuation = state.withLock { s in
            defer { s.continuation = nil }
            return s.continuation
        }
        continuation?.resume(returning: response)
    }

    func beginStream(_ stream: EventStream, headers: HTTPHeaders, sequence: UInt64) {
        var response = HTTPResponse(status: .ok, headers: headers)
        response.headers.set("Content-Type", "text/event-stream; charset=utf-8")
        state.withLock { $0.stream = (stream, response) }
    }

    func streamWrite(_ bytes: [UInt8]) {
        state.withLock { s in s.stream?.1.body.append(contentsOf: bytes) }
    }

    func streamClose() { finishStreamIfOpen() }

    func noteRoute(_ pattern: String, sequence: UInt64) {}

    func finishStreamIfOpen() {
        let taken = state.withLock { s -> (EventStream, HTTPResponse, CheckedContinuation<HTTPResponse, Never>?)? in
            guard let (stream, response) = s.stream else { return nil }
            s.stream = nil
            defer { s.continuation = nil }
            return (stream, response, s.continuation)
        }
        guard let (stream, response, continuation) = taken else { return }
        stream.terminate()
        continuation?.resume(returning: response)
    }
}

extension HTTPHandler {
    /// Starts the handler on `request` without any socket and returns at once: the exchange shows
    /// the reply when one is sent, and ``HTTPTestExchange/drop()`` makes the client go away as a
    /// closed connection does (the responder's `onCancel` handler runs), so tests can check that
    /// work for a vanished client stops.
    package func start(_ request: HTTPRequest) -> HTTPTestExchange {
        let exchange = HTTPTestExchange()
        let responder = HTTPResponder(sink: exchange, sequence: 1, lastEventID: nil)
        exchange.responder.withLock { $0 = responder }
        handle(request, responder: responder)
        return exchange
    }
}

/// One request started by ``HTTPHandler/start(_:)``.
package final class HTTPTestExchange: ResponseSink {
    fileprivate let responder = Mutex<HTTPResponder?>(nil)
    private let answer = Mutex<HTTPResponse?>(nil)

    /// The reply, once sent (an event stream's head, when one was started).
    package var response: HTTPResponse? { answer.withLock { $0 } }

    /// The client goes away before the reply (nothing happens after one was sent).
    package func drop() {
        let responder = responder.withLock { r in
            defer { r = nil }
            return r
        }
        responder?.cancel()
    }

    func deliver(_ response: HTTPResponse, sequence: UInt64) {
        answer.withLock { if case .none = $0 { $0 = response } }
    }

    func beginStream(_ stream: EventStream, headers: HTTPHeaders, sequence: UInt64) {
        answer.withLock { if case .none = $0 { $0 = HTTPResponse(status: .ok, headers: headers) } }
    }

    func streamWrite(_ bytes: [UInt8]) {}
    func streamClose() {}
    func noteRoute(_ pattern: String, sequence: UInt64) {}
}
