import Journal
import Keystore
/// The state of one origin as of a revision of the store: connected (`site`), or revoked (`site`
/// nil, a tombstone). Revisions come from one counter per database, taken by every site change in
/// its own transaction, so they increase in commit order across processes; each origin keeps only
/// its latest one.
package struct SiteChange: Sendable, Hashable {
    /// The site's origin.
    package var origin: String
    /// The revision of the origin's latest change.
    package var revision: Int64
    /// The connected site, or nil when the latest change revoked it.
    package var site: ConnectedSite?

    /// Creates a value.
    package init(origin: String, revision: Int64, site: ConnectedSite?) {
        self.origin = origin
        self.revision = revision
        self.site = site
    }
}

/// The site changes after a revision (oldest first), read in one transaction together with the
/// store's revision at that moment: every change up to `revision` is reflected in `changes` or
/// was at or below the revision asked about.
package struct SiteChanges: Sendable, Hashable {
    /// One entry per origin changed after the revision asked about.
    package var changes: [SiteChange]
    /// The store's revision when they were read (the next `after:`).
    package var revision: Int64

    /// Creates a value.
    package init(changes: [SiteChange], revision: Int64) {
        self.changes = changes
        self.revision = revision
    }
}
