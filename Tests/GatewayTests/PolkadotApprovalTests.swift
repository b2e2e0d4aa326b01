import Foundation
import Journal
import PolkadotCodec
import Primitives
import ScaleCodec
import SigilTesting
import SignerCore
import Testing

@testable import Gateway

/// polkadot-js's approvals as the adapter queues them (``PolkadotApproval``, protocol-neutral): the
/// sentence a person reads first, built from the typed request (the decoded call, the message
/// bytes), its accounts in the chain's own format with the person's names and identicons, and what
/// the journal records (the method, the generic SS58 account, the digest of the signed bytes).
@Suite struct PolkadotApprovalTests {
    static let alice = TestAccounts.alice
    static let bob = TestAccounts.bob
    static let bobKey = "8eaf04151687736326c9fea17e25fc5287613693c912909cb226aa4794f26a48"
    /// compact(10^10) and compact(10^12): 1 DOT and 100 DOT.
    static let oneDOT = "0700e40b5402"
    static let hundredDOT = "070010a5d4e8"

    static func metadata() throws -> RuntimeMetadata {
        let url = try #require(SharedVectors.url("polkadot-v15.scale", preferring: Bundle.module))
        return try RuntimeMetadata(bytes: [UInt8](try Data(contentsOf: url)))
    }

    static func extrinsic(_ method: String, metadata: Bool = true) throws -> ExtrinsicSigningRequest {
        let md = metadata ? try Self.metadata() : nil
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
        return ExtrinsicSigningRequest(
            address: prepared.payload.address, accountKey: alice.key, prepared: prepared, summary: [])
    }

    /// The headline the approval page shows for a transaction, as the adapter queued it.
    static func headline(_ request: ExtrinsicSigningRequest, accounts: [SignerAccount]) -> ApprovalHeadline {
        let approval = PolkadotApproval.of(request, account: alice, source: "https://dapp.example")
        return ApprovalHeadline(.adapter(approval), source: "https://dapp.example", accounts: accounts)
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
        let headline = Self.headline(try Self.extrinsic(method), accounts: accounts)
        #expect(headline.text == expected)
        #expect(headline.warnings.isEmpty, "\(headline.warnings)")
        // The signer is named first, in the chain's own format (Polkadot prefix 0), with its identicon.
        #expect(headline.mentions.first?.role == "from")
        #expect(headline.mentions.first?.address == "15oF4uVJwmo4TdGW7VfQxNLavjCXviqxT9S1MgbjMNHr6Sp5")
        #expect(headline.mentions.first?.identicon?.count == 19)
    }

