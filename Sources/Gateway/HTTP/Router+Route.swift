import GatewayHTTP

extension Router {
    /// `on(method, pattern, handler:)` with an unambiguous trailing closure.
    mutating func route(_ method: HTTPMethod, _ pattern: String, _ handler: @escaping Handler) {
        on(method, pattern, handler: handler)
    }
}
