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
    static let nasty = DisplayVectors.nasty

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
        Self.expectVisible(message.summary, "message")

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

}
