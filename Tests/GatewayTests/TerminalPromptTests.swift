import Gateway
import SignerCore
import Testing

@Suite struct TerminalPromptTests {
    let accounts = [TestAccounts.alice, TestAccounts.bob]
    let authorize = ApprovalSubject.authorize(AuthorizationRequest(declaredName: "Dapp"))
    let message = ApprovalSubject.signBytes(
        BytesSigningRequest(address: "a", accountKey: "k", message: [], summary: [SummaryRow("message", "hi\u{1b}[2J")])
    )

    @Test(
        arguments: [
            ("y", ["A", "B"]), ("YES", ["A", "B"]), ("2", ["B"]), ("1, 2", ["A", "B"]), ("n", nil), ("", nil),
            (nil, nil), ("3", nil), ("1,x", nil), ("0", nil), ("1,", nil),
        ] as [(String?, [String]?)])
    func connectionAnswers(line: String?, picked: [String]?) {
        let keys = picked?.map { $0 == "A" ? TestAccounts.alice.key : TestAccounts.bob.key }
        let answer = TerminalPrompt.interpret(line, subject: authorize, accounts: accounts)
        #expect(answer == (keys.map { .approve($0) } ?? .reject))
    }

    @Test func signingAnswersAreYesOrNo() {
        #expect(TerminalPrompt.interpret("y", subject: message, accounts: accounts) == .approve([]))
        #expect(TerminalPrompt.interpret("1", subject: message, accounts: accounts) == .reject)
        #expect(TerminalPrompt.prompt(message) == "Approve? [y/N] ")
    }

    @Test func detailsAreShownWithoutTerminalControlCharacters() throws {
        var queue = ApprovalQueue<ApprovalSubject>()
        let pending = try queue.enqueue(source: "https://dapp.example", session: nil, subject: message, now: .zero)
        let text = TerminalPrompt.describe(pending, accounts: accounts)
        #expect(text.contains("== Sign a message for https://dapp.example?"))
        #expect(text.contains(#"message: hi\u{001B}[2J"#) && !text.contains("\u{1b}"))
        let connect = try queue.enqueue(
            source: "https://dapp.example", session: nil,
            subject: ApprovalSubject.authorize(AuthorizationRequest(declaredName: "<b>x</b>")), now: .zero)
        let c = TerminalPrompt.describe(connect, accounts: accounts)
        #expect(
            c.contains("SUSPICIOUS NAME")
                && c.contains("1) Alice \(AddressText.short(TestAccounts.alice.address)) (sr25519)"))
        // The headline comes first, in plain words, with its warning.
        #expect(c.contains("== Connect https://dapp.example?\n   Connect https://dapp.example (x)\n   ! The name"))
    }
}
