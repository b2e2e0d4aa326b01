import Dispatch
import Gateway
import SignerCore

/// `sigil serve --approve terminal`: asks the approval page's questions on the terminal, one at a
/// time, y/n, with the same details. For an authorization, the person may answer with account
/// numbers ("1,3") to pick which accounts the site sees; "y" grants all of them.
struct TerminalApprover: Sendable {
    let service: GatewayService
    let directory: any AccountDirectory

    func run() async {
        for await approval in await service.newApprovals() {
            // It may have been decided or expired while an earlier question was open.
            guard await service.pendingApprovals.contains(where: { $0.id == approval.id }) else { continue }
            let accounts = await directory.accounts()
            print("")
            print(Self.describe(approval, accounts: accounts))
            let answer = await Self.readLine(prompt: Self.prompt(approval.subject))
            do {
                switch Self.interpret(answer, subject: approval.subject, accounts: accounts) {
                case .approve(let keys): try await service.approve(approval.id, accounts: keys)
                case .reject: try await service.reject(approval.id)
                }
            } catch {
                print("(that request is no longer pending)")
            }
        }
    }

    enum Answer: Equatable {
        case approve([String])
        case reject
    }

    static func prompt(_ subject: ApprovalSubject) -> String {
        if case .authorize = subject { return "Approve? [y = all accounts / numbers like 1,3 / N] " }
        return "Approve? [y/N] "
    }

    static func interpret(_ line: String?, subject: ApprovalSubject, accounts: [GatewayAccount]) -> Answer {
        let text = (line ?? "").lowercased().filter { !$0.isWhitespace }
        if text == "y" || text == "yes" { return .approve(accounts.map(\.key)) }
        if case .authorize = subject, !text.isEmpty {
            let picks = text.split(separator: ",").compactMap { Int($0) }.filter { (1...accounts.count).contains($0) }
            if !picks.isEmpty, picks.count == text.split(separator: ",").count {
                return .approve(picks.map { accounts[$0 - 1].key })
            }
        }
        return .reject
    }

    static func describe(_ approval: PendingApproval<ApprovalSubject>, accounts: [GatewayAccount]) -> String {
        var lines: [String] = []
        let rows: [SummaryRow]
        switch approval.subject {
        case .authorize(let request):
            lines.append("== Connect \(approval.source)?")
            lines.append("   calls itself: \(request.appName.text)\(request.appName.isSuspicious ? "  (SUSPICIOUS NAME)" : "")")
            for (i, account) in accounts.enumerated() {
                lines.append("   \(i + 1)) \(account.name ?? "") \(account.address) (\(account.type))")
            }
            rows = []
        case .signExtrinsic(let request):
            lines.append("== Sign a transaction for \(approval.source)?")
            rows = request.summary
        case .signBytes(let request):
            lines.append("== Sign a message for \(approval.source)?")
            rows = request.summary
        case .provideMetadata(let proposal):
            lines.append("== Update metadata from \(approval.source)?")
            rows = proposal.summary
        }
        for row in rows {
            lines.append("   \(row.isWarning ? "! " : "")\(row.label): \(Self.printable(row.value))")
        }
        return lines.joined(separator: "\n")
    }

    /// Strips terminal control characters (a dapp's text must not drive the terminal).
    static func printable(_ text: String) -> String {
        String(text.unicodeScalars.map { $0 == "\n" || ($0.value >= 0x20 && $0.value != 0x7F && !(0x80...0x9F).contains($0.value)) ? Character($0) : "?" })
            .replacingNewlines()
    }

    static func readLine(prompt: String) async -> String? {
        print(prompt, terminator: "")
        return await withCheckedContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(returning: Swift.readLine()) }
        }
    }
}

extension String {
    fileprivate func replacingNewlines() -> String {
        split(separator: "\n", omittingEmptySubsequences: false).joined(separator: "\n      ")
    }
}
