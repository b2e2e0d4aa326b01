import IconCodec
import SigilTesting
import Keystore
import Primitives
import SigningKeys
import StateStore
import Testing

@testable import SignerCore

/// ICON signing inside SignerCore (docs/reference/icon.md): V-ICON-7 byte for byte through
/// `prepareIcon` → `signIcon` (the prepared transaction's hash is what is signed), the refusals
/// surfacing from IconCodec, and the summary a person reads (exact ICX, dates, warnings).
@Suite struct IconSigningTests {
    static let key1 = IconVectors.key1
    static let address1 = IconVectors.address1
    /// 2022-01-13 04:34:03 UTC, V-ICON-7's timestamp, as "now".
    static let now: Int64 = 0x5d56f3231f818

    func service() throws -> (SigningService, SignerAccount) {
        let pair = try IconKeyPair(secretKey: SecretBytes(try Hex.decode(Self.key1, prefix: .forbidden)))
        let info = IconAccountInfo(address: pair.address, name: "K1", whenCreated: nil, isTesting: false, fileName: "")
        let service = SigningService(
            accounts: [], store: try SQLiteStateStore.inMemory(),
            icon: IconKeyring(accounts: [info], pairs: [pair.address: pair]))
        return (service, try #require(service.accounts().first))
    }

    typealias Vector = IconVector

    /// V-ICON-7 A, B, C (SigilTesting's `IconVectors`).
    static let vectors = IconVectors.transactions

    @Test(arguments: vectors)
    func vIcon7IsSignedByteForByteAfterPreparation(_ v: Vector) throws {
        let (service, account) = try service()
        let request = try service.prepareIcon(
            transaction: try JSONValue.parse(v.json), action: .signOnly, account: account, now: Self.now)
        #expect(Hex.encode(request.hash, prefix: false) == v.hash)
        let signature = try service.signIcon(request)
        #expect(signature.base64 == v.signature)
        #expect(try IconKeyPair.recoverAddress(signature: signature.signature, hash: request.hash) == Self.address1)
        #expect(signature.signedTransaction?["signature"]?.stringValue == v.signature)
        #expect(request.summary.contains { $0.label == "note" && $0.value.contains("the site, not Sigil") })
    }

    @Test func theApprovedHashIsSignedNotAnotherAccountsTransaction() throws {
        let (service, account) = try service()
        // V-ICON-3: `from` is not key 1's address; the SDK test signs it anyway, Sigil refuses.
        let v3 =
            #"{"to":"hx87a90bfe8ed49e1a25184ce77fa0d9c4b0484d6a","from":"hx46293d558d3bd489c3715e7e3648de0e35086bfd","stepLimit":"0x186a0","nid":"0x3","version":"0x3","timestamp":"0x57ccd6ba074f8","value":"0x7","nonce":"0x1"}"#
        #expect(throws: SignerError(.unknownAccount, "")) {
            try service.prepareIcon(
                transaction: try JSONValue.parse(v3), action: .send, account: account, now: Self.now)
        }
        var request = try service.prepareIcon(
            transaction: try JSONValue.parse(Self.vectors[0].json), action: .send, account: account, now: Self.now)
        request.hash = Array(repeating: 7, count: 32)  // anything but the prepared transaction's hash
        #expect(throws: SignerError(.unknownAccount, "")) { try service.signIcon(request) }
        let stranger = SignerAccount(
            key: "hx" + String(repeating: "1", count: 40), address: "hx" + String(repeating: "1", count: 40), name: nil,
            type: "icon", genesisHash: nil)
        #expect(throws: SignerError(.unknownAccount, "")) {
            try service.prepareIcon(
                transaction: try JSONValue.parse(Self.vectors[0].json), action: .send, account: stranger, now: Self.now)
        }
    }

    /// The refusals of the issue, each with its IconCodec code, as they come out of preparation.
    @Test(arguments: [
        (#""stepLimit":"0x01""#, IconCodecErrorCode.nonCanonicalInteger),
        (#""stepLimit":"0XA""#, .nonCanonicalInteger),
        (#""stepLimit":"0xA""#, .nonCanonicalInteger),
        (#""stepLimit":100000"#, .numberNotHexString),
        (#""to":"HX87A90BFE8ED49E1A25184CE77FA0D9C4B0484D6A""#, .invalidAddress),
        (#""extra":"0x1""#, .unknownField),
        (#""version":"0x2""#, .unsupportedVersion),
        (#""dataType":"deploy","data":{"contentType":"application/zip","content":"0x00"}"#, .unsupportedDataType),
        (#""dataType":"call","data":{"method":"m","params":{"n":5}}"#, .numberInData),
        (#""dataType":"call","data":{"method":"m","params":{"b":true}}"#, .booleanInData),
        (#""dataType":"call","data":{"method":"m","params":{"é":"x"}}"#, .nonASCIIKey),
        (#""dataType":"call","data":{"method":"m","params":{"a.b":"x"}}"#, .specialCharacterInKey),
        (#""signature":"x""#, .signaturePresent),
        (#""data":"0x00""#, .dataWithoutDataType),
    ])
    func refusalsSurfaceWithTheirNamedError(_ change: String, _ code: IconCodecErrorCode) throws {
        let (service, account) = try service()
        // A change replaces the field it names (JSON objects keep the last key only in this test's text).
        let base = try JSONValue.parse(Self.vectors[0].json)
        let patch = try JSONValue.parse("{" + change + "}")
        guard case .object(var object) = base, case .object(let extra) = patch else { return }
        for (key, value) in extra { object[key] = value }
        #expect {
            try service.prepareIcon(transaction: .object(object), action: .send, account: account, now: Self.now)
        } throws: { error in
            (error as? IconCodecError)?.code.rawValue == code.rawValue
        }
    }

    @Test func missingNidIsRefused() throws {
        let (service, account) = try service()
        guard case .object(var object) = try JSONValue.parse(Self.vectors[0].json) else { return }
        object["nid"] = nil
        #expect {
            try service.prepareIcon(transaction: .object(object), action: .send, account: account, now: Self.now)
        } throws: { error in (error as? IconCodecError)?.field == "nid" }
    }

    @Test(arguments: [
        ("0x0", "0"), ("0x1", "0.000000000000000001"), ("0xde0b6b3a7640000", "1"),
        ("0xde0b6b3a7640001", "1.000000000000000001"), ("0x1bc16d674ec80000", "2"),
        ("0x2b5e3af16b1880000", "50"), ("0x56bc75e2d63100000", "100"),
        (
            "0x" + String(repeating: "f", count: 64),
            "115792089237316195423570985008687907853269984665640564039457.584007913129639935"
        ),
    ])
    func icxIsExactWithEighteenDecimals(_ hex: String, _ icx: String) {
        #expect(IconSummary.icx(hex) == icx)
    }

    @Test(arguments: [
        (Int64(0x5d56f3231f818), "2022-01-13 04:34:03 UTC"), (0, "1970-01-01 00:00:00 UTC"),
        (951_782_400_000_000, "2000-02-29 00:00:00 UTC"), (1_700_000_000_123_456, "2023-11-14 22:13:20 UTC"),
    ])
    func timestampsAreUTCDates(_ micros: Int64, _ text: String) {
        #expect(IconSummary.utcDate(micros) == text)
    }

    @Test func theSummaryIsInWordsAndWarnsOnSkewAndUnknownNetworks() throws {
        let (service, account) = try service()
        let rows = try service.prepareIcon(
            transaction: try JSONValue.parse(Self.vectors[0].json), action: .send, account: account, now: Self.now
        ).summary
        func row(_ label: String) -> SummaryRow? { rows.first { $0.label == label } }
        #expect(row("network")?.value == "ICON Mainnet (nid 0x1)")
        #expect(row("from")?.value == "K1 (\(Self.address1))")
        #expect(row("value")?.value == "1 ICX (1000000000000000000 loop)")
        #expect(row("step limit")?.value == "100000")
        #expect(row("timestamp")?.value == "2022-01-13 04:34:03 UTC (0 min 0 s from now)")
        #expect(row("timestamp")?.isWarning == false)
        #expect(row("transaction hash")?.value == "0x" + Self.vectors[0].hash)
        let late = try service.prepareIcon(
            transaction: try JSONValue.parse(Self.vectors[0].json), action: .send, account: account,
            now: Self.now + 10 * 60 * 1_000_000
        ).summary.first { $0.label == "timestamp" }
        #expect(late?.isWarning == true && late?.value.contains("10 min 0 s ago") == true)
        guard case .object(var other) = try JSONValue.parse(Self.vectors[1].json) else { return }
        other["nid"] = "0x99"
        let token = try service.prepareIcon(transaction: .object(other), action: .send, account: account, now: Self.now)
        #expect(token.summary.first { $0.label == "network" }?.isWarning == true)
        #expect(token.summary.contains { $0.label == "call" && $0.value == "transfer" })
        #expect(token.summary.contains { $0.label == "to" && $0.value.hasPrefix("contract (SCORE) cx") })
        #expect(
            token.summary.contains { $0.label == "  _to" && $0.value == "hxab2d8215eab14bc6bdd8bfb2c8151257032ecd8b" })
    }

    @Test func messagesAreShownAsText() throws {
        let (service, account) = try service()
        guard case .object(var tx) = try JSONValue.parse(Self.vectors[0].json) else { return }
        tx["dataType"] = "message"
        tx["data"] = .string(Hex.encode(Array("hello ICON".utf8)))
        let rows = try service.prepareIcon(transaction: .object(tx), action: .send, account: account, now: Self.now)
            .summary
        #expect(rows.contains { $0.label == "message" && $0.value == "hello ICON" })
    }

    @Test func blindHashesCarryALoudWarning() throws {
        let (service, account) = try service()
        let hash = try Hex.decode(
            "ba4da77c1dbf48071fbd3f9ee6d869580d177f01468e1e42bbb58733b9087f64", prefix: .forbidden)
        let request = try service.prepareIconHash(hash: hash, account: account)
        #expect(
            request.summary.first?.isWarning == true && request.summary.first?.value.contains("BLIND SIGNING") == true)
        // V-ICON-2: the published signature of this hash with key 1.
        #expect(
            try service.signIcon(request).base64
                == "4RYSXFpcyLMg3g7ZBT3MnLQcRA3ma5CIpgQEGD8isqJPku/YnAIhJq7q8iy7+mvgni7CBX4otwuhfQLKRQ5RngE=")
        #expect(throws: SignerError(.badLength, "")) { try service.prepareIconHash(hash: [1, 2], account: account) }
    }

    /// V-ICON-6 (published: icon-community/ice-substrate `pallets/airdrop` tests): the verify /
    /// recover path on a message an ICON wallet signed (its `..` is in the signed text, so it is not
    /// a transaction Sigil would build; only recovery is checked), with FIPS SHA3-256.
    @Test func vIcon6RecoversThePublishedAddress() throws {
        let message = Array(
            ("icx_sendTransaction.data.{method.transfer.params.{wallet.da8db20713c087e12abae13f522693299b9de1b70ff0464caa5d392396a8f76c}}"
                + ".dataType.call.from.hxdd9ecb7d3e441d25e8c4f03cd20a80c502f0c374.nid.0x1.nonce.0x1..timestamp.0x5d56f3231f818"
                + ".to.cx8f87a4ce573a2e1377545feabac48a960e8092bb.version.0x3").utf8)
        let signature = try Hex.decode(
            "628af708622383d60e1d9d95763cf4be64d0bafa8daebb87847f14fde0db40013105586f0c937ddf0e8913251bf01cf8e0ed82e4f631b666453e15e50d69f3b900",
            prefix: .forbidden)
        #expect(
            try IconKeyPair.recoverAddress(signature: signature, hash: SHA3_256.hash(message))
                == "hxee1448f0867b90e6589289a4b9c06ac4516a75a9")
        #expect(
            !IconKeyPair.verify(
                signature: signature, hash: Keccak256.hash(message),
                address: "hxee1448f0867b90e6589289a4b9c06ac4516a75a9"))
    }

    @Test func iconAccountsAreListedWithTheirAddressAsKey() throws {
        let (service, account) = try service()
        #expect(
            account
                == SignerAccount(key: Self.address1, address: Self.address1, name: "K1", type: "icon", genesisHash: nil)
        )
        #expect(service.accountKey(forAddress: Self.address1) == Self.address1)
        #expect(service.accountKey(forAddress: "hxNOTHEX") == nil)
    }
}

/// `IconCodecError.Code` under a name the argument table can spell without importing IconCodec.
typealias IconCodecErrorCode = IconCodecError.Code

extension IconVector: CustomTestStringConvertible {
    public var testDescription: String { name }
}
