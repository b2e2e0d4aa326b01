import Foundation
import Keystore
import MetadataHash
import PolkadotCodec
import Primitives
import ScaleCodec
import SigningKeys
import StateStore
import Testing

@testable import SignerCore

/// RFC-0078 through the signing service with //Alice's real key (docs/reference/metadata-hash.md
/// §10): a site's `metadataHash` compared with the hash of the approved metadata, Sigil's own hash
/// put into a mode-0 payload that asks for the signed transaction, and "cannot verify" without
/// approved metadata. The expected hash is the reference crate's (`Resources/metadata-hash.json`).
@Suite struct MetadataHashSigningTests {
    static let polkadot = "0x91b171bb158e2d3848fa23a9f1c25182fb8e20313b2c1eb49219da7a70ce90c3"
    /// A genesis hash no table knows: decimals and symbol come only from the approved properties.
    static let otherChain = "0x2222222222222222222222222222222222222222222222222222222222222222"
    static let alice = SignerAccount(
        key: "0xd43593c715fdd31c61141abd04a99fd6822c8558854ccde39a5684e7a56da27d",
        address: "5GrwvaEF5zXb26Fz9rcQpDWS57CtERHpNehXCPcNoHGKutQY", name: "Alice", type: "sr25519", genesisHash: nil)
    static let bob = "8eaf04151687736326c9fea17e25fc5287613693c912909cb226aa4794f26a48"
    static let blockHash = "0x" + String(repeating: "ab", count: 32)
    /// `Balances.transfer_keep_alive(Bob, 1 DOT)`.
    static let transfer = "0x050300" + bob + "0700e40b5402"

