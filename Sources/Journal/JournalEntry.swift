import Keystore
import Primitives
/// One record of the signing journal: a request that reached a person or an automatic rule, what
/// was decided, and its place in the hash chain (docs/journal.md).
///
/// Entries never hold secrets, nor more of a payload than the person saw (``JournalShown`` is capped).
/// Text fields are kept exactly as given (their UTF-8 bytes are hashed); digests are 32-byte
/// BLAKE2b-256 values or empty.
package struct JournalEntry: Sendable, Equatable {
    /// What a caller appends; the journal adds the sequence number, time and the chain.
    package struct Content: Sendable, Equatable {
        /// `polkadot` (later `icon`, `icp`), or `sigil` for the journal's own entries (its key).
        package var protocolName: String
        /// The wire method, e.g. `pub(extrinsic.sign)`.
        package var method: String
        /// The site's origin (`https://app.example`) or a token client's source name.
        package var origin: String
        /// The name the site gave itself (sanitized), or empty.
        package var appName: String
        /// The account asked to sign (an SS58 address with the generic prefix), or empty.
        package var account: String
        /// One of ``JournalDecision``'s raw values (kept as text so that a stored value is hashed as found).
        package var decision: String
        /// A short explanation: the rule that refused, granted accounts, why signing failed. Never secret.
        package var detail: String
        /// BLAKE2b-256 of every row the person was shown, uncapped (``JournalShown/digest(of:)``), or empty.
        package var summaryDigest: [UInt8]
        /// BLAKE2b-256 of exactly what was signed (the signed bytes, or their hash when they were
        /// hashed first) or stored (a metadata definition), or empty.
        package var subjectDigest: [UInt8]
        /// The signature delivered (the SCALE `MultiSignature` for a transaction, the raw signature
        /// for a message), or empty.
        package var result: [UInt8]
        /// Whether `shown` was cut at the configured cap.
        package var shownTruncated: Bool
        /// The shown rows as encoded by ``JournalShown/encode(_:)`` (capped).
        package var shown: [UInt8]

        package init(
            protocolName: String, method: String, origin: String, appName: String, account: String,
            decision: String, detail: String, summaryDigest: [UInt8], subjectDigest: [UInt8], result: [UInt8],
            shownTruncated: Bool, shown: [UInt8]
        ) {
            self.protocolName = protocolName
            self.method = method
            self.origin = origin
            self.appName = appName
            self.account = account
            self.decision = decision
            self.detail = detail
            self.summaryDigest = summaryDigest
            self.subjectDigest = subjectDigest
            self.result = result
            self.shownTruncated = shownTruncated
            self.shown = shown
        }

        /// The shown rows decoded, or nil when the stored bytes do not decode (a damaged entry).
        package var shownRows: [JournalShown.Row]? { try? JournalShown.decode(shown) }
    }

    /// 1, 2, 3, … in chain order.
    package var seq: UInt64
    /// When the entry was appended: milliseconds since 1970-01-01 UTC.
    package var time: Int64
    /// The previous entry's hash (32 zero bytes for the first).
    package var previousHash: [UInt8]
    /// The fields.
    package var content: Content
    /// BLAKE2b-256 of the entry's canonical encoding (``JournalCodec/entryBytes(seq:time:previousHash:content:)``).
    package var hash: [UInt8]

    package init(seq: UInt64, time: Int64, previousHash: [UInt8], content: Content, hash: [UInt8]) {
        self.seq = seq
        self.time = time
        self.previousHash = previousHash
        self.content = content
        self.hash = hash
    }

    /// The entry after `previous` (nil: the first), with its hash computed.
    package static func sealed(_ content: Content, after previous: (seq: UInt64, hash: [UInt8])?, time: Int64)
        -> JournalEntry
    {
        let seq = (previous?.seq ?? 0) + 1
        let prev = previous?.hash ?? JournalCodec.zeroHash
        let hash = JournalCodec.hash(
            JournalCodec.entryBytes(seq: seq, time: time, previousHash: prev, content: content))
        return JournalEntry(seq: seq, time: time, previousHash: prev, content: content, hash: hash)
    }
}

