import Foundation
import IconCodec
import PolkadotCodec
import Primitives
import ScaleCodec
import SigilTesting
import SigningKeys
import Testing

@testable import SignerCore

/// The sentence a person reads first (``ApprovalHeadline``), from the typed request, for every kind.
@Suite struct ApprovalHeadlineTests {
    static let alice = SignerAccount(
        key: "0xd43593c715fdd31c61141abd04a99fd6822c8558854ccde39a5684e7a56da27d",
        address: "5GrwvaEF5zXb26Fz9rcQpDWS57CtERHpNehXCPcNoHGKutQY", name: "Alice", type: "sr25519", genesisHash: nil)
    static let bob = SignerAccount(
        key: "0x8eaf04151687736326c9fea17e25fc5287613693c912909cb226aa4794f26a48",
        address: "5FHneW46xGXgs5mUiveU4sbTyGBzmstUspZC92UhjJM694ty", name: "Bob", type: "sr25519", genesisHash: nil)
    static let bobKey = "8eaf04151687736326c9fea17e25fc5287613693c912909cb226aa4794f26a48"
    /// compact(10^10) and compact(10^12): 1 DOT and 100 DOT.
    static let oneDOT = "0700e40b5402"
    static let hundredDOT = "070010a5d4e8"

    static func extrinsic(_ method: String, metadata: Bool = true) throws -> ApprovalSubject {
        let md = metadata ? try PayloadResources.metadata("polkadot-v15.scale") : nil
        // Vector A with this call and, with metadata, the metadata's own extension list (no warning).
        var text = String(
            decoding: PayloadFixtures.polkadotA(replacing: "method", with: "\"0x\(method)\""), as: UTF8.self)
        if let md, let start = text.range(of: "\"signedExtensions\":["),
            let end = text[start.upperBound...].firstIndex(of: "]")
        {
            let list = md.signedExtensionIdentifiers.map { "\"\($0)\"" }.joined(separator: ",")
            text.replaceSubrange(start.upperBound..<end, with: list)
        }
        let prepared = try PreparedPayload(json: Array(text.utf8), metadata: md)
        return .signExtrinsic(
            ExtrinsicSigningRequest(
                address: prepared.payload.address, accountKey: alice.key, prepared: prepared, summary: []))
    }

    /// (call bytes, accounts the person has, expected headline)
    @Test(
        arguments: [
            ("0503" + "00" + bobKey + oneDOT, [alice], "Send 1 DOT from Alice to 14E5…KVf3"),
            ("0503" + "00" + bobKey + oneDOT, [alice, bob], "Send 1 DOT from Alice to Bob"),
            ("0503" + "00" + bobKey + oneDOT, [], "Send 1 DOT from 15oF…6Sp5 to 14E5…KVf3"),
            ("0500" + "00" + bobKey + "0b806fc0733a0b", [alice], "Send 1,234.5678 DOT from Alice to 14E5…KVf3"),
            ("0700" + hundredDOT + "00", [alice], "Stake 100 DOT"),
            ("0701" + hundredDOT, [alice], "Stake 100 DOT more"),
            ("00001468656c6c6f", [alice], "Write the remark \"hello\" on Polkadot"),
            (
                "1a00" + "0c" + "0503" + "00" + bobKey + oneDOT + "0700" + hundredDOT + "00" + "00001468656c6c6f",
                [alice, bob],
                "Batch of 3 calls: Send 1 DOT to Bob; Stake 100 DOT; Write the remark \"hello\" on Polkadot"
            ),
            (
                "1a02" + "10" + String(repeating: "0503" + "00" + bobKey + oneDOT, count: 4), [alice],
                "Batch of 4 calls (all or nothing): Send 1 DOT to 14E5…KVf3; Send 1 DOT to 14E5…KVf3; "
                    + "Send 1 DOT to 14E5…KVf3; and 1 more"
            ),
        ] as [(String, [SignerAccount], String)])
    func polkadotTransactions(method: String, accounts: [SignerAccount], expected: String) throws {
        let headline = ApprovalHeadline(try Self.extrinsic(method), source: "https://dapp.example", accounts: accounts)
        #expect(headline.text == expected)
        #expect(headline.warnings.isEmpty, "\(headline.warnings)")
        // The signer is named first, in the chain's own format (Polkadot prefix 0), with its identicon.
        #expect(headline.mentions.first?.role == "from")
        #expect(headline.mentions.first?.address == "15oF4uVJwmo4TdGW7VfQxNLavjCXviqxT9S1MgbjMNHr6Sp5")
        #expect(headline.mentions.first?.identicon?.count == 19)
    }

