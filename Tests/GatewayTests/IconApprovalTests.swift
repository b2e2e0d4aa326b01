import Foundation
import Gateway
import IconCodec
import Journal
import Keystore
import Primitives
import SigilTesting
import SignerCore
import SigningKeys
import StateStore
import Testing

/// ICON's approval as the adapter builds it (``IconApproval``, protocol-neutral): the sentence with
/// the person's names (V-ICON-7), ICX moved by a contract call in the sentence with a warning (issue
/// 24 item 6), a request from a link saying so (also (b)), and what a site supplies shown escaped,
/// never interpreted (item 8), in the headline the approval page and the terminal print.
@Suite struct IconApprovalTests {
    static let nasty = DisplayVectors.nasty

    static func service() throws -> (SigningService, SignerAccount) {
        let pair = try IconKeyPair(secretKey: SecretBytes(try Hex.decode(IconVectors.key1, prefix: .forbidden)))
        let info = IconAccountInfo(address: pair.address, name: "K1", whenCreated: nil, isTesting: false, fileName: "")
        let service = SigningService(
            accounts: [], store: try SQLiteStateStore.inMemory(),
            icon: IconKeyring(accounts: [info], pairs: [pair.address: pair]))
        return (service, try #require(service.accounts().first))
    }

    static func headline(_ request: IconSigningRequest, source: String, accounts: [SignerAccount]) -> ApprovalHeadline {
        ApprovalHeadline(.adapter(IconApproval.of(request, source: source)), source: source, accounts: accounts)
    }

    static func expectVisible(_ text: String, _ place: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let bad = text.unicodeScalars.filter { DisplayText.isInvisible($0) }
        #expect(
            bad.isEmpty, "\(place): \(bad.map { String($0.value, radix: 16) }) in \(text.debugDescription)",
            sourceLocation: sourceLocation)
    }

    static func expectVisible(_ headline: ApprovalHeadline, _ place: String) {
        expectVisible(headline.text, "\(place) headline")
        for w in headline.warnings { expectVisible(w, "\(place) warning") }
        for m in headline.mentions {
            expectVisible(m.address, "\(place) mention")
            expectVisible(m.short, "\(place) mention")
            expectVisible(m.text, "\(place) mention")
        }
    }

    static func expectVisible(_ rows: [SummaryRow], _ place: String) {
        for row in rows {
            expectVisible(row.label, "\(place) label")
            expectVisible(row.value, "\(place) row \(row.label)")
        }
    }

    /// The journal's view of it: protocol `icon`, the method, the `hx` account, the digest of the
    /// 32 bytes signed, the page's kind.
    @Test(
        arguments: [
            (IconSigningRequest.Action.send, "icon(send)", "icon"), (.signOnly, "icon(sign)", "icon"),
            (.blindHash, "icon(signing)", "icon-hash"),
        ] as [(IconSigningRequest.Action, String, String)])
    func theApprovalIsProtocolNeutral(action: IconSigningRequest.Action, method: String, kind: String) throws {
        let (service, account) = try Self.service()
        var request = try service.prepareIcon(
            transaction: try JSONValue.parse(IconVectors.transactions[0].json), action: .signOnly, account: account,
            now: IconVectors.now)
        request.action = action
        let approval = IconApproval.of(request, source: "https://d.example")
        let subject = ApprovalSubject.adapter(approval)
        #expect(JournalRecords.protocolName(of: subject) == "icon")
        #expect(JournalRecords.method(of: subject) == method)
        #expect(JournalRecords.account(of: subject) == IconVectors.address1)
        #expect(JournalRecords.subjectDigest(subject) == JournalCodec.hash(request.hash))
        #expect(approval.kind == kind && approval.summary == request.summary && subject.signs)
    }

    /// V-ICON-7 A (1 ICX), B (a token transfer), C (a call), prepared by the signing service (the
    /// account is named K1), and a blind hash.
    @Test(
        arguments: [
            (0, IconSigningRequest.Action.send, "Send 1 ICX from K1 to hx87a9…4d6a"),
            (0, .signOnly, "Send 1 ICX from K1 to hx87a9…4d6a (the site sends it)"),
            (1, .send, "Send 1 (smallest units) of token cxb077…ec32 from K1 to hxab2d…cd8b"),
            (2, .send, "Call setText on contract cxb077…ec32 from K1"),
            (0, .blindHash, "Sign a bare hash for https://d.example (blind signing)"),
        ] as [(Int, IconSigningRequest.Action, String)])
    func iconRequests(vector: Int, action: IconSigningRequest.Action, expected: String) throws {
        let (service, account) = try Self.service()
        var request = try service.prepareIcon(
            transaction: try JSONValue.parse(IconVectors.transactions[vector].json), action: .signOnly,
            account: account, now: IconVectors.now)
        request.action = action
        let headline = Self.headline(request, source: "https://d.example", accounts: [account])
        #expect(headline.text == expected)
        #expect(headline.mentions.first?.name == "K1" && headline.mentions.first?.identicon == nil)
        #expect(headline.warnings.count == (action == .blindHash ? 1 : 0))
    }

