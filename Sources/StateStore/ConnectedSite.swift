import Journal
import Keystore
/// A web origin the user connected, and the accounts it may see.
///
/// `origin` is the full serialised origin (`scheme://host[:port]`) the gateway took from the browser's
/// `Origin` header; the store treats it as an opaque key and does not normalise it.
package struct ConnectedSite: Sendable, Hashable, Codable {
    /// Full origin, e.g. `https://polkadot.js.org`.
    package var origin: String
    /// The name the dapp gave in `web3Enable(name)` (display only, untrusted).
    package var name: String
    /// Addresses the site may see, in the order the user chose them.
    package var accounts: [String]
    /// When the site was first authorized, milliseconds since 1970.
    package var authorizedAt: Int64
    /// When the authorization last changed, milliseconds since 1970.
    package var updatedAt: Int64
    /// The store's revision of this site's last change (see ``SiteChange``); 0 when not stored.
    package var revision: Int64

    /// Creates a value.
    package init(
        origin: String, name: String, accounts: [String], authorizedAt: Int64, updatedAt: Int64, revision: Int64 = 0
    ) {
        self.origin = origin
        self.name = name
        self.accounts = accounts
        self.authorizedAt = authorizedAt
        self.updatedAt = updatedAt
        self.revision = revision
    }
}