    /// The reference crate's hash of `polkadot-v15.scale` with Polkadot's own extra information.
    static func referenceHash() throws -> [UInt8] {
        let vector = try PayloadResources.json("metadata-hash.json")
        return try Hex.decode(try #require(vector["metadataHash"] as? String), prefix: .required, byteCount: 32)
    }

    /// A Polkadot `SignerPayloadJSON` from Alice for `genesis`, spec 2000000 unless told.
    static func payload(
        genesis: String = polkadot, mode: Int = 0, hash: [UInt8]? = nil, withSignedTransaction: Bool = true,
        specVersion: String = "0x001e8480"
    ) -> JSONValue {
        let immortal = genesis != polkadot
        let text = """
            {"address":"\(alice.address)","assetId":null,"blockHash":"\(immortal ? genesis : blockHash)",
            "blockNumber":"0x014fb1fb","era":"\(immortal ? "0x00" : "0xb503")","genesisHash":"\(genesis)",
            "metadataHash":\(hash.map { "\"\(Hex.encode($0))\"" } ?? "null"),"method":"\(transfer)","mode":\(mode),
            "nonce":"0x00000008","signedExtensions":["AuthorizeCall","CheckNonZeroSender","CheckSpecVersion",
            "CheckTxVersion","CheckGenesis","CheckMortality","CheckNonce","CheckWeight","ChargeTransactionPayment",
            "PrevalidateAttests","CheckMetadataHash"],"specVersion":"\(specVersion)",
            "tip":"0x00000000000000000000000000000000","transactionVersion":"0x0000001a","version":4,
            "withSignedTransaction":\(withSignedTransaction)}
            """
        return (try? JSONValue.parse(Array(text.utf8))) ?? .null
    }

    enum Stored {
        case none
        /// The whole metadata (`rawMetadata`) with these properties.
        case full(genesis: String, decimals: UInt8?, symbol: String?)
        /// Only the calls-only `metaCalls` form.
        case callsOnly
    }

    /// A signing service over //Alice whose state store holds what a person approved.
    static func service(
        _ stored: Stored = .full(genesis: polkadot, decimals: 10, symbol: "DOT"),
        hashes: MetadataHashCache = MetadataHashCache(), settings: [String: String] = [:]
    ) throws -> SigningService {
        let store = try SQLiteStateStore.inMemory()
        let raw = try PayloadResources.data("polkadot-v15.scale")
        switch stored {
        case .none: break
        case .full(let genesis, let decimals, let symbol):
            try store.saveMetadata(
                ChainMetadata(
                    genesisHash: genesis, specVersion: 2_000_000, chain: "Chain", ss58Format: 0, tokenSymbol: symbol,
                    tokenDecimals: decimals, metadata: raw))
        case .callsOnly:
            let def = #"{"metaCalls":"\#(Data(raw).base64EncodedString())"}"#
            try store.saveMetadata(
                ChainMetadata(
                    genesisHash: polkadot, specVersion: 2_000_000, chain: "Polkadot", ss58Format: 0, tokenSymbol: "DOT",
                    tokenDecimals: 10, metadata: [], extraJSON: def))
        }
        for (key, value) in settings { try store.setSetting(key, to: value) }
        return SigningService(
            accounts: [(alice, try KeyPair(uri: "//Alice", scheme: .sr25519))], store: store, metadataHashes: hashes)
    }

    static func row(_ request: ExtrinsicSigningRequest) throws -> SummaryRow {
        try #require(request.summary.first { $0.label == "metadata hash" })
    }

    static func verifies(_ signature: MultiSignature, over message: [UInt8]) throws -> Bool {
        KeyScheme.sr25519.verify(
            signature: signature.signature, message: message, signer: try Hex.decode(alice.key, prefix: .required))
    }

    // MARK: mode 1 from the site

    @Test func theRightHashSignsAndTheSummarySaysVerified() throws {
        let hash = try Self.referenceHash()
        let service = try Self.service()
        let request = try service.prepareExtrinsic(payload: Self.payload(mode: 1, hash: hash), account: Self.alice)
        #expect(request.prepared.summary.metadataHashStatus == .verified(hash))
        let row = try Self.row(request)
        #expect(!row.isWarning && row.value.hasPrefix("verified (CheckMetadataHash)"))
        #expect(row.value.contains(Hex.encode(hash)))
        // The site's bytes are signed as sent: mode 1 and Some(hash) at the ends of extra and additional-signed.
        let signing = request.prepared.signing
        #expect(signing.extra.last == 1)
        #expect(Array(signing.additionalSigned.suffix(33)) == [1] + hash)
        let result = try service.signExtrinsic(request)
        #expect(try Self.verifies(result.signature, over: signing.signedBytes))
    }

    /// A hash that is not the chain's as Sigil knows it is refused before queueing: another hash, or
    /// the right metadata with other chain properties (on a chain the known-chain table does not cover).
    @Test(arguments: [
        ("a flipped bit", Stored.full(genesis: polkadot, decimals: 10, symbol: "DOT"), polkadot, true),
        ("other approved decimals", Stored.full(genesis: otherChain, decimals: 12, symbol: "DOT"), otherChain, false),
        ("other approved symbol", Stored.full(genesis: otherChain, decimals: 10, symbol: "DOTS"), otherChain, false),
    ])
    func aHashThatIsNotTheChainsIsRefused(_ what: String, stored: Stored, genesis: String, flip: Bool) throws {
        var hash = try Self.referenceHash()
        if flip { hash[31] ^= 1 }
        let service = try Self.service(stored)
        #expect(throws: SignerError(.metadataHashMismatch, "")) {
            try service.prepareExtrinsic(
                payload: Self.payload(genesis: genesis, mode: 1, hash: hash), account: Self.alice)
        }
    }

    /// The properties behind the hash are the ones the summary shows: the approved ones for a chain
    /// the table does not know; the table's for Polkadot, whatever a site's approved properties say.
    @Test(arguments: [
        (Stored.full(genesis: otherChain, decimals: 10, symbol: "DOT"), otherChain),
        (Stored.full(genesis: polkadot, decimals: 12, symbol: "WND"), polkadot),
        (Stored.full(genesis: polkadot, decimals: nil, symbol: nil), polkadot),
    ])
    func theHashUsesTheApprovedPropertiesAndTheKnownChainTable(stored: Stored, genesis: String) throws {
        let hash = try Self.referenceHash()
        let request = try Self.service(stored).prepareExtrinsic(
            payload: Self.payload(genesis: genesis, mode: 1, hash: hash), account: Self.alice)
        #expect(request.prepared.summary.metadataHashStatus == .verified(hash))
    }

