import Journal
import Keystore
import PolkadotCodec
import Primitives
import SigningKeys

/// Builds journal entries from what the approval path holds: the request a person saw (its rows,
/// exactly as the approval page lists them), what was signed or stored, and the outcome. Knows no
/// storage; the gateway hands the result to a ``SigningJournal``.
package enum JournalRecords {
    /// The protocol name of polkadot-js requests.
    package static let polkadot = "polkadot"

    /// The protocol a subject came from: `icon` and `icp` for their requests, `polkadot` for the rest
    /// (connection requests, ICON's `bind` included, share one authorization book).
    package static func protocolName(of subject: ApprovalSubject) -> String {
        switch subject {
        case .adapter(let request): request.wallet
        case .authorize: polkadot
        }
    }

    /// The wire method a subject came from.
    package static func method(of subject: ApprovalSubject) -> String {
        switch subject {
        case .authorize: "pub(authorize.tab)"
        case .adapter(let request): request.method
        }
    }

    /// What the approval page shows for a request: the site, for an authorization the name it gives
    /// itself (and the warning when suspicious), then the request's summary rows.
    package static func shownRows(source: String, subject: ApprovalSubject) -> [JournalShown.Row] {
        var rows = [JournalShown.Row("site", source)]
        let summary: [SummaryRow]
        switch subject {
        case .authorize(let request):
            rows.append(
                JournalShown.Row(
                    "calls itself", request.appName.text.isEmpty ? "(no name)" : request.appName.text,
                    warning: request.appName.isSuspicious))
            if request.appName.isSuspicious {
                rows.append(
                    JournalShown.Row(
                        "warning", "This name looks suspicious: trust the site address above, not the name.",
                        warning: true))
            }
            summary = []
        case .adapter(let request): summary = request.summary
        }
        return rows + summary.map { JournalShown.Row($0.label, $0.value, warning: $0.isWarning) }
    }

    /// BLAKE2b-256 of exactly what a subject signs (the signed bytes, already hashed when over 256
    /// bytes, or the wrapped message) or stores (the metadata definition); empty for an authorization.
    package static func subjectDigest(_ subject: ApprovalSubject) -> [UInt8] {
        switch subject {
        case .authorize: []
        // A Polkadot signing payload or wrapped message, an ICP request id, an Ethereum signing
        // hash, the 32 bytes an ICON signature covers; for an update, what it stores.
        case .adapter(let request): request.requestId.isEmpty ? request.storedDigest : JournalCodec.hash(request.requestId)
        }
    }

    /// The account a subject signs for, as its protocol writes it for the journal (a Substrate
    /// account as its generic SS58 address, an ICON `hx…`, an EIP-55 `0x…`); empty when none.
    package static func account(of subject: ApprovalSubject) -> String {
        if case .adapter(let request) = subject { return request.account }
        return ""
    }

    /// `0x…` account id → generic SS58 (the key itself when it is not 32 bytes or does not decode).
    package static func address(ofKey key: String) -> String {
        guard let bytes = try? Hex.decode(key, prefix: .required), bytes.count == 32,
            let address = try? SS58.encode(bytes, prefix: SS58.genericSubstrate)
        else { return key }
        return address
    }

    /// The entry for a decided or abandoned request.
    /// - Parameters:
    ///   - appName: the site's self-declared name (from the request or the connected site), or empty.
    ///   - result: the signature delivered, or empty.
    ///   - shownLimit: bytes of shown text kept.
    ///   - account: the account when the caller has it (``account(of:)`` otherwise).
    package static func content(
        source: String, appName: String, subject: ApprovalSubject, decision: JournalDecision, detail: String,
        result: [UInt8] = [], shownLimit: Int, account: String? = nil
    ) -> JournalEntry.Content {
        let rows = shownRows(source: source, subject: subject)
        let (kept, truncated) = JournalShown.capped(rows, limit: shownLimit)
        // Encoded once when nothing was cut: the digest covers every row, `shown` the kept ones.
        let encoded = JournalShown.encode(rows)
        var name = appName
        if case .authorize(let request) = subject { name = request.appName.text }
        return JournalEntry.Content(
            protocolName: protocolName(of: subject), method: method(of: subject), origin: source, appName: name,
            account: account ?? Self.account(of: subject), decision: decision.rawValue, detail: detail,
            summaryDigest: JournalShown.digest(ofEncoded: encoded), subjectDigest: subjectDigest(subject),
            result: result, shownTruncated: truncated, shown: truncated ? JournalShown.encode(kept) : encoded)
    }

    /// The entry for a request a rule refused before anyone saw it (nothing was shown).
    package static func refused(
        protocolName: String = polkadot, method: String, source: String, appName: String, account: String = "",
        rule: String
    ) -> JournalEntry.Content {
        JournalEntry.Content(
            protocolName: protocolName, method: method, origin: source, appName: appName, account: account,
            decision: JournalDecision.refused.rawValue, detail: rule, summaryDigest: [], subjectDigest: [], result: [],
            shownTruncated: false, shown: JournalShown.encode([]))
    }
}