    @Test func aTransferNamesTheReceiverInTheChainsFormatWithItsIdenticon() throws {
        let headline = ApprovalHeadline(
            try Self.extrinsic("0503" + "00" + Self.bobKey + Self.oneDOT), source: "https://d.example",
            accounts: [Self.alice])
        let to = try #require(headline.mentions.first { $0.role == "to" })
        #expect(to.address == "14E5nqKAp3oAJcmzgZhUD2RcptBeUBScxKHgJKU4HPNcKVf3" && to.short == "14E5…KVf3")
        #expect(to.name == nil)
        #expect(
            to.identicon == PolkadotIdenticon.colours(accountId: try Hex.decode("0x" + Self.bobKey, prefix: .required)))
    }

    @Test func withoutMetadataTheHeadlineSaysSoAndWarns() throws {
        let headline = ApprovalHeadline(
            try Self.extrinsic("00001468656c6c6f", metadata: false), source: "https://d.example", accounts: [])
        #expect(headline.text == "Sign a transaction on Polkadot that Sigil cannot read (no metadata)")
        #expect(headline.warnings.count == 1)
        #expect(headline.warnings[0].hasPrefix("Sigil has no metadata for Polkadot"))
    }

    @Test func aSignedExtensionListThatDiffersIsOneShortSentence() throws {
        let md = try PayloadResources.metadata("polkadot-v15.scale")
        // Vector A's list (with AuthorizeCall, which this runtime lacks) without CheckWeight.
        let list =
            #"["AuthorizeCall","CheckNonZeroSender","CheckSpecVersion","CheckTxVersion","CheckGenesis","#
            + #""CheckMortality","CheckNonce","ChargeTransactionPayment","PrevalidateAttests","CheckMetadataHash"]"#
        let prepared = try PreparedPayload(
            json: PayloadFixtures.polkadotA(replacing: "signedExtensions", with: list), metadata: md)
        let headline = ApprovalHeadline(
            .signExtrinsic(
                ExtrinsicSigningRequest(address: "", accountKey: Self.alice.key, prepared: prepared, summary: [])),
            source: "https://d.example", accounts: [Self.alice])
        #expect(
            headline.warnings == [
                "The transaction's signed extensions differ from the chain metadata's: it lacks CheckWeight; it adds "
                    + "AuthorizeCall, which the chain does not have. The chain will likely reject this signature, "
                    + "so the transaction would fail."
            ])
    }

    /// (message bytes as the dapp sent them, expected headline, warned)
    @Test(
        arguments: [
            ("hello", "Sign the message \"hello\"", false),
            ("0x68656c6c6f", "Sign the message \"hello\"", false),
            ("<Bytes>hi</Bytes>", "Sign the message \"hi\"", false),
            ("0x00ff10", "Sign the 3-byte message 0x00ff10", true),
            ("line\u{1b}[2J", "Sign the 8-byte message 0x6c696e651b5b324a", true),
        ] as [(String, String, Bool)])
    func messages(data: String, expected: String, warned: Bool) {
        let raw = MessageWrapping.bytes(ofData: data)
        let subject = ApprovalSubject.signBytes(
            BytesSigningRequest(
                address: Self.alice.address, accountKey: Self.alice.key, message: MessageWrapping.wrap(raw),
                summary: []))
        let headline = ApprovalHeadline(subject, source: "https://d.example", accounts: [Self.alice])
        #expect(headline.text == expected)
        #expect(headline.warnings.isEmpty == !warned)
        #expect(headline.mentions.map(\.text) == ["Alice"])
    }

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

    @Test(
        arguments: [
            (nil, "Polkadot", 2_000_000, "Update Polkadot metadata to 2000000", false),
            (1_002_005, "Kusama", 1_003_000, "Update Kusama metadata to 1003000", false),
            (2_000_000, "Polkadot", 2_000_000, "Update Polkadot metadata to 2000000", true),
            (nil, "", 7, "Update chain metadata to 7", false),
            (nil, "Evil\u{202e}", 7, #"Update Evil\u{202E} metadata to 7"#, false),
        ] as [(UInt32?, String, UInt32, String, Bool)])
    func metadataUpdates(known: UInt32?, chain: String, spec: UInt32, expected: String, warned: Bool) {
        let subject = ApprovalSubject.provideMetadata(
            MetadataProposal(
                genesisHash: "0x91b1", chain: chain, specVersion: spec, knownSpecVersion: known, definitionJSON: [],
                summary: []))
        let headline = ApprovalHeadline(subject, source: "https://d.example", accounts: [])
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
