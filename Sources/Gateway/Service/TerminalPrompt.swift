import SignerCore

/// The text of `sigil serve --approve terminal`: the same details as the approval page, one request
/// at a time, answered y/n (or, for a connection, with account numbers). Pure functions, so the
/// questions and the reading of answers are tested without a terminal.
///
/// Security: dapp-provided text (names, messages, decoded values) is stripped of control
/// characters so it cannot drive the terminal (escape sequences).
public enum TerminalPrompt {
    /// A person's answer.
    public enum Answer: Equatable, Sendable {
        /// Approve; for a connection, with these account keys.
        case approve([String])
        /// Reject (also anything not understood, and end of input).
        case reject
    }

    /// The question line.
    public static func prompt(_ subject: ApprovalSubject) -> String {
        if case .authorize = subject { return "Approve? [y = all accounts / numbers like 1,3 / N] " }
        return "Approve? [y/N] "
    }

    /// Reads an answer: `y`/`yes` approves (all accounts for a connection); for a connection, a list
    /// of account numbers approves with those; anything else rejects.
    public static func interpret(_ line: String?, subject: ApprovalSubject, accounts: [SignerAccount]) -> Answer {
        let text = (line ?? "").lowercased().filter { !$0.isWhitespace }
        if text == "y" || text == "yes" {
            if case .authorize = subject { return .approve(accounts.map(\.key)) }
            return .approve([])
        }
        if case .authorize = subject, !text.isEmpty {
            let parts = text.split(separator: ",", omittingEmptySubsequences: false)
            let picks = parts.compactMap { Int($0) }.filter {
                (1...max(accounts.count, 1)).contains($0) && $0 <= accounts.count
            }
            if !picks.isEmpty, picks.count == parts.count { return .approve(picks.map { accounts[$0 - 1].key }) }
        }
        return .reject
    }

    /// The details of a pending request.
    public static func describe(_ approval: PendingApproval<ApprovalSubject>, accounts: [SignerAccount]) -> String {
        var lines: [String] = []
        let rows: [SummaryRow]
        switch approval.subject {
        case .authorize(let request):
            lines.append("== Connect \(printable(approval.source))?")
            let flag = request.appName.isSuspicious ? "  (SUSPICIOUS NAME: trust the site address, not the name)" : ""
            lines.append("   calls itself: \(printable(request.appName.text))\(flag)")
            for (i, account) in accounts.enumerated() {
                let name = account.name.map { printable($0) + " " } ?? ""
                lines.append("   \(i + 1)) \(name)\(AddressText.short(account.address)) (\(account.type))")
            }
            rows = []
        case .signExtrinsic(let request):
            lines.append("== Sign a transaction for \(printable(approval.source))?")
            rows = request.summary
        case .signBytes(let request):
            lines.append("== Sign a message for \(printable(approval.source))?")
            rows = request.summary
        case .provideMetadata(let proposal):
            lines.append("== Update metadata from \(printable(approval.source))?")
            rows = proposal.summary
        case .icp(let request):
            lines.append("== \(printable(request.title))")
            rows = request.summary
        case .signIcon(let request):
            lines.append("== \(printable(IconGateway.title(request, source: approval.source)))")
            rows = request.summary
        }
        // The sentence first (names and short addresses, as on the approval page), its warnings, then
        // every detail in full.
        let headline = ApprovalHeadline(approval.subject, source: approval.source, accounts: accounts)
        lines.insert("   \(printable(headline.text))", at: 1)
        lines.insert(contentsOf: headline.warnings.map { "   ! \(printable($0))" }, at: 2)
        for row in rows {
            let value = printable(row.value).split(separator: "\n", omittingEmptySubsequences: false)
                .joined(separator: "\n      ")
            lines.append("   \(row.isWarning ? "! " : "")\(printable(row.label)): \(value)")
        }
        return lines.joined(separator: "\n")
    }

    /// `text` with C0/C1 control characters (except newline) and DEL replaced by `?`.
    public static func printable(_ text: String) -> String {
        String(
            String.UnicodeScalarView(
                text.unicodeScalars.map {
                    $0 == "\n" || ($0.value >= 0x20 && $0.value != 0x7F && !(0x80...0x9F).contains($0.value)) ? $0 : "?"
                }))
    }
}
