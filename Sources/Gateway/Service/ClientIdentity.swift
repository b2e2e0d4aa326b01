/// Who sent a request, as established by the HTTP layer (never by the message body): the site's
/// `Origin` (browser), the origin a trusted relay (the userscript) vouches for, or a named
/// bearer-token client. `source` is the key authorizations are stored under.
package struct ClientIdentity: Sendable, Equatable, Hashable {
    /// The authorization key: a serialized origin (`https://app.example:8443`) or `client:NAME`.
    package let source: String
    /// The tab (bridge session) or client session the request belongs to.
    package let session: String

    /// Creates an identity.
    package init(source: String, session: String) {
        self.source = source
        self.session = session
    }

    /// Whether a session id is acceptable: 8…64 characters of `[A-Za-z0-9_-]`.
    package static func isValidSession(_ s: String) -> Bool {
        (8...64).contains(s.utf8.count)
            && s.utf8.allSatisfy {
                ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x41 && $0 <= 0x5A) || ($0 >= 0x61 && $0 <= 0x7A) || $0 == 0x2D
                    || $0 == 0x5F
            }
    }
}
