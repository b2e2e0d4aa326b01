/// A source (site origin or token client) a person has connected, and the accounts it may see.
///
/// `accounts` holds account keys (lower-case hex public keys, `0x…`), never addresses, so that a
/// dapp re-encoding an address with another SS58 prefix still matches (extension-dapp
/// `web3Accounts` re-encodes every address).
package struct AuthorizedSite: Sendable, Equatable, Codable {
    /// The site's origin (`scheme://host[:port]`) or `client:NAME` for a bearer-token client.
    package var source: String
    /// The name the dapp gave itself in `web3Enable` (sanitized; display only, never trusted).
    package var appName: String
    /// Account keys the source may list and ask signatures from, in the order the person chose.
    package var accounts: [String]

    /// Creates a record.
    package init(source: String, appName: String, accounts: [String]) {
        self.source = source
        self.appName = appName
        self.accounts = accounts
    }
}
