/// A site asking to connect (`pub(authorize.tab)`).
package struct AuthorizationRequest: Sendable, Equatable {
    /// The dapp's self-declared name, sanitized (see ``AppName``). Display only.
    package var appName: AppName
    /// The ICONex Connect URL form (`GET /icon/connect`): the site's identity is the Referer's,
    /// which a plain link on another page can claim; the person is told so.
    package var fromLink: Bool

    /// Creates a request from the name the page sent (untrusted; sanitized here).
    package init(declaredName: String, fromLink: Bool = false) {
        appName = AppName(declared: declaredName)
        self.fromLink = fromLink
    }
}
