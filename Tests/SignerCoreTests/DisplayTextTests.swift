import Foundation
import IconCodec
import PolkadotCodec
import Primitives
import SigilTesting
import Testing

@testable import SignerCore

/// Issue 24 item 8: control, format and line-separator characters a site supplies are shown
/// (escaped), never interpreted, in every protocol's headline, mentions, warnings and rows. Item 6:
/// ICX moved by a contract call is in the sentence, with a warning. Also (b): a request that came
/// from a link says so.
@Suite struct DisplayTextTests {
    /// (what a site sends, what the person must see in its place)
    static let nasty: [(String, String)] = [
        ("a\nb", #"a\nb"#),
        ("vote\n! Verified: 0 ICX leaves your account", #"vote\n! Verified: 0 ICX leaves your account"#),
        ("x\u{2028}y", #"x\u{2028}y"#),
        ("x\u{2029}y", #"x\u{2029}y"#),
        ("x\u{200B}y", #"x\u{200B}y"#),
        ("\u{202E}lave", #"\u{202E}lave"#),
        ("\u{2066}iso\u{2069}", #"\u{2066}iso\u{2069}"#),
        ("esc\u{1B}[2J", #"esc\u{001B}[2J"#),
        ("cr\r\ttab", #"cr\r\ttab"#),
        ("nel\u{85}c1\u{9B}", #"nel\u{0085}c1\u{009B}"#),
        ("bom\u{FEFF}shy\u{AD}", #"bom\u{FEFF}shy\u{00AD}"#),
        ("tag\u{E0041}", #"tag\u{E0041}"#),
        ("zwj\u{200D}alm\u{61C}", #"zwj\u{200D}alm\u{061C}"#),
        ("del\u{7F}", #"del\u{007F}"#),
    ]

    static func expectVisible(
        _ text: String, lines: Bool = false, _ place: String, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let bad = text.unicodeScalars.filter { DisplayText.isInvisible($0) && !(lines && $0 == "\n") }
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

    @Test(arguments: nasty)
    func theOneFunctionEscapes(input: String, shown: String) {
        #expect(DisplayText.visible(input) == shown)
        // Idempotent: what it writes is printable.
        #expect(DisplayText.visible(shown) == shown)
        #expect(SummaryRow(input, input).value == shown && SummaryRow(input, input).label == shown)
    }

    @Test func plainTextAndOrdinaryUnicodeAreUnchanged() {
        for text in ["Send 1 DOT from Alice to 14E5…KVf3", "Zürich ⟶ 東京 🚀", "e\u{301}", "ﻋﺮﺑﻲ", ""] {
            #expect(DisplayText.visible(text) == text)
        }
        #expect(DisplayText.visibleLines("call:\n  a\u{200B}") == "call:\n  a\\u{200B}")
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
        let (service, account) = try IconSigningTests().service()
        for tx in [
            Self.iconCall(method: input, params: ["memo": .string(input)]),
            Self.iconCall(method: "transfer", params: ["_to": .string(input), "_value": "0x1"]),
        ] {
            let request = try service.prepareIcon(
                transaction: tx, action: .signOnly, account: account, now: IconSigningTests.now)
            let headline = ApprovalHeadline(.signIcon(request), source: "https://d.example", accounts: [account])
            Self.expectVisible(headline, "ICON")
            Self.expectVisible(request.summary, "ICON")
            let all = headline.text + headline.mentions.map(\.address).joined() + request.summary.map(\.value).joined()
            #expect(all.contains(shown) || all.contains(String(shown.prefix(20))), "\(all)")
        }
    }

    /// The forged line of the report: the terminal never shows it at the start of a line.
    @Test func aMethodNameCannotForgeAWarningLine() throws {
        let (service, account) = try IconSigningTests().service()
        let request = try service.prepareIcon(
            transaction: Self.iconCall(method: "vote\n! Verified: 0 ICX leaves your account", params: [:]),
            action: .signOnly, account: account, now: IconSigningTests.now)
        let headline = ApprovalHeadline(.signIcon(request), source: "https://d.example", accounts: [account])
        #expect(headline.text.hasPrefix(#"Call vote\n! Verified"#))
        #expect(!headline.text.contains("\n"))
    }

    // MARK: Internet Computer, Polkadot

    @Test(arguments: nasty)
    func icpAndPolkadotStrings(input: String, shown: String) throws {
        let icp = AdapterApproval(
            method: "icrc49_call_canister", title: "Call \(input)?",
            summary: [
                SummaryRow("method", input), SummaryRow("call", "Call \(input) on x"), SummaryRow("warning", input),
            ])
        let icpHeadline = ApprovalHeadline(.adapter(icp), source: "https://d.example", accounts: [])
        Self.expectVisible(icpHeadline, "ICP")
        Self.expectVisible(icp.summary, "ICP")
        #expect(icpHeadline.text.contains(shown))

        let (signer, _) = try IconSigningTests().service()
        let alice = ApprovalHeadlineTests.alice
        let message = signer.prepareMessage(data: input, address: alice.address, account: alice)
        Self.expectVisible(
            ApprovalHeadline(.signBytes(message), source: "https://d.example", accounts: [alice]), "message")
        Self.expectVisible(message.summary, "message")

        let metadata = ApprovalSubject.provideMetadata(
            MetadataProposal(
                genesisHash: "0x91b1", chain: input, specVersion: 7, knownSpecVersion: nil, definitionJSON: [],
                summary: [SummaryRow("chain", input)]))
        let m = ApprovalHeadline(metadata, source: "https://d.example", accounts: [])
        Self.expectVisible(m, "metadata")
        #expect(m.text.contains(shown))

        let connect = ApprovalHeadline(
            .authorize(AuthorizationRequest(declaredName: input)), source: "https://d.example", accounts: [])
        Self.expectVisible(connect, "connect")
    }

    @Test(arguments: nasty)
    func polkadotExtensionNames(input: String, shown: String) throws {
        let list = JSONValue.array(["CheckNonce", .string(input)]).serialized()
        let payload = try SignerPayload(json: PayloadFixtures.polkadotA(replacing: "signedExtensions", with: list))
        let summary = PayloadSummary(payload: payload, signing: try SigningPayload(payload: payload))
        for row in summary.rows { Self.expectVisible(row.value, lines: row.label == "call", "extrinsic row") }
        #expect(summary.text.contains(shown))
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
        let (service, account) = try IconSigningTests().service()
        let request = try service.prepareIcon(
            transaction: tx, action: .signOnly, account: account, now: IconSigningTests.now)
        let headline = ApprovalHeadline(.signIcon(request), source: "https://d.example", accounts: [account])
        #expect(headline.text == expected)
        let moves = expected.contains("5000 ICX")
        #expect(headline.warnings.contains { $0.contains("also sends 5000 ICX") } == moves, "\(headline.warnings)")
        let value = try #require(request.summary.first { $0.label == "value" })
        #expect(value.isWarning == moves)
    }

    // MARK: Also (b): a link

    @Test func aRequestFromALinkSaysTheIdentityIsTheReferrersUnverified() throws {
        let (service, account) = try IconSigningTests().service()
        var request = try service.prepareIcon(
            transaction: try JSONValue.parse(IconSigningTests.vectors[0].json), action: .signOnly, account: account,
            now: IconSigningTests.now)
        #expect(
            !ApprovalHeadline(.signIcon(request), source: "https://trusted.example", accounts: []).warnings
                .contains { $0.contains("link") })
        request.fromLink = true
        let headline = ApprovalHeadline(.signIcon(request), source: "https://trusted.example", accounts: [])
        let warning = try #require(headline.warnings.first { $0.contains("came from a link") })
        #expect(
            warning.contains("https://trusted.example") && warning.contains("Referer")
                && warning.contains("cannot verify"))
    }
}
