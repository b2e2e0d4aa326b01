import Primitives
extension HTTPError {
    /// The status the server answers a request with when parsing it failed with this error, or `nil`
    /// for errors that are not about a request (configuration, bind, files).
    package var responseStatus: HTTPStatus? {
        switch code {
        case .badRequest, .invalidInput: return .badRequest
        case .uriTooLong: return .uriTooLong
        case .headersTooLarge: return .requestHeaderFieldsTooLarge
        case .bodyTooLarge: return .contentTooLarge
        case .notImplemented: return .notImplemented
        case .versionNotSupported: return .httpVersionNotSupported
        case .expectationFailed: return .expectationFailed
        default: return nil
        }
    }
}