    @Test func aTransferNamesTheReceiverInTheChainsFormatWithItsIdenticon() throws {
        let headline = Self.headline(try Self.extrinsic("0503" + "00" + Self.bobKey + Self.oneDOT), accounts: [Self.alice])
        let to = try #require(headline.mentions.first { $0.role == "to" })
        #expect(to.address == "14E5nqKAp3oAJcmzgZhUD2RcptBeUBScxKHgJKU4HPNcKVf3" && to.short == "14E5…KVf3")
        #expect(to.name == nil)
        #expect(
            to.identicon == PolkadotIdenticon.colours(accountId: try Hex.decode("0x" + Self.bobKey, prefix: .required)))
    }

    @Test func withoutMetadataTheHeadlineSaysSoAndWarns() throws {
        let headline = Self.headline(try Self.extrinsic("00001468656c6c6f", metadata: false), accounts: [])
        #expect(headline.text == "Sign a transaction on Polkadot that Sigil cannot read (no metadata)")
        #expect(headline.warnings.count == 1)
        #expect(headline.warnings[0].hasPrefix("Sigil has no metadata for Polkadot"))
    }

    @Test func aSignedExtensionListThatDiffersIsOneShortSentence() throws {
        let md = try Self.metadata()
        // Vector A's list (with AuthorizeCall, which this runtime lacks) without CheckWeight.
        let list =
            #"["AuthorizeCall","CheckNonZeroSender","CheckSpecVersion","CheckTxVersion","CheckGenesis","#
            + #""CheckMortality","CheckNonce","ChargeTransactionPayment","PrevalidateAttests","CheckMetadataHash"]"#
        let prepared = try PreparedPayload(
            json: PayloadFixtures.polkadotA(replacing: "signedExtensions", with: list), metadata: md)
        let headline = Self.headline(
            ExtrinsicSigningRequest(address: "", accountKey: Self.alice.key, prepared: prepared, summary: []),
            accounts: [Self.alice])
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
        let request = BytesSigningRequest(
            address: Self.alice.address, accountKey: Self.alice.key, message: MessageWrapping.wrap(raw), summary: [])
        let approval = PolkadotApproval.of(request, account: Self.alice, source: "https://d.example")
        let headline = ApprovalHeadline(.adapter(approval), source: "https://d.example", accounts: [Self.alice])
        #expect(headline.text == expected)
        #expect(headline.warnings.isEmpty == !warned)
        #expect(headline.mentions.map(\.text) == ["Alice"])
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
        let proposal = MetadataProposal(
            genesisHash: "0x91b1", chain: chain, specVersion: spec, knownSpecVersion: known, definitionJSON: [],
            summary: [])
        let approval = PolkadotApproval.of(proposal, source: "https://d.example")
        let headline = ApprovalHeadline(.adapter(approval), source: "https://d.example", accounts: [])
        #expect(!ApprovalSubject.adapter(approval).signs && approval.kind == "metadata")
        #expect(headline.text == expected)
        #expect(headline.warnings.isEmpty == !warned)
    }

    /// What a site sends (a message, the address it names, a chain's name) is shown escaped in the headline and
    /// its mentions, never interpreted (issue 24 item 8).
    @Test(arguments: DisplayVectors.nasty)
    func aSitesTextIsShownEscaped(input: String, shown: String) {
        let request = BytesSigningRequest(
            address: input, accountKey: Self.alice.key, message: MessageWrapping.wrap(Array(input.utf8)), summary: [])
        let approval = PolkadotApproval.of(request, account: Self.alice, source: "https://d.example")
        let headline = ApprovalHeadline(.adapter(approval), source: "https://d.example", accounts: [])
        IconApprovalTests.expectVisible(headline, "message")
        #expect(headline.mentions.first?.address == shown)

        let update = PolkadotApproval.of(
            MetadataProposal(
                genesisHash: "0x91b1", chain: input, specVersion: 7, knownSpecVersion: nil, definitionJSON: [],
                summary: [SummaryRow("chain", input)]),
            source: "https://d.example")
        let m = ApprovalHeadline(.adapter(update), source: "https://d.example", accounts: [])
        IconApprovalTests.expectVisible(m, "metadata")
        #expect(m.text.contains(shown))
    }

    /// What the journal records of a transaction and a message: the protocol and method, the
    /// generic SS58 account (not the grant book's `0x…` key, which the queue checks), and the digest
    /// of exactly the bytes signed.
    @Test func theJournalRecordsTheMethodTheAccountAndTheSignedBytes() throws {
        let transaction = try Self.extrinsic("00001468656c6c6f")
        let tx = PolkadotApproval.of(transaction, account: Self.alice, source: "https://d.example")
        #expect(JournalRecords.protocolName(of: .adapter(tx)) == "polkadot")
        #expect(JournalRecords.method(of: .adapter(tx)) == "pub(extrinsic.sign)")
        #expect(JournalRecords.account(of: .adapter(tx)) == Self.alice.address)
        #expect(tx.accountKey == Self.alice.key && tx.kind == "extrinsic")
        #expect(
            JournalRecords.subjectDigest(.adapter(tx))
                == JournalCodec.hash(transaction.prepared.signing.signedBytes))
        #expect(ApprovalSubject.adapter(tx).signs)

        let wrapped = MessageWrapping.wrap(Array("hello".utf8))
        let message = BytesSigningRequest(
            address: Self.alice.address, accountKey: Self.alice.key, message: wrapped, summary: [])
        let bytes = PolkadotApproval.of(message, account: Self.alice, source: "https://d.example")
        #expect(JournalRecords.method(of: .adapter(bytes)) == "pub(bytes.sign)")
        #expect(JournalRecords.subjectDigest(.adapter(bytes)) == JournalCodec.hash(wrapped))
        #expect(bytes.kind == "bytes" && bytes.title == "Sign a message for https://d.example?")

        let definition = Array(#"{"genesisHash":"0x91b1","specVersion":7}"#.utf8)
        let update = PolkadotApproval.of(
            MetadataProposal(
                genesisHash: "0x91b1", chain: "Polkadot", specVersion: 7, knownSpecVersion: nil,
                definitionJSON: definition, summary: []),
            source: "https://d.example")
        #expect(JournalRecords.method(of: .adapter(update)) == "pub(metadata.provide)")
        #expect(JournalRecords.subjectDigest(.adapter(update)) == JournalCodec.hash(definition))
        #expect(JournalRecords.account(of: .adapter(update)).isEmpty)
    }
}
