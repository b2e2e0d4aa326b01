import PolkadotCodec
import Primitives

/// What Sigil established about a transaction's RFC-0078 metadata hash (`CheckMetadataHash`,
/// docs/reference/metadata-hash.md §10), shown as the "metadata hash" row of the summary.
///
/// With mode 1 the chain puts its own metadata hash into the data it checks the signature against,
/// so a signature over another hash is rejected. When that hash is the one Sigil computed from the
/// metadata it decoded the call with (``verified(_:)``, ``added(_:)``), the call the person reads is
/// the call the chain executes, or the transaction fails.
package enum MetadataHashStatus: Hashable, Sendable {
    /// Mode 0: the chain does not check which metadata the call was read with. `note` says why
    /// Sigil did not add the check, when it could have been a question.
    case notUsed(note: String?)
    /// Mode 1 with the hash Sigil computed from the approved metadata and chain properties.
    case verified([UInt8])
    /// The site sent mode 0; Sigil set mode 1 and its own hash before the person saw the request.
    case added([UInt8])
    /// Mode 1 with the site's hash, which Sigil could not compute itself (`reason`): the chain checks
    /// the site's hash, but nothing ties it to what is shown.
    case unverified([UInt8], reason: String)

    /// The status before any check against approved metadata (`sigil payload`, tests): mode 1 is
    /// unverified, mode 0 unused; a hash the payload's extension list does not sign is unverified.
    static func unchecked(_ payload: SignerPayload) -> MetadataHashStatus {
        guard let hash = payload.metadataHash else { return .notUsed(note: nil) }
        guard payload.signedExtensions.contains(MetadataHashCheck.extensionName) else {
            return .unverified(
                hash, reason: "CheckMetadataHash is not in the payload's extension list, so it is not signed")
        }
        return .unverified(hash, reason: "it was not compared with approved metadata")
    }

    /// The hash that is signed (`nil` for mode 0).
    package var hash: [UInt8]? {
        switch self {
        case .notUsed: nil
        case .verified(let h), .added(let h), .unverified(let h, _): h
        }
    }

    /// Whether the chain is guaranteed to read the call as Sigil shows it (or reject it).
    package var guaranteesDecoding: Bool {
        switch self {
        case .verified, .added: true
        case .notUsed, .unverified: false
        }
    }

    /// A stable name for JSON and logs: `notUsed`, `verified`, `added`, `unverified`.
    package var name: String {
        switch self {
        case .notUsed: "notUsed"
        case .verified: "verified"
        case .added: "added"
        case .unverified: "unverified"
        }
    }

    /// The summary row's text.
    package var text: String {
        let guarantee = "the chain rejects this transaction unless its own metadata reads the call as shown here"
        switch self {
        case .notUsed(let note):
            return "not used (mode 0): the chain does not check which metadata the call was read with"
                + (note.map { "; \($0)" } ?? "")
        case .verified(let hash):
            return "verified (CheckMetadataHash): \(guarantee) (hash \(Hex.encode(hash)), computed by Sigil)"
        case .added(let hash):
            return "added by Sigil (CheckMetadataHash mode 1, the site sent mode 0): \(guarantee) "
                + "(hash \(Hex.encode(hash)))"
        case .unverified(let hash, let reason):
            return "cannot verify the site's hash \(Hex.encode(hash)): \(reason); the chain checks it, "
                + "but the call shown here is not tied to it"
        }
    }

    /// Whether the row is a warning.
    package var isWarning: Bool {
        if case .unverified = self { return true }
        return false
    }
}
