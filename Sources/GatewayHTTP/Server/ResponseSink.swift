/// Where a responder's reply goes: a `Connection`, or a capture used to run handlers without sockets.
protocol ResponseSink: Sendable {
    func deliver(_ response: HTTPResponse, sequence: UInt64)
    func beginStream(_ stream: EventStream, headers: HTTPHeaders, sequence: UInt64)
    func streamWrite(_ bytes: [UInt8])
    func streamClose()
    /// The route pattern that matched the request `sequence` (for observation); may be ignored.
    func noteRoute(_ pattern: String, sequence: UInt64)
}

extension Connection: ResponseSink {}
