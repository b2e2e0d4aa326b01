import Foundation
import Gateway
import IconCodec
import Primitives
import SignerCore
import Testing

@Suite struct TerminalPromptTests {
    let accounts = [TestAccounts.alice, TestAccounts.bob]
    let authorize = ApprovalSubject.authorize(AuthorizationRequest(declaredName: "Dapp"))
    let message = ApprovalSubject.adapter(
        AdapterApproval(
            method: "pub(bytes.sign)", title: "Sign a message for https://dapp.example?",
            summary: [SummaryRow("message", "hi\u{1b}[2J")], requestId: [1], wallet: "polkadot", account: "a",
            kind: "bytes"))

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

/// Issue 24 item 8 in the terminal: nothing a site sends starts a line of its own (a forged
/// `! Verified` warning), and a multi-line value's continuation lines are indented under its label.
/// Also (b): a request from a link says the identity is the referring page's, unverified.
@Suite struct TerminalPromptDisplayTests {
    static func iconRequest(
        method: String, fromLink: Bool = false, source: String = "https://dapp.example"
    ) throws -> ApprovalSubject {
        let tx = try IconTransaction(json: [
            "version": "0x3", "from": "hx902ecb51c109183ace539f247b4ea1347fbf23b5",
            "to": "cxb0776ee37f5b45bfaea8cff1d8232fbb6122ec32", "stepLimit": "0x30d40", "timestamp": "0x5d56f3231f818",
            "nid": "0x1", "dataType": "call", "data": ["method": .string(method)],
        ])
        var request = IconSigningRequest(
            action: .signOnly, accountKey: "hx902ecb51c109183ace539f247b4ea1347fbf23b5", transaction: tx,
            hash: tx.hash,
            summary: [SummaryRow("call", method), SummaryRow("decoded", lines: "first\nsecond\u{2028}\n! third")])
        request.fromLink = fromLink
        return .adapter(IconApproval.of(request, source: source))
    }

    @Test(arguments: ["vote\n! Verified: 0 ICX leaves your account", "vote\u{2028}! Verified", "vote\r! Verified"])
    func aSiteCannotStartALine(method: String) throws {
        var queue = ApprovalQueue<ApprovalSubject>()
        let pending = try queue.enqueue(
            source: "https://dapp.example", session: nil, subject: try Self.iconRequest(method: method), now: .zero)
        let text = TerminalPrompt.describe(pending, accounts: [])
        for line in text.split(separator: "\n") {
            #expect(!line.contains("Verified") || !line.trimmingCharacters(in: .whitespaces).hasPrefix("! Verified"))
            #expect(!line.hasPrefix("! "))
        }
        #expect(!text.contains("\u{2028}") && !text.contains("\r"))
        // The decoded row keeps its lines, each continuation indented below the label.
        #expect(text.contains("   decoded: first\n      | second\\u{2028}\n      | ! third"))
    }

    @Test func aLinkRequestSaysSo() throws {
        var queue = ApprovalQueue<ApprovalSubject>()
        let pending = try queue.enqueue(
            source: "https://trusted.example", session: nil,
            subject: try Self.iconRequest(method: "vote", fromLink: true, source: "https://trusted.example"), now: .zero)
        let text = TerminalPrompt.describe(pending, accounts: [])
        #expect(text.contains("   ! This request came from a link"))
        #expect(text.contains("Referer"))
    }
}