/// What happened to a request (the `decision` field).
package enum JournalDecision: String, Sendable, CaseIterable {
    /// A person approved.
    case approved
    /// Approved without asking (`sigil serve --dev --auto-approve`).
    case autoApproved = "auto-approved"
    /// A person rejected.
    case rejected
    /// Nobody decided before the approval timeout.
    case expired
    /// The request went away undecided: the site was revoked or its tab closed.
    case cancelled
    /// A rule refused it before a person saw it (deny list, queue bound, account not granted, invalid payload).
    case refused
    /// The journal's own entry introducing its checkpoint key (`account` holds the public key).
    case key
}

/// The rows a person was shown, their canonical encoding, digest and cap (docs/journal.md §3).
package enum JournalShown {
    /// One labelled line, as on the approval page.
    package struct Row: Sendable, Equatable {
        package var label: String
        package var value: String
        package var warning: Bool
        package init(_ label: String, _ value: String, warning: Bool = false) {
            self.label = label
            self.value = value
            self.warning = warning
        }
    }

    /// `count u32 ‖ (label str ‖ value str ‖ flags u8)*` (str = u32 length ‖ UTF-8; big-endian).
    package static func encode(_ rows: [Row]) -> [UInt8] {
        var out: [UInt8] = []
        JournalCodec.appendU32(UInt32(truncatingIfNeeded: rows.count), to: &out)
        for row in rows {
            JournalCodec.appendString(row.label, to: &out)
            JournalCodec.appendString(row.value, to: &out)
            out.append(row.warning ? 1 : 0)
        }
        return out
    }

    /// Decodes ``encode(_:)``'s bytes.
    /// - Throws: `.malformedFile` when they are not exactly such an encoding.
    package static func decode(_ bytes: [UInt8]) throws(JournalError) -> [Row] {
        var reader = JournalCodec.Reader(bytes)
        let count = try reader.u32()
        var rows: [Row] = []
        for _ in 0..<count {
            let label = try reader.string()
            let value = try reader.string()
            let flags = try reader.u8()
            guard flags <= 1 else { throw JournalError(.malformedFile, "journal shown row: flags \(flags)") }
            rows.append(Row(label, value, warning: flags == 1))
        }
        guard reader.isAtEnd else { throw JournalError(.malformedFile, "journal shown rows: trailing bytes") }
        return rows
    }

    /// BLAKE2b-256(`"SGJS" ‖ 0x01 ‖ encode(rows)`): the digest of exactly what was shown.
    package static func digest(of rows: [Row]) -> [UInt8] { digest(ofEncoded: encode(rows)) }

    /// ``digest(of:)`` of rows already encoded by ``encode(_:)``.
    package static func digest(ofEncoded encoded: [UInt8]) -> [UInt8] {
        var bytes = digestPrefix
        bytes.reserveCapacity(digestPrefix.count + encoded.count)
        bytes += encoded
        return JournalCodec.hash(bytes)
    }

    private static let digestPrefix = Array("SGJS".utf8) + [1]

    /// The rows kept under a cap of `limit` bytes of label and value text: rows in order until the
    /// cap; the row that crosses it keeps its label when the label fits and its value cut at a
    /// character boundary; later rows are dropped. - Returns: the kept rows and whether anything was cut.
    package static func capped(_ rows: [Row], limit: Int) -> (rows: [Row], truncated: Bool) {
        var budget = max(0, limit)
        var kept: [Row] = []
        for row in rows {
            let size = row.label.utf8.count + row.value.utf8.count
            if size <= budget {
                kept.append(row)
                budget -= size
                continue
            }
            if row.label.utf8.count <= budget {
                let room = budget - row.label.utf8.count
                kept.append(Row(row.label, prefix(row.value, bytes: room), warning: row.warning))
            }
            return (kept, true)
        }
        return (kept, false)
    }

    /// The longest prefix of `text` of at most `bytes` UTF-8 bytes, cut between characters.
    package static func prefix(_ text: String, bytes: Int) -> String {
        var used = 0
        var end = text.startIndex
        for character in text {
            let size = character.utf8.count
            if used + size > bytes { break }
            used += size
            end = text.index(after: end)
        }
        return String(text[..<end])
    }
}

extension JournalEntry.Content {
    /// The journal's own entry introducing its checkpoint key.
    package static func keyIntroduction(_ publicKey: [UInt8], detail: String = "checkpoint key") -> Self {
        Self(
            protocolName: "sigil", method: "journal.key", origin: "", appName: "", account: Hex.encode(publicKey),
            decision: JournalDecision.key.rawValue, detail: detail, summaryDigest: [], subjectDigest: [],
            result: [], shownTruncated: false, shown: JournalShown.encode([]))
    }
}