    // MARK: ICON

    static func iconCall(method: String, params: JSONValue, value: String? = nil) -> JSONValue {
        var tx: [String: JSONValue] = [
            "version": "0x3", "from": "hx902ecb51c109183ace539f247b4ea1347fbf23b5",
            "to": "cxb0776ee37f5b45bfaea8cff1d8232fbb6122ec32", "stepLimit": "0x30d40", "timestamp": "0x5d56f3231f818",
            "nid": "0x1", "nonce": "0x2", "dataType": "call", "data": ["method": .string(method), "params": params],
        ]
        if let value { tx["value"] = .string(value) }
        return .object(JSONObject(tx))
    }

    @Test(arguments: nasty)
    func iconMethodsParamsAndReceivers(input: String, shown: String) throws {
        let (service, account) = try Self.service()
        for tx in [
            Self.iconCall(method: input, params: ["memo": .string(input)]),
            Self.iconCall(method: "transfer", params: ["_to": .string(input), "_value": "0x1"]),
        ] {
            let request = try service.prepareIcon(
                transaction: tx, action: .signOnly, account: account, now: IconVectors.now)
            let headline = Self.headline(request, source: "https://d.example", accounts: [account])
            Self.expectVisible(headline, "ICON")
            Self.expectVisible(request.summary, "ICON")
            let all = headline.text + headline.mentions.map(\.address).joined() + request.summary.map(\.value).joined()
            #expect(all.contains(shown) || all.contains(String(shown.prefix(20))), "\(all)")
        }
    }

    /// The forged line of the report: the terminal never shows it at the start of a line.
    @Test func aMethodNameCannotForgeAWarningLine() throws {
        let (service, account) = try Self.service()
        let request = try service.prepareIcon(
            transaction: Self.iconCall(method: "vote\n! Verified: 0 ICX leaves your account", params: [:]),
            action: .signOnly, account: account, now: IconVectors.now)
        let headline = Self.headline(request, source: "https://d.example", accounts: [account])
        #expect(headline.text.hasPrefix(#"Call vote\n! Verified"#))
        #expect(!headline.text.contains("\n"))
    }

    // MARK: Item 6: ICX sent with a call

    /// (transaction, headline, value row flagged)
    @Test(
        arguments: [
            (
                iconCall(
                    method: "transfer", params: ["_to": "hxab2d8215eab14bc6bdd8bfb2c8151257032ecd8b", "_value": "0x1"],
                    value: "0x10f0cf064dd59200000"),
                "Send 1 (smallest units) of token cxb077…ec32 from K1 to hxab2d…cd8b, and 5000 ICX to the contract (the site sends it)"
            ),
            (
                iconCall(method: "vote", params: [:], value: "0x10f0cf064dd59200000"),
                "Call vote on contract cxb077…ec32 from K1, sending 5000 ICX with it (the site sends it)"
            ),
            (
                iconCall(method: "vote", params: [:], value: "0x0"),
                "Call vote on contract cxb077…ec32 from K1 (the site sends it)"
            ),
        ] as [(JSONValue, String)])
    func icxSentWithACallIsInTheSentence(tx: JSONValue, expected: String) throws {
        let (service, account) = try Self.service()
        let request = try service.prepareIcon(
            transaction: tx, action: .signOnly, account: account, now: IconVectors.now)
        let headline = Self.headline(request, source: "https://d.example", accounts: [account])
        #expect(headline.text == expected)
        let moves = expected.contains("5000 ICX")
        #expect(headline.warnings.contains { $0.contains("also sends 5000 ICX") } == moves, "\(headline.warnings)")
        let value = try #require(request.summary.first { $0.label == "value" })
        #expect(value.isWarning == moves)
    }

    // MARK: Also (b): a link

    @Test func aRequestFromALinkSaysTheIdentityIsTheReferrersUnverified() throws {
        let (service, account) = try Self.service()
        var request = try service.prepareIcon(
            transaction: try JSONValue.parse(IconVectors.transactions[0].json), action: .signOnly, account: account,
            now: IconVectors.now)
        #expect(
            !Self.headline(request, source: "https://trusted.example", accounts: []).warnings
                .contains { $0.contains("link") })
        request.fromLink = true
        let headline = Self.headline(request, source: "https://trusted.example", accounts: [])
        let warning = try #require(headline.warnings.first { $0.contains("came from a link") })
        #expect(
            warning.contains("https://trusted.example") && warning.contains("Referer")
                && warning.contains("cannot verify"))
    }
}
