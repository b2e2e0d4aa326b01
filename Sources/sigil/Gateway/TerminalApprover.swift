import Dispatch
import Gateway
import Primitives
import SignerCore

/// `sigil serve --approve terminal`: asks the approval page's questions on the terminal, one at a
/// time (text and answers: `Gateway.TerminalPrompt`).
struct TerminalApprover: Sendable {
    let service: GatewayService
    let directory: any AccountDirectory

    func run() async {
        // Subscribe first, then take what already waits (oldest first): a request that arrived
        // between the ports opening and this subscription is asked too, and none twice.
        let arriving = await service.newApprovals()
        let waiting = await service.pendingApprovals.sorted { $0.id < $1.id }
        var asked = Set<UInt64>()
        for approval in waiting { await ask(approval, asked: &asked) }
        for await approval in arriving { await ask(approval, asked: &asked) }
    }

    private func ask(_ approval: PendingApproval<ApprovalSubject>, asked: inout Set<UInt64>) async {
        guard asked.insert(approval.id).inserted else { return }
        // It may have been decided or expired while an earlier question was open.
        guard await service.pendingApprovals.contains(where: { $0.id == approval.id }) else { return }
        let accounts = directory.accounts()
        print("")
        print(TerminalPrompt.describe(approval, accounts: accounts))
        let answer = await Self.readLine(prompt: TerminalPrompt.prompt(approval.subject))
        do {
            switch TerminalPrompt.interpret(answer, subject: approval.subject, accounts: accounts) {
            case .approve(let keys): try await service.approve(approval.id, accounts: keys)
            case .reject: try await service.reject(approval.id)
            }
            print("(answered)")
        } catch let error as GatewayError where error.code == .notSaved {
            print("(not saved: the state database refused it; the site was told so, see the log)")
        } catch {
            print("(that request is no longer pending)")
        }
    }

    static func readLine(prompt: String) async -> String? {
        print(prompt, terminator: "")
        fflushAll()
        return await withCheckedContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(returning: Swift.readLine()) }
        }
    }
}

#if canImport(Glibc)
    import Glibc
#endif

/// Flushes stdout so a prompt without a newline is visible (and readable through a pipe).
func fflushAll() { fflush(nil) }
