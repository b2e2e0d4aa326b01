/// A site asking to connect (`pub(authorize.tab)`).
public struct AuthorizationRequest: Sendable, Equatable {
    /// The dapp's self-declared name, sanitized (see ``AppName``). Display only.
    public var appName: AppName

    /// Creates a request from the name the page sent (untrusted; sanitized here).
    public init(declaredName: String) { appName = AppName(declared: declaredName) }
}