    /// Without what the hash needs, a mode-1 payload is not refused but flagged: it cannot be verified.
    @Test(arguments: [
        (Stored.none, "0x001e8480", "no metadata for this chain was approved"),
        (Stored.callsOnly, "0x001e8480", "calls-only form"),
        (
            Stored.full(genesis: polkadot, decimals: 10, symbol: "DOT"), "0x001e8481",
            "spec version 2000000, the payload for 2000001"
        ),
        (
            Stored.full(genesis: otherChain, decimals: nil, symbol: nil), "0x001e8480",
            "decimals and symbol are not known"
        ),
    ])
    func withoutApprovedMetadataTheSummarySaysItCannotVerify(stored: Stored, spec: String, reason: String) throws {
        let hash = try Self.referenceHash()
        var genesis = Self.polkadot
        if case .full(let g, _, _) = stored { genesis = g }
        let service = try Self.service(stored)
        let request = try service.prepareExtrinsic(
            payload: Self.payload(genesis: genesis, mode: 1, hash: hash, specVersion: spec), account: Self.alice)
        guard case .unverified(let sent, let why) = request.prepared.summary.metadataHashStatus else {
            Issue.record("\(request.prepared.summary.metadataHashStatus)")
            return
        }
        #expect(sent == hash && why.contains(reason))
        let row = try Self.row(request)
        #expect(row.isWarning && row.value.hasPrefix("cannot verify"))
        #expect(
            try Self.verifies(try service.signExtrinsic(request).signature, over: request.prepared.signing.signedBytes))
    }

    // MARK: mode 0 from the site

    /// Sigil sets mode 1 and its hash at preparation; the signed transaction carries mode 1, the
    /// signature covers call ‖ extra ‖ additional-signed with `Some(hash)` (built here by hand), and
    /// everything else is the site's bytes.
    @Test func aModeZeroPayloadAskingForTheSignedTransactionGetsModeOneAndSigilsHash() throws {
        let hash = try Self.referenceHash()
        let hashes = MetadataHashCache()
        let service = try Self.service(hashes: hashes)
        let original = Self.payload(mode: 0)
        let request = try service.prepareExtrinsic(payload: original, account: Self.alice)
        #expect(request.prepared.payload.mode == 1 && request.prepared.payload.metadataHash == hash)
        #expect(request.prepared.summary.metadataHashStatus == .added(hash))
        let row = try Self.row(request)
        #expect(!row.isWarning && row.value.hasPrefix("added by Sigil"))

        let result = try service.signExtrinsic(request)
        let tx = try #require(result.signedTransaction)
        // Decode the signed v4 extrinsic: length, version, MultiAddress::Id, MultiSignature, extra, call.
        var r = ScaleReader(tx)
        #expect(try r.readCompact() == UInt128(tx.count - 2))
        #expect(try r.readU8() == 0x84)
        #expect(try MultiAddress(from: &r) == .id(try Hex.decode(Self.alice.key, prefix: .required)))
        let signature = try MultiSignature(from: &r)
        #expect(signature == result.signature)
        #expect(try ExtrinsicEra(from: &r) == (try ExtrinsicEra(bytes: [0xb5, 0x03])))
        #expect(try r.readCompact() == 8)  // nonce
        #expect(try r.readCompact() == 0)  // tip
        #expect(try r.readU8() == 1)  // CheckMetadataHash mode
        let call = try r.readBytes(r.remaining)
        #expect(call == (try Hex.decode(Self.transfer, prefix: .required)))

        // What the chain checks the signature against, written out for the Polkadot extension list.
        var message = call + [0xb5, 0x03, 8 << 2, 0, 1]
        message += [0x80, 0x84, 0x1e, 0x00, 26, 0, 0, 0]  // spec 2000000, transaction version 26
        message +=
            try Hex.decode(Self.polkadot, prefix: .required) + (try Hex.decode(Self.blockHash, prefix: .required))
        message += [1] + hash
        #expect(message.count <= 256)
        #expect(try Self.verifies(signature, over: message))

        // Everything but the mode byte and the hash is the site's own payload.
        let site = try PreparedPayload(value: original).signing
        #expect(request.prepared.signing.call == site.call)
        #expect(request.prepared.signing.extra == site.extra.dropLast() + [1])
        #expect(request.prepared.signing.additionalSigned == site.additionalSigned.dropLast() + [1] + hash)

        // Computed once for the chain and runtime: a second request is a cache hit.
        _ = try service.prepareExtrinsic(payload: original, account: Self.alice)
        #expect(hashes.statistics.misses == 1 && hashes.statistics.hits >= 1)
    }

    /// Mode 0 stays mode 0 (byte for byte the site's payload) when the check is not added, and the
    /// summary says why.
    @Test(arguments: [
        (
            "off for this chain", Stored.full(genesis: polkadot, decimals: 10, symbol: "DOT"), true, true,
            "turned off for this chain"
        ),
        (
            "no signed transaction asked", Stored.full(genesis: polkadot, decimals: 10, symbol: "DOT"), false, false,
            "only when the site asks for the signed transaction"
        ),
        ("no approved metadata", Stored.none, true, false, "Sigil cannot add it: no metadata"),
    ])
    func modeZeroStaysWhenTheCheckIsNotAdded(
        _ what: String, stored: Stored, withSignedTransaction: Bool, off: Bool, note: String
    ) throws {
        let settings =
            off
            ? [MetadataHashCheck.settingKey(genesisHash: try Hex.decode(Self.polkadot, prefix: .required)): "off"] : [:]
        let service = try Self.service(stored, settings: settings)
        let original = Self.payload(mode: 0, withSignedTransaction: withSignedTransaction)
        let request = try service.prepareExtrinsic(payload: original, account: Self.alice)
        #expect(request.prepared.payload.mode == 0 && request.prepared.payload.metadataHash == nil)
        guard case .notUsed(let why?) = request.prepared.summary.metadataHashStatus else {
            Issue.record("\(request.prepared.summary.metadataHashStatus)")
            return
        }
        #expect(why.contains(note))
        #expect(request.prepared.signing.bytes == (try PreparedPayload(value: original).signing.bytes))
    }

    // MARK: the decision table alone

    /// `MetadataHashCheck.apply` on every combination that decides something (ours = 0x11…, the
    /// site's other hash = 0x22…): the status, and the payload's mode afterwards.
    @Test(arguments: [
        // mode, site hash, signed tx, adds, chain has extension, Sigil knows its hash → status, mode after
        (1, true, false, true, true, true, "verified", 1),
        (1, true, false, true, false, true, "unverified", 1),  // the chain does not check it
        (1, true, false, true, true, false, "unverified", 1),
        (0, false, true, true, true, true, "added", 1),
        (0, false, true, false, true, true, "notUsed", 0),
        (0, false, true, true, false, true, "notUsed", 0),
        (0, false, true, true, true, false, "notUsed", 0),
        (0, false, false, true, true, true, "notUsed", 0),
    ])
    func theDecisionTable(
        mode: Int, siteHash: Bool, signedTransaction: Bool, adds: Bool, chainHas: Bool, known: Bool, status: String,
        modeAfter: Int
    ) throws {
        let ours = [UInt8](repeating: 0x11, count: 32)
        var payload = try SignerPayload(
            value: Self.payload(mode: mode, hash: siteHash ? ours : nil, withSignedTransaction: signedTransaction))
        let result = try MetadataHashCheck.apply(
            to: &payload, expected: known ? .known(ours) : .unknown("why"), chainHasExtension: chainHas,
            addsCheck: adds)
        #expect(result.name == status)
        #expect(Int(payload.mode) == modeAfter && (payload.metadataHash != nil) == (modeAfter == 1))
        if modeAfter == 1 { #expect(payload.metadataHash == ours) }
    }

    @Test func aDifferentSiteHashIsRefusedOnlyWhenItIsSigned() throws {
        let ours = [UInt8](repeating: 0x11, count: 32)
        let theirs = [UInt8](repeating: 0x22, count: 32)
        var payload = try SignerPayload(value: Self.payload(mode: 1, hash: theirs))
        #expect(throws: SignerError(.metadataHashMismatch, "")) {
            try MetadataHashCheck.apply(to: &payload, expected: .known(ours), chainHasExtension: true, addsCheck: true)
        }
        // Not in the payload's extension list: the hash is not signed, so nothing is checked.
        payload.signedExtensions.removeAll { $0 == MetadataHashCheck.extensionName }
        let status = try MetadataHashCheck.apply(
            to: &payload, expected: .known(ours), chainHasExtension: true, addsCheck: true)
        #expect(
            status
                == .unverified(
                    theirs, reason: "CheckMetadataHash is not in the payload's extension list, so it is not signed"))
    }
}
