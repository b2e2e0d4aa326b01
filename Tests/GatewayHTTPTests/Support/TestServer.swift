import Logging
import Synchronization

@testable import GatewayHTTP

/// Starts a server on 127.0.0.1 port 0 with `router`, runs `body`, then shuts it down.
func withServer(
    _ configure: (inout HTTPServerConfiguration) -> Void = { _ in },
    handler: any HTTPHandler,
    _ body: (HTTPServer) async throws -> Void
) async throws {
    var configuration = HTTPServerConfiguration()
    configuration.bindAddress = .host("127.0.0.1")
    configuration.port = 0
    configuration.shutdownGracePeriod = .seconds(2)
    configure(&configuration)
    let server = HTTPServer(configuration: configuration, handler: handler, logger: Logger(label: "test"))
    try server.start()
    do {
        try await body(server)
    } catch {
        await server.shutdown()
        throw error
    }
    await server.shutdown()
}

/// A lock-protected value for test handlers that run on connection queues.
final class Shared<Value: Sendable>: Sendable {
    private let locked: Mutex<Value>
    init(_ value: Value) { locked = Mutex(value) }
    var current: Value { locked.withLock { $0 } }
    func update(_ change: (inout Value) -> Void) { locked.withLock { change(&$0) } }
}
