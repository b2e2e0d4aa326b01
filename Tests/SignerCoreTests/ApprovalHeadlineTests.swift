import Foundation
import Primitives
import SigilTesting
import SigningKeys
import Testing

@testable import SignerCore

/// The sentence a person reads first (``ApprovalHeadline``): a connection's, and an adapter request's
/// without its own headline (the rendered `call` row, shortened identifiers). The protocols' own
/// headlines are tested with their adapters (GatewayTests: PolkadotApprovalTests, IconApprovalTests).
@Suite struct ApprovalHeadlineTests {
    static let alice = SignerAccount(
        key: "0xd43593c715fdd31c61141abd04a99fd6822c8558854ccde39a5684e7a56da27d",
        address: "5GrwvaEF5zXb26Fz9rcQpDWS57CtERHpNehXCPcNoHGKutQY", name: "Alice", type: "sr25519", genesisHash: nil)

    @Test(
        arguments: [
            ("Demo dapp", "Connect http://127.0.0.1:45113 (Demo dapp)", false),
            ("", "Connect http://127.0.0.1:45113", false),
            ("<b>x</b>", "Connect http://127.0.0.1:45113 (x)", true),
        ] as [(String, String, Bool)])
    func connections(name: String, expected: String, warned: Bool) {
        let headline = ApprovalHeadline(
            .authorize(AuthorizationRequest(declaredName: name)), source: "http://127.0.0.1:45113", accounts: [])
        #expect(headline.text == expected)
        #expect(headline.warnings.isEmpty == !warned)
    }

    @Test func internetComputerCallsUseTheRenderedSentence() throws {
        let call = ApprovalSubject.adapter(
            AdapterApproval(
                method: "icrc49_call_canister", title: "Call icrc1_transfer for https://d.example?",
                summary: [
                    SummaryRow("canister", "mxzaz-hqaaa-aaaar-qaada-cai (ckBTC ledger)"),
                    SummaryRow(
                        "call",
                        "Transfer 0.5 ckBTC to s3oqv-3j7id-xjhbm-3owbe-fvwly-oso6u-vej6n-bexck-koyu2-bxb6y-wae"),
                ]))
        #expect(
            ApprovalHeadline(call, source: "https://d.example", accounts: []).text == "Transfer 0.5 ckBTC to s3oq…-wae")
        let mention = try #require(ApprovalHeadline(call, source: "https://d.example", accounts: []).mentions.first)
        #expect(mention.role == "principal" && mention.address.hasSuffix("bxb6y-wae") && mention.identicon == nil)
        let permissions = ApprovalSubject.adapter(
            AdapterApproval(
                method: "icrc25_request_permissions", title: "Connect https://d.example (Internet Computer)?",
                summary: [SummaryRow("permission", "see your Internet Computer principals (icrc27_accounts)")]))
        #expect(
            ApprovalHeadline(permissions, source: "https://d.example", accounts: []).text
                == "Connect https://d.example (Internet Computer)")
    }

    /// An Ethereum sentence: addresses (EIP-55, in parentheses, before a question mark) become
    /// mentions with their short form; the punctuation around them stays.
    @Test func ethereumSentencesShortenAddresses() throws {
        let permit = ApprovalSubject.adapter(
            AdapterApproval(
                method: "eth_signTypedData_v4", title: "Sign a permit for https://d.example?", summary: [],
                wallet: "ethereum",
                sentence:
                    "Allow 0x70997970C51812dc3A010C7d01b50e0d17dc79C8 to spend 1 STT (0x5FbDB2315678afecb367f032d93F642f64180aa3)?"
            ))
        let headline = ApprovalHeadline(permit, source: "https://d.example", accounts: [])
        #expect(headline.text == "Allow 0x7099…79C8 to spend 1 STT (0x5FbD…0aa3)?")
        #expect(headline.mentions.map(\.role) == ["address", "address"])
        #expect(headline.mentions.first?.address == "0x70997970C51812dc3A010C7d01b50e0d17dc79C8")
    }

    @Test(
        arguments: [
            ("abc", "abc"), ("14E5nqKAp3oAJcmzgZhUD2RcptBeUBScxKHgJKU4HPNcKVf3", "14E5…KVf3"),
            ("hx87a90bfe8ed49e1a25184ce77fa0d9c4b0484d6a", "hx87a9…4d6a"), ("5GrwvaEF5z", "5GrwvaEF5z"),
        ] as [(String, String)])
    func shortAddresses(address: String, expected: String) {
        #expect(AddressText.short(address) == expected)
    }
}

/// ``PolkadotIdenticon`` against polkadot-js.
@Suite struct PolkadotIdenticonTests {
    /// The fills of polkadot-js/ui `packages/ui-shared/src/icons/polkadot.spec.ts` ("generates the
    /// correct points from known", `polkadotIcon('5Dqvi1p4C7EhPPFKCixpF3QiaJEaDwWrR9gfWR5eUsfC39TX',
    /// { isAlternative: false })`), without the outer `#eee` circle. The same vector is in
    /// scripts/e2e/e2e_approval_ux.py.
    static let polkadotJSVector = [
        "hsl(196, 65%, 53%)", "hsl(320, 65%, 53%)", "transparent", "hsl(112, 65%, 15%)", "hsl(22, 65%, 15%)",
        "hsl(213, 65%, 15%)", "hsl(163, 65%, 53%)", "hsl(213, 65%, 53%)", "hsl(185, 65%, 75%)",
        "hsl(163, 65%, 53%)", "hsl(213, 65%, 53%)", "hsl(213, 65%, 15%)", "hsl(112, 65%, 15%)",
        "hsl(22, 65%, 15%)", "transparent", "hsl(196, 65%, 53%)", "hsl(320, 65%, 53%)", "hsl(11, 65%, 35%)",
        "hsl(309, 65%, 53%)",
    ]

    @Test func matchesThePolkadotJSVector() throws {
        let decoded = try SS58.decode("5Dqvi1p4C7EhPPFKCixpF3QiaJEaDwWrR9gfWR5eUsfC39TX")
        #expect(PolkadotIdenticon.colours(accountId: decoded.key) == Self.polkadotJSVector)
    }

    @Test(arguments: [0, 1, 31, 255])
    func everyAccountHasNineteenColours(seed: Int) {
        let colours = PolkadotIdenticon.colours(accountId: (0..<32).map { UInt8(($0 &* 7 &+ seed) & 0xff) })
        #expect(colours.count == 19)
        #expect(colours.allSatisfy { $0.hasPrefix("hsl(") || $0 == "#444" || $0 == "transparent" })
    }
}
