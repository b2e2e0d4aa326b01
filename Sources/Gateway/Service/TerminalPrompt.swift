import SignerCore

/// The text of `sigil serve --approve terminal`: the same details as the approval page, one request
/// at a time, answered y/n (or, for a connection, with account numbers). Pure functions, so the
/// questions and the reading of answers are tested without a terminal.
///
/// Security: dapp-provided text (names, messages, decoded values) passes through SignerCore's
/// `DisplayText.visible` (control, format and line-separator characters escaped as `\n`,
/// `\u{200B}` …), so it cannot drive the terminal (escape sequences) nor start a line of its own;
/// the lines of a multi-line value (a decoded call) are indented below their label, so no text
/// can appear in the `!` warning position.
package enum TerminalPrompt {
    /// A person's answer.
    package enum Answer: Equatable, Sendable {
        /// Approve; for a connection, with these account keys.
        case approve([String])
        /// Reject (also anything not understood, and end of input).
        case reject
    }

    /// The question line.
    package static func prompt(_ subject: ApprovalSubject) -> String {
        if case .authorize = subject { return "Approve? [y = all accounts / numbers like 1,3 / N] " }
        return "Approve? [y/N] "
    }

    /// Reads an answer: `y`/`yes` approves (all accounts for a connection); for a connection, a list
    /// of account numbers approves with those; anything else rejects.
    package static func interpret(_ line: String?, subject: ApprovalSubject, accounts: [SignerAccount]) -> Answer {
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
    package static func describe(_ approval: PendingApproval<ApprovalSubject>, accounts: [SignerAccount]) -> String {
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
        case .adapter(let request):
            lines.append("== \(DisplayText.clipped(printable(request.title), ApprovalHeadline.maxCharacters))")
            rows = request.summary
        }
        // The sentence first (names and short addresses, as on the approval page), its warnings, then
        // every detail in full.
        let headline = ApprovalHeadline(approval.subject, source: approval.source, accounts: accounts)
        lines.insert("   \(printable(headline.text))", at: 1)
        lines.insert(contentsOf: headline.warnings.map { "   ! \(printable($0))" }, at: 2)
        for row in rows {
            lines.append("   \(row.isWarning ? "! " : "")\(printable(row.label)): \(indented(row.value))")
        }
        return lines.joined(separator: "\n")
    }

    /// One line of text: every control, format and line-separator character escaped (`\n`, `\u{1B}`).
    package static func printable(_ text: String) -> String { DisplayText.visible(text) }

    /// A value that may hold lines (a decoded call): each line escaped, the second and later lines
    /// indented further than any label, so none can pass for a row or a `!` warning.
    package static func indented(_ text: String) -> String {
        DisplayText.visibleLines(text).split(separator: "\n", omittingEmptySubsequences: false)
            .joined(separator: "\n      | ")
    }
}
